import type { CrawlRequest, FetchResult } from '../types.js';
import type { Frontier, Outcome } from '../frontier/frontier.js';
import type { PageRecord, Store } from '../store/store.js';
import type { Strategy } from '../strategies/strategy.js';
import type { FetchError } from '../fetch/fetcher.js';
import { madeNoRequest, type HostHealth } from '../fetch/host-health.js';
import type { RetryPolicy } from '../fetch/retry-policy.js';
import type { CrawlEventBus } from './crawl-events.js';
import { FIRST_FAILURES, type CrawlStats } from './crawl-stats.js';
import { countDiscard, discardKind } from './discard-reasons.js';
import { reasonLine } from '../errors.js';
import type { RequestSlots } from './request-slots.js';
import type { ServiceProbing } from './service-probing.js';
import { afterFailure, hostsToEnd } from './after-failure.js';

/** What a URL's log entry (and its page, if any) adds to its outcome. */
export interface EndingExtra {
  title?: string;
  relevance?: number | null;
  status?: number | null;
  note?: string;
  page?: PageRecord;
}

/** What ending URLs needs of the crawl it is part of. */
export interface UrlEndingCrawl {
  frontier: Frontier;
  store: Store;
  strategy: Strategy;
  probing: ServiceProbing | null;
  health: HostHealth | null;
  retry: RetryPolicy;
  /** Other workers crawl the same frontier (CrawlerOptions.shared). */
  shared: boolean;
  slots: RequestSlots;
  stats: CrawlStats;
  events: CrawlEventBus;
  /** Keys of URLs whose page the strategy scored (LinkAdmission.scored): the others are told to Strategy.unscored. */
  scored: Set<string>;
  /** The run's signal: a new one per run, so read when a failure is judged. */
  signal(): AbortSignal;
  /** Wakes the crawl loop (a slot or a host is free). */
  wake(): void;
}

/**
 * How a URL ends: done, discarded or failed (retried, released, or an error), counted and
 * announced, written to the store, and then final in the frontier.
 */
export class UrlEnding {
  readonly #c: UrlEndingCrawl;
  /** Shared crawls: the Frontier.fetched call of each URL whose host was given back (hostDone). */
  readonly #hostFreeing = new Map<string, Promise<void>>();

  constructor(crawl: UrlEndingCrawl) {
    this.#c = crawl;
  }

