import { setMaxListeners } from 'node:events';
import type { CrawlRequest, FetchResult, NewRequest } from '../types.js';
import { DEFAULT_LEASE_MS, THROUGH_REDIRECT, type Frontier, type Outcome } from '../frontier/frontier.js';
import type { PageRecord, Store } from '../store/store.js';
import { CrawlEventBus } from './crawl-events.js';
import { RedirectGuard } from './redirect-guard.js';
import { RedirectHandOff } from './redirect-hand-off.js';
import type { Strategy } from '../strategies/strategy.js';
import { FetchError, type Fetcher } from '../fetch/fetcher.js';
import { internalErrorLine, isBackendFailure } from '../errors.js';
import { ROBOTS_AGENT, type RobotsCache } from '../fetch/robots-cache.js';
import type { HostHealth } from '../fetch/host-health.js';
import { type RetryPolicy, defaultRetryPolicy, isTransientStatus, parseRetryAfter } from '../fetch/retry-policy.js';
import { decodeHtml } from '../fetch/decode-body.js';
import { isBinaryBody, isHtmlType } from '../fetch/http-fetcher.js';
import { parseHtml } from '../parse/html-page.js';
import { robotsHeader } from '../parse/robots-header.js';
import { hostOf, normalizeUrl } from '../parse/normalize-url.js';
import { profileCosine, topicProfile } from '../relevance/vsm-scorer.js';
import type { CrawlScope } from './crawl-scope.js';
import { newStats, type CrawlStats } from './crawl-stats.js';
import { ServiceProbing } from './service-probing.js';
import type { TrapGuard } from './trap-guard.js';
import { SitemapReading, type SitemapOptions } from './sitemap-reading.js';
import { RequestSlots } from './request-slots.js';
import { LinkAdmission } from './link-admission.js';
import { UrlEnding } from './url-ending.js';
import { storedHeaders } from './stored-headers.js';
export { defaultSitemapOptions, urlWords, type SitemapOptions } from './sitemap-reading.js';
import type { ServiceDetection } from '../services/service-detection.js';
import type { ServiceRegistry } from '../services/service-registry.js';

/** The longest a redirect hop waits for its host's delay by default (crawl-parts sets less for a short totalTimeoutMs). */
const MAX_HOP_WAIT_MS = 10_000;

export interface CrawlerOptions {
  frontier: Frontier;
  store: Store;
  fetcher: Fetcher;
  /** Null disables robots.txt (tests, replay). */
  robots: RobotsCache | null;
  /** The crawl's delay between requests to a host, which a redirect hop to the same host waits too. Default 0. */
  delayMs?: number;
  /** The longest a redirect hop waits: a chain of waits must fit the request's total time. Default 10 s. */
  maxHopWaitMs?: number;
  /**
   * Redirects a chain may take, counted across the hand-offs to other hosts too (the fetcher
   * counts only the hops inside one fetch). Default 5, the fetcher's.
   */
  maxRedirects?: number;
  /** The token `<meta name=…>` and X-Robots-Tag lines for one crawler are matched against (robotsAgentOf). Default 'focuscrawl'. */
  robotsAgent?: string;
  /** Answers come from a recording (--replay): no server to be polite to, so robots.txt's Crawl-delay is not kept. */
  replaying?: boolean;
  strategy: Strategy;
  scope: CrawlScope;
  /** Fetches (done + error) over the whole crawl, resumed runs included. */
  maxPages: number;
  /** Links deeper than this are discarded; seeds are depth 0. */
  maxDepth: number;
  /** Requests in flight at once over all hosts. */
  concurrency: number;
  retry?: RetryPolicy;
  /** How often the store's buffered writes are handed over (Store.flush). */
  flushIntervalMs?: number;
  /** How long a claimed URL is leased; leases in flight are renewed every third of it. Default DEFAULT_LEASE_MS. */
  leaseMs?: number;
  /** How often expired leases of other (dead) workers are returned to waiting (Frontier.reap). Default 5 s. */
  reapIntervalMs?: number;
  /**
   * Other workers crawl the same frontier: the page budget counts their fetches too (the frontier's
   * done + error, read a few times a second), an idle worker polls less often, and a page waiting
   * for its commit gives its request slot back (see UrlEnding #settle).
   */
  shared?: boolean;
  /** Service detection (method B's identification step) and where its findings go; null: none. */
  services?: { detection: ServiceDetection; registry: ServiceRegistry } | null;
  /** Stop when this many pages in a row were fetched without a relevant one (0: never). Needs a topic. */
  stopWhenStalled?: number;
  /**
   * 'raise' (default): links to URLs still waiting are scored again and offered, so a better
   * parent raises them (Frontier.add); 'keep': a URL keeps the priority of its first discovery.
   */
  rediscovery?: 'raise' | 'keep';
  /** Saves state that is not in the frontier (what the strategy learned); called about every `checkpointMs` and at the end of run(). */
  checkpoint?: () => void;
  checkpointMs?: number;
  /**
   * Work beside the crawl, awaited in the loop about every `everyMs` and once at the end of run():
   * the dashboard's labels fed to the strategy, the hosts' politeness recorded for readers.
   */
  tasks?: { everyMs: number; run: () => Promise<void> }[];
  /** Network failures per host, fed by the fetcher (trackHealth): backoff and unreachable hosts. Null: none. */
  health?: HostHealth | null;
  /** Spider-trap rules for links and fetches (trap-guard.ts); null: none. */
  traps?: TrapGuard | null;
  /** Read each site's sitemaps (robots.txt Sitemap lines, else /sitemap.xml); null: none. */
  sitemaps?: SitemapOptions | null;
}