  async failed(req: CrawlRequest, err: FetchError): Promise<void> {
    const now = Date.now();
    const next = afterFailure(req, err, now, { stopped: this.#c.signal().aborted, health: this.#c.health, retry: this.#c.retry });
    if (next.step === 'release') return this.#c.frontier.release(req, next.notBefore, now);
    if (next.step === 'error') return this.#fail(req, next.reason, err.status ?? null);
    this.#c.stats.retries++;
    this.#c.events.emit('retried', { url: req.url, attempts: req.attempts + 1, notBefore: next.notBefore, reason: err.message });
    await this.#c.frontier.retry(req, next.notBefore, now);
  }

  async #fail(req: CrawlRequest, reason: string, status: number | null): Promise<void> {
    if (req.probe) await this.#c.probing?.failed(req, reason);
    // A sitemap counts as fetched when a request was made for it (a refused or unreachable host made none).
    if (req.sitemap && !madeNoRequest(reason)) this.#c.stats.sitemaps++;
    return this.finish(req, { state: 'error', reason }, null, { status });
  }

  /** Ends the waiting URLs of unreachable hosts when nothing else is left (hostsToEnd); true if any ended. */
  async endUnreachable(now: number): Promise<boolean> {
    let ended = 0;
    for (const d of hostsToEnd(this.#c.health, await this.#c.frontier.nextReadyAt(now), now)) {
      for (const req of await this.#c.frontier.claimHost(d.host, now)) {
        ended++;
        await this.#fail(req, d.reason, null);
      }
    }
    return ended > 0;
  }

  /**
   * A shared crawl's URL gives its request slot back once only its commit and lease end remain
   * (its page counted, its links offered): concurrency bounds requests, and RequestSlots bounds
   * what waits for a commit. Holding the slot through a PostgreSQL group commit
   * (a statement at a time, tens of milliseconds) left most of a worker's slots waiting on the
   * database (bench/distributed/cpu-per-page). The embedded store commits in well under a
   * millisecond; there the slot is kept, so that a crawl at concurrency 1 cannot claim another
   * host's URL before the last one is final, and its order stays what the strategy alone decides.
   */
  #settle(req: CrawlRequest): void {
    if (this.#c.shared && this.#c.slots.settle(req.key)) this.#c.wake();
  }

  /**
   * A shared crawl gives the URL's host back (Frontier.fetched) as soon as nothing more is asked
   * of it: a page's response is in, or the URL ends. Not after the group commit (tens of
   * milliseconds); and the Redis call leaves with the page's links (ScriptBatcher: one round
   * trip). The loop is woken once the host is free (a claim sent before would find it busy).
   * Awaited in finish(), before the lease ends.
   *
   * The embedded crawl does not: its commit takes well under a millisecond, and placing a host
   * early can read spilled URLs back, which hands the SQLite journal over between one URL's log
   * line and its final state; a crawl killed between the two then logs the URL again on resume
   * (measured: test/cli/kill-resume.test.ts, 3 of 6 runs, when it called this too).
   */
  hostDone(req: CrawlRequest): Promise<void> | null {
    if (!this.#c.shared) return null;
    let p = this.#hostFreeing.get(req.key);
    if (!p) {
      p = this.#c.frontier.fetched(req, Date.now()).then(() => this.#c.wake());
      p.catch(() => {}); // awaited in finish(); a failure before it must not be unhandled
      this.#hostFreeing.set(req.key, p);
    }
    return p;
  }

  /** The URL's processing is over: the map holds URLs in flight only, and one claimed again (a retry) gives its host back again. */
  forget(key: string): void {
    this.#hostFreeing.delete(key);
  }

  /**
   * Ends a URL: registry writes queued for it, then its page and log line as one store write,
   * then its final state in the frontier, each awaited, so no URL is done before its page is recorded.
   */
  async finish(req: CrawlRequest, given: Outcome, res: FetchResult | null, extra: EndingExtra = {}): Promise<void> {
    const { stats, events } = this.#c;
    const outcome: Outcome = given.state === 'error' ? { state: 'error', reason: reasonLine(given.reason) } : given;
    const fetched = outcome.state === 'done' || (outcome.state === 'error' && !madeNoRequest(outcome.reason));
    if (fetched) {
      stats.fetched++;
      if (outcome.state === 'done') {
        stats.done++;
        if (extra.page) stats.pages++;
      }
      else stats.errors++;
    } else if (outcome.state === 'error') {
      stats.notFetched++;
    } else {
      stats.discarded++;
      countDiscard(stats.discardedBy, outcome.reason);
      events.emit('discarded', { url: req.url, reason: outcome.reason, kind: discardKind(outcome.reason) });
    }
    if (outcome.state === 'error' && stats.failures.length < FIRST_FAILURES) stats.failures.push({ url: req.url, reason: outcome.reason });
    if (!this.#c.scored.delete(req.key)) this.#c.strategy.unscored?.(req);
    this.#settle(req);
    const freeing = this.hostDone(req);
    await this.#c.probing?.settle();
    await this.#c.store.commit({
      key: req.key,
      page: extra.page ?? null,
      entry: {
        url: req.url,
        final_url: res?.finalUrl ?? null,
        state: outcome.state,
        status: res?.status ?? extra.status ?? null,
        depth: req.depth,
        parent: null,
        anchor: req.anchor,
        title: extra.title ?? null,
        relevance: extra.relevance ?? null,
        priority: req.priority,
        fetched_at: fetched ? new Date().toISOString() : null,
        error: outcome.state === 'done' ? (extra.note ?? null) : outcome.reason,
      },
    });
    await freeing;
    await this.#c.frontier.complete(req, outcome, Date.now());
    if (outcome.state !== 'discarded') {
      const topic = this.#c.strategy.topic;
      const relevance = extra.relevance ?? null;
      events.emit('fetched', {
        key: req.key, url: req.url, host: req.host, state: outcome.state, requested: fetched, status: res?.status ?? extra.status ?? null,
        relevance, relevant: topic !== null && relevance !== null && relevance >= topic.threshold,
        bytes: res?.bytes ?? 0, fetchMs: res?.fetchMs ?? 0, depth: req.depth, priority: req.priority,
        page: extra.page ?? null, body: res?.body ?? null,
      });
    }
  }
}