/**
 * Why a run ended: `exhausted`, nothing left that could be fetched (see stats.discardedBy for what
 * was dropped on the way); `max-pages`, the page budget; `stopped`, stop() (Ctrl-C); `stalled`,
 * the stop rule `stopWhenStalled`.
 */
/** host-budgets: URLs wait, but only on hosts that have reached their --max-pages-per-host budget. */
export type StopReason = 'exhausted' | 'host-budgets' | 'max-pages' | 'stopped' | 'stalled';

export interface CrawlSummary {
  stats: CrawlStats;
  reason: StopReason;
}

/**
 * The crawl loop: claims URLs from the frontier, fetches them, parses, lets the strategy score
 * the links, and hands everything to the frontier and store. It only moves work between those
 * parts; politeness lives in the frontier, ordering in the strategy.
 */
export class Crawler {
  readonly stats: CrawlStats = newStats();
  /** fetched, discarded, retried, probe, backlog: what the progress bar, the dashboard and the metrics listen to. */
  readonly events = new CrawlEventBus();

  /** False for a crawl without a topic (breadth-first and the like): nothing is judged relevant. */
  get hasTopic(): boolean {
    return this.#o.strategy.topic !== null;
  }
  readonly #o: Required<Omit<CrawlerOptions, 'robots' | 'services' | 'sitemaps'>> & { robots: RobotsCache | null; sitemaps: SitemapOptions | null };
  readonly #probing: ServiceProbing | null;
  /** Aborts the requests in flight (stop()); one per run. */
  #abort = stopController();
  readonly #slots: RequestSlots;
  #finalBefore = 0;
  #stopping = false;
  #running = false;
  /** stop() was called while no run() was going: the next one ends at once, reason 'stopped'. */
  #stopBeforeRun = false;
  /** Pages scored since the last relevant one (the stall rule). */
  #sinceRelevant = 0;
  #stalled = false;
  #wake: (() => void) | null = null;
  #lastFlush = Date.now();
  #lastCheckpoint = Date.now();
  #lastRenew = Date.now();
  #lastReap = 0;
  #lastCounts = 0;
  readonly #lastTask = new Map<number, number>();
  #congested = false;
  /** Leases this process holds, by key: renewed while their work lasts. */
  readonly #leased = new Map<string, CrawlRequest>();
  /** A store or frontier failure in a URL's processing: the run stops and rethrows it. */
  #failure: Error | null = null;
  readonly #sitemaps: SitemapReading;
  readonly #links: LinkAdmission;
  readonly #ending: UrlEnding;
  readonly #redirects: RedirectGuard;
  readonly #handOff: RedirectHandOff;

  constructor(options: CrawlerOptions) {
    this.#o = { retry: defaultRetryPolicy, flushIntervalMs: 25, leaseMs: DEFAULT_LEASE_MS, reapIntervalMs: 5000, shared: false, replaying: false, delayMs: 0, maxHopWaitMs: MAX_HOP_WAIT_MS, maxRedirects: 5, robotsAgent: ROBOTS_AGENT, stopWhenStalled: 0, rediscovery: 'raise', checkpointMs: 30_000, tasks: [], health: null, traps: null, ...options, sitemaps: options.sitemaps ?? null, checkpoint: options.checkpoint ?? (() => {}) };
    this.#redirects = new RedirectGuard({ scope: this.#o.scope, robots: this.#o.robots, replaying: this.#o.replaying, delayMs: this.#o.delayMs, maxHopWaitMs: this.#o.maxHopWaitMs }, () => this.#abort.signal);
    this.#slots = new RequestSlots(this.#o.concurrency);
    this.#sitemaps = new SitemapReading(this.#o.sitemaps, {
      frontier: this.#o.frontier,
      scope: this.#o.scope,
      robots: this.#o.robots,
      fetcher: this.#o.fetcher,
      stats: this.stats,
      topic: () => this.#o.strategy.topic !== null,
      signal: () => this.#abort.signal,
      redirectGuard: (from, to) => this.#redirects.check(from, to, 'sitemap'),
      finish: (req, outcome, res, extra) => this.#ending.finish(req, outcome, res, extra),
      failed: (req, err) => this.#ending.failed(req, err),
      addLinks: (parent, links, view) => this.#links.add(parent, links, view),
      logDiscards: (d, parentUrl) => this.#links.logDiscards(d, parentUrl),
    });
    const sv = options.services;
    this.#probing = sv ? new ServiceProbing(sv.detection, sv.registry, options.scope, this.stats) : null;
    const o = this.#o;
    this.#links = new LinkAdmission({ frontier: o.frontier, store: o.store, strategy: o.strategy, scope: o.scope, maxDepth: o.maxDepth, traps: o.traps, probing: this.#probing, rediscovery: o.rediscovery, stats: this.stats, events: this.events });
    this.#handOff = new RedirectHandOff({
      frontier: o.frontier,
      traps: o.traps,
      maxRedirects: o.maxRedirects,
      finish: (req, outcome, res, extra) => this.#ending.finish(req, outcome, res, extra),
      logDiscards: (d, parentUrl) => this.#links.logDiscards(d, parentUrl),
    });
    this.#ending = new UrlEnding({
      frontier: o.frontier,
      store: o.store,
      strategy: o.strategy,
      probing: this.#probing,
      health: o.health,
      retry: o.retry,
      shared: o.shared,
      slots: this.#slots,
      stats: this.stats,
      events: this.events,
      scored: this.#links.scored,
      signal: () => this.#abort.signal,
      wake: () => this.#wake?.(),
    });
  }

  /**
   * Ends every waiting URL of `hosts` as discarded with `reason`, logged as any discard is, without
   * a request (a group re-run whose sites no longer include them). Returns how many ended.
   */
  async discardHosts(hosts: Iterable<string>, reason: string): Promise<number> {
    let ended = 0;
    for (const host of hosts) {
      for (const req of await this.#o.frontier.claimHost(host, Date.now())) {
        await this.#ending.finish(req, { state: 'discarded', reason }, null);
        ended++;
      }
    }
    return ended;
  }

  /** Adds seed URLs (depth 0). Returns how many were new. */
  async addSeeds(urls: string[]): Promise<number> {
    const batch: NewRequest[] = [];
    for (const raw of urls) {
      const url = normalizeUrl(raw);
      if (!url) continue;
      const d = this.#o.strategy.seed(url);
      const probe = this.#probing?.seed(url);
      batch.push({ url, host: hostOf(url), depth: 0, parent: null, anchor: '', ...probe, priority: d.priority, data: d.data ?? null });
    }
    await this.#probing?.settle();
    const added = await this.#o.frontier.add(batch, Date.now());
    await this.#o.store.flush();
    return added.filter(Boolean).length;
  }

  /**
   * Stops the crawl; run() then resolves with reason 'stopped'. The requests in flight are aborted
   * and their URLs wait again with their attempts unchanged (Ctrl-C must not wait a minute for a
   * slow server); `finishInFlight` lets them complete instead.
   */
  stop(opts: { finishInFlight?: boolean } = {}): void {
    // Before run(), or between rounds: the next run() ends at once. A stop asked while seeds were
    // still being added (a signal handler, a timer) was lost, and the crawl then ran to its end.
    if (!this.#running) this.#stopBeforeRun = true;
    this.#stopping = true;
    if (!opts.finishInFlight) this.#abort.abort();
    this.#wake?.();
  }

  /** Runs until finished, the page budget, or stop(); may be called again (a next round). */
  async run(): Promise<CrawlSummary> {
    this.#running = true;
    try {
      return await this.#run();
    } finally {
      this.#running = false;
    }
  }

  async #run(): Promise<CrawlSummary> {
    this.#stopping = this.#stopBeforeRun;
    this.#stopBeforeRun = false;
    this.#stalled = false;
    this.#sinceRelevant = 0;
    this.#abort = stopController();
    const f = this.#o.frontier;
    const c0 = await f.counts();
    this.stats.frontier = c0;
    // Fetches before this run, minus the ones this object already counts (an earlier round), and
    // minus the errors that made no request, which are not fetches.
    this.#finalBefore = c0.done + c0.error - c0.notFetched - this.stats.fetched;
    let reason: StopReason = 'exhausted';
    for (;;) {
      await this.#housekeeping();
      const busy = this.#slots.busy;
      if (this.#stopping) {
        reason = this.#stalled ? 'stalled' : 'stopped';
        if (busy === 0) break;
        await this.#sleep(1000);
        continue;
      }
      const own = this.#finalBefore + this.stats.fetched;
      // Shared: what every worker fetched, as of the last counts (errors that made no request left out, as in `own`).
      const f0 = this.stats.frontier;
      const all = this.#o.shared ? Math.max(own, f0.done + f0.error - f0.notFetched) : own;
      const budget = this.#o.maxPages - (all + this.#slots.inflight);
      if (budget <= 0) {
        // Not final while requests are in flight: some end without a fetch and give their share back.
        if (busy === 0) {
          reason = 'max-pages';
          break;
        }
        await this.#sleep(1000);
        continue;
      }
      if (this.#backlog()) {
        await this.#sleep(5);
        continue;
      }
      const now = Date.now();
      const free = Math.min(this.#slots.room(), budget);
      const claimed = free > 0 ? await f.claim(free, now, this.#o.leaseMs) : [];
      for (const req of claimed) this.#start(req);
      if (claimed.length) continue;
      if (busy === 0 && (await f.isFinished())) break;
      if (busy === 0 && (await this.#ending.endUnreachable(now))) continue;
      // With every slot busy the loop waits for a request to end (#wake): asking the frontier
      // when the next host opens would cost a shared frontier a round trip for nothing.
      const next = free > 0 ? await f.nextReadyAt(now) : null;
      const wait = free <= 0 || next === null ? 1000 : Math.max(1, next - now);
      await this.#sleep(Math.min(wait, this.#o.shared ? 100 : this.#o.flushIntervalMs));
    }
    const failure = this.#failure;
    this.#failure = null;
    if (failure) throw failure;
    this.stats.frontier = await f.counts();
    // Finished with URLs still waiting: every one of them is on a host at its page budget.
    if (reason === 'exhausted' && this.stats.frontier.waiting > 0) reason = 'host-budgets';
    this.stats.seen = f.seenCounters();
    this.#o.checkpoint();
    for (const t of this.#o.tasks) await t.run();
    await this.#o.store.flush();
    return { stats: this.stats, reason };
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(t);
        if (self.#wake === done) self.#wake = null;
        resolve();
      }
      this.#wake = done;
    });
  }

  /** The store's back-pressure, reported as a `backlog` event when it changes. */
  #backlog(): boolean {
    const congested = this.#o.store.congested();
    if (congested !== this.#congested) {
      this.#congested = congested;
      this.events.emit('backlog', { congested });
    }
    return congested;
  }

  /** Periodic work of the loop: checkpoints, store flushes, lease renewal and reaping, statistics. */
  async #housekeeping(): Promise<void> {
    const now = Date.now();
    const f = this.#o.frontier;
    if (now - this.#lastCheckpoint >= this.#o.checkpointMs) {
      this.#o.checkpoint();
      this.#lastCheckpoint = now;
    }
    for (const [i, t] of this.#o.tasks.entries()) {
      if (now - (this.#lastTask.get(i) ?? 0) < t.everyMs) continue;
      this.#lastTask.set(i, now);
      await t.run();
    }
    if (now - this.#lastFlush >= this.#o.flushIntervalMs) {
      this.#o.store.handOver();
      this.#lastFlush = now;
    }
    if (this.#leased.size && now - this.#lastRenew >= this.#o.leaseMs / 3) {
      this.#lastRenew = now;
      await f.renew([...this.#leased.values()], now, this.#o.leaseMs);
    }
    if (now - this.#lastReap >= this.#o.reapIntervalMs) {
      this.#lastReap = now;
      await f.reap(now);
    }
    // Counts may cost a round trip on a shared frontier: a few times a second is enough for progress.
    if (now - this.#lastCounts >= 250) {
      this.#lastCounts = now;
      this.stats.frontier = await f.counts();
      this.stats.seen = f.seenCounters();
    }
  }

  #start(req: CrawlRequest): void {
    this.#slots.take(req.key);
    this.#leased.set(req.key, req);
    const signal = this.#abort.signal;
    this.#process(req)
      .catch((err) => {
        // A lost Redis or PostgreSQL is not the URL's fault: nothing is recorded for it, the run
        // stops, and the URL is fetched again once its lease expires (or on resume).
        if (isBackendFailure(err)) throw err;
        // Whatever a stop cut short (a redirect's body, a robots.txt fetch) is not the URL's fault.
        if (signal.aborted) return this.#o.frontier.release(req, Date.now(), Date.now());
        return this.#ending.finish(req, { state: 'error', reason: `internal error: ${internalErrorLine(err)}` }, null);
      })
      .catch((err) => {
        // The store or the frontier failed (a lost connection): the lease expires and the URL returns.
        this.#failure ??= err as Error;
        this.stop();
      })
      .finally(() => {
        this.#leased.delete(req.key);
        this.#ending.forget(req.key);
        this.#slots.end(req.key);
        this.#wake?.();
      });
  }

  async #process(req: CrawlRequest): Promise<void> {
    const signal = this.#abort.signal;
    // An unreachable host, or one that asked to slow down (429 or 503 to another of its URLs).
    const paused = this.#o.health?.pausedUntil(req.host, Date.now());
    if (paused) return this.#o.frontier.release(req, paused, Date.now());
    const trap = req.probe || req.sitemap ? null : this.#o.traps?.claim(req.url);
    if (trap) return this.#ending.finish(req, { state: 'discarded', reason: trap }, null);
    const robots = this.#o.robots;
    if (robots) {
      const v = await robots.check(req.url, signal);
      if (v.kind !== 'unreachable') await this.#sitemaps.offer(req);
      if (v.kind === 'disallowed') return this.#ending.finish(req, { state: 'discarded', reason: 'disallowed by robots.txt' }, null);
      if (v.kind === 'unreachable') return this.#ending.failed(req, new FetchError(req.url, v.reason, { transient: true, retryAfterMs: v.retryAfterMs }));
      if (v.crawlDelayMs > 0 && !this.#o.replaying) await this.#o.frontier.setHostDelay(req.host, v.crawlDelayMs);
    } else {
      await this.#sitemaps.offer(req);
    }
    if (req.probe && this.#probing) return this.#probe(req, this.#probing);
    if (req.sitemap) return this.#sitemaps.read(req);
    let res: FetchResult;
    // Redirects that led here from other hosts (a hand-off).
    const hopsBefore = this.#handOff.hopsBefore(req);
    try {
      res = await this.#o.fetcher.fetch(req.url, { redirectGuard: (from, to) => this.#redirects.check(from, to), signal });
    } catch (err) {
      if (err instanceof FetchError) return this.#ending.failed(req, err);
      throw err;
    }
    this.stats.bytes += res.bytes;
    // The response is final (a retry would have thrown): its host may go on while the page is parsed.
    this.#ending.hostDone(req);
    if (res.movedTo) return this.#handOff.handOff(req, res, res.movedTo, hopsBefore + res.redirects.length);
    if (res.status >= 400) {
      return this.#ending.finish(req, { state: 'error', reason: `HTTP ${res.status}` }, res);
    }
    if (res.finalUrl !== req.url) {
      // Store a redirect target once: under the first URL that led to it.
      const target = { url: res.finalUrl, host: hostOf(res.finalUrl), depth: req.depth, parent: req.key, anchor: req.anchor, priority: req.priority, data: null };
      const reason = `${THROUGH_REDIRECT} from ${req.url}`;
      // A target refused before as too deep or by the strategy (revivable) is this page now: found by a shorter or better path.
      const [fresh] = await this.#o.frontier.discard([target], reason);
      if (!fresh) return this.#ending.finish(req, { state: 'done' }, res, { note: 'redirect target already seen' });
      if (fresh === 'revived') this.stats.revived++;
      await this.#links.logDiscards([{ req: target, reason }], null);
    }
    if (!res.body || !isHtmlType(res.contentType) || (res.contentType === '' && isBinaryBody(res.body))) return this.#ending.finish(req, { state: 'done' }, res);

    const { html, encoding } = decodeHtml(res.body, res.contentType);
    const page = parseHtml(html, res.finalUrl, encoding, { linkContext: this.#o.strategy.linkContext ?? 0, serviceText: this.#probing !== null, robotsAgent: this.#o.robotsAgent });
    const topic = this.#o.strategy.topic;
    const profile = topic ? topicProfile(topic, page) : null;
    const relevance = topic && profile ? profileCosine(topic, profile) : null;
    this.stats.links += page.links.length;
    const header = robotsHeader(res.headers['x-robots-tag'], this.#o.robotsAgent);
    const noindex = page.noindex || header.noindex;
    if (!page.nofollow && !header.nofollow) await this.#links.add(req, page.links, { request: req, page, relevance, profile });
    if (relevance !== null && topic) this.#countRelevance(relevance >= topic.threshold);
    const stored: PageRecord = {
      key: req.key,
      url: req.url,
      finalUrl: res.finalUrl,
      status: res.status,
      contentType: res.contentType,
      headers: storedHeaders(res.headers),
      redirects: res.redirects,
      fetchedAt: new Date().toISOString(),
      fetchMs: Math.round(res.fetchMs),
      bytes: res.bytes,
      encoding,
      title: page.title,
      text: noindex ? null : page.text,
      canonical: page.canonical,
      relevance,
      noindex,
      outlinks: page.links,
    };
    return this.#ending.finish(req, { state: 'done' }, res, { title: page.title, relevance, page: stored });
  }

  /** Fetches a capabilities document (any content type, any status) and records what it is. */
  async #probe(req: CrawlRequest, probing: ServiceProbing): Promise<void> {
    let res: FetchResult;
    try {
      res = await this.#o.fetcher.fetch(req.url, { anyContentType: true, anyStatus: true, redirectGuard: (from, to) => this.#redirects.check(from, to, 'probe'), signal: this.#abort.signal });
    } catch (err) {
      if (err instanceof FetchError) return this.#ending.failed(req, err);
      throw err;
    }
    this.stats.bytes += res.bytes;
    const { record, followUps } = probing.judge(req, res);
    // A 5xx is retried as any other, unless it carries an exception report: OGC servers answer
    // NoApplicableCode with HTTP 500, and that is the service's final word (docs/services.md).
    if (isTransientStatus(res.status) && record.status !== 'exception') {
      return this.#ending.failed(req, new FetchError(req.url, `HTTP ${res.status}`, { transient: true, status: res.status, retryAfterMs: parseRetryAfter(res.headers['retry-after']) }));
    }
    if (followUps.length) await this.#o.frontier.add(followUps, Date.now());
    // The registry entry is written before the probe's log line and final state (UrlEnding.finish).
    await probing.save(req, record);
    this.events.emit('probe', { endpoint: record.endpoint, type: record.type, status: record.status });
    const note = `${record.type} ${req.probe?.step ?? 'service'} ${record.status}${record.reason ? `: ${record.reason}` : ''}`;
    const outcome: Outcome = res.status >= 400 ? { state: 'error', reason: `HTTP ${res.status}; ${note}` } : { state: 'done' };
    return this.#ending.finish(req, outcome, res, { title: record.title ?? undefined, note });
  }

  #countRelevance(relevant: boolean): void {
    if (relevant) {
      this.stats.relevant++;
      this.#sinceRelevant = 0;
      return;
    }
    const n = this.#o.stopWhenStalled;
    if (n > 0 && ++this.#sinceRelevant >= n && !this.#stopping) {
      this.#stalled = true;
      this.stop({ finishInFlight: true });
    }
  }
}

/**
 * The run's stop: every request in flight may wait on its signal (a redirect hop's delay, the
 * fetch), far more than the 10 listeners past which Node warns of a leak.
 */
function stopController(): AbortController {
  const c = new AbortController();
  setMaxListeners(0, c.signal);
  return c;
}
