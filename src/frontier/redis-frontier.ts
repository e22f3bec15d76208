import type { Redis } from 'ioredis';
import { FocusCrawlError } from '../errors.js';
import type { CrawlRequest, NewRequest } from '../types.js';
import { fingerprint, fingerprintHex, type Fingerprint } from '../seen/fingerprint.js';
import type { SeenCounters } from '../seen/seen-set.js';
import { SeenPriorityCache } from '../seen/seen-priority-cache.js';
import { DEFAULT_LEASE_MS, isRevivable, takesRevivable, type Admission, type Frontier, type FrontierCounts, type Outcome } from './frontier.js';
import { madeNoRequest } from '../fetch/made-no-request.js';
import type { PolitenessOptions } from './host-scheduler.js';
import type { UrlJournal } from './url-journal.js';
import { bucketsPerShard, checkPrefix, countersKey, DEFAULT_BUCKET_BITS, seenPlace, shardBase, shardOfHost } from './redis-keys.js';
import { defineScripts, LAYOUT, LOST_MARK, REBUILDING, type ScriptArg, type ScriptCall, type ScriptName } from './redis-scripts.js';
import { ScriptBatcher } from './script-batcher.js';
import { CLAIMED_FIELDS, decodeClaimed, decodeClaimReply, keyBytes, packKept, packRaisable, scoreOf } from './redis-request-codec.js';

export interface RedisFrontierOptions {
  /** Key prefix of the crawl, e.g. `fc:<crawl name>` (no braces: the shard number is the hash tag). */
  prefix: string;
  /**
   * Shards (default 1). Each is one Cluster slot; hosts are spread over them. claim() serves one
   * shard at a time, so best-first holds within a shard: with one shard the order is the
   * embedded frontier's. Fixed for a crawl's life.
   */
  shards?: number;
  /** perHost and delayMs; every worker of a crawl must be given the same. */
  politeness?: Partial<PolitenessOptions>;
  /** This worker's name in leases (no spaces): only the lease holder ends a lease. */
  worker: string;
  /** The crawl's record (PostgreSQL): told of every URL Redis admits or raises. */
  journal?: UrlJournal;
  /** Entries of the worker-local seen cache (default 65,536). */
  seenCache?: number;
  /** Seen-set buckets over all shards, 2^bucketBits (default 16; see RedisSeenOptions). */
  bucketBits?: number;
  /** Hosts a claim moves from wait to ready at most, so a claim stays O(k log N) (default 100). */
  promote?: number;
  /** Log every command the scripts run (the hash-tag test); never in a crawl. */
  traceScripts?: boolean;
}


/** The local cache's mark of a URL discarded revivably: below every priority, so only an add is sent on. */
const REVIVABLE = SeenPriorityCache.MARK;

/** Leases reaped per script call: a long reap is split so other workers get a turn. */
const REAP_CHUNK = 1000;
/** URLs of one host rescored per script call. */
const RESCORE_CHUNK = 500;

type EndOutcome = Outcome['state'] | 'unfetched' | 'retry' | 'release' | 'fetched';

/**
 * The Frontier shared by crawl workers, in Redis (../shared/SCALE.md; layout in redis-scripts.ts).
 * Every state change is one atomic Lua script on one shard: add-and-dedup, claim with a lease,
 * the end of a lease, reap. Politeness (per-host in-flight limit, delay, Crawl-delay, budget)
 * lives in Redis, so it holds across all workers.
 *
 * Redis round trips per fetched page: add (one script per page's links, none when the local
 * cache drops them all), complete (one per batch of lease ends made together), claim (one per
 * batch). `roundTrips` counts them; calls to several shards sent together count once.
 */
/** How a lost frontier's error begins (shared-crawl.ts names the crawl and the way back). */
export const LOST_FRONTIER = 'Redis no longer holds the crawl';
/** How an error of a crawl a rebuild is refilling (or left half done) begins. */
export const REBUILDING_FRONTIER = 'Redis holds the crawl half rebuilt';

/** A crawl's layout mark in Redis (RedisFrontier.layout). */
export type LayoutState = 'current' | 'earlier' | 'rebuilding';

export class RedisFrontier implements Frontier {
  /** Redis calls made (concurrent calls to several shards count once). */
  roundTrips = 0;
  /** What the last claim that came back short on every shard said of the next opening (nextReadyAt). */
  #readyHint: { now: number; next: number | null; finished: boolean } | null = null;

  /** Lease ends refused because this worker no longer held the lease (it expired and was reaped). */
  lostLeases = 0;
  /** Waiting URLs raised by a better rediscovery, by this worker. */
  raised = 0;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #shards: number;
  /**
   * Keys this worker holds that a reap had put back to waiting (their earlier worker died or
   * stalled past its lease): that worker may have offered the page's links to Redis and died
   * before the record of them was committed, so Redis answers "seen" for links PostgreSQL never
   * heard of. Such a page's links are sent past the cache and recorded whatever Redis answers
   * (#offer); the record's inserts change nothing for a URL it holds. Dropped when the lease ends.
   */
  readonly #redelivered = new Set<string>();
  readonly #noteRedelivered = (key: string) => void this.#redelivered.add(key);
  /** layout() found or left the layout mark: the crawl's presence in Redis can be checked. */
  #marked = false;
  /** This worker has reaped, and so left its heartbeat (close() takes it back). */
  #announced = false;
  readonly #perHost: number;
  readonly #delayMs: number;
  readonly #worker: string;
  #journal: UrlJournal | null;
  readonly #promote: number;
  readonly #scripts: Record<ScriptName, ScriptCall>;
  /** Seen-set buckets per shard (the same placement as RedisSeenSet with the URLs' hosts). */
  readonly #buckets: number;
  /**
   * Carried-state buckets per shard (redis-scripts.ts, u:<b>): four per seen bucket, so each holds
   * about 64 waiting URLs at the seen set's design size and stays a compact listpack.
   */
  readonly #stateBuckets: number;
  readonly #cache: SeenPriorityCache;
  readonly #counters: SeenCounters = { cacheHits: 0, cacheMisses: 0 };
  /** Keys this worker holds leases on: settled without asking. */
  /** By cache key (a number: no hex string per extracted link). */
  readonly #leased = new Set<number>();
  #nextShard = 0;
  /**
   * Adds and lease ends made in one turn of the event loop leave as one script call per shard:
   * pages' responses arrive together and a group commit ends many pages at once (ScriptBatcher).
   */
  readonly #adds: ScriptBatcher;
  readonly #ends: ScriptBatcher;

  /** The client stays the caller's: close() does not quit it. */
  constructor(redis: Redis, opts: RedisFrontierOptions) {
    if (!opts.worker || /\s/.test(opts.worker)) throw new RangeError(`worker name must be non-empty, without spaces: ${JSON.stringify(opts.worker)}`);
    this.#redis = redis;
    this.#prefix = checkPrefix(opts.prefix);
    this.#shards = opts.shards ?? 1;
    if (!(Number.isInteger(this.#shards) && this.#shards >= 1)) throw new RangeError('shards must be a positive integer');
    this.#perHost = opts.politeness?.perHost ?? 2;
    this.#delayMs = opts.politeness?.delayMs ?? 250;
    this.#worker = opts.worker;
    this.#journal = opts.journal ?? null;
    this.#promote = opts.promote ?? 100;
    // Guarded once the crawl's layout mark is found or left (layout()): before, a frontier
    // may be one a test or rebuild fills from nothing.
    const plain = defineScripts(redis, opts.traceScripts ?? false);
    const guarded = defineScripts(redis, opts.traceScripts ?? false, true);
    const lost = (err: unknown) => {
      if (err instanceof Error && err.message.startsWith(`${LOST_MARK} ${REBUILDING}`)) throw new FocusCrawlError('STORE', `${REBUILDING_FRONTIER} (${this.#prefix})`);
      if (err instanceof Error && err.message.startsWith(LOST_MARK)) throw new FocusCrawlError('STORE', `${LOST_FRONTIER} (${this.#prefix}): it lost its data (restarted without persistence, or flushed)`);
      throw err;
    };
    this.#scripts = Object.fromEntries(
      (Object.keys(plain) as ScriptName[]).map((name) => [name, (key: string, ...args: ScriptArg[]) => (this.#marked ? guarded : plain)[name](key, ...args).catch(lost)]),
    ) as Record<ScriptName, ScriptCall>;
    this.#buckets = bucketsPerShard(opts.bucketBits ?? DEFAULT_BUCKET_BITS, this.#shards);
    this.#stateBuckets = 4 * this.#buckets;
    this.#cache = new SeenPriorityCache(opts.seenCache ?? 65_536);
    const sent = () => void this.roundTrips++;
    this.#adds = new ScriptBatcher(this.#scripts.add, (s) => this.#key(s), sent);
    this.#ends = new ScriptBatcher(this.#scripts.end, (s) => this.#key(s), sent);
  }

  /**
   * Rebuild (focuscrawl rebuild): records URLs the crawl's record says are final as seen and
   * counted in their state, so no worker fetches them again. Returns how many were not seen yet.
   */
  async restoreFinal(batch: { url: string; host: string; state: 'done' | 'error' | 'discarded'; reason: string | null }[]): Promise<number> {
    const groups = new Map<string, ScriptArg[]>();
    for (const r of batch) {
      const shard = shardOfHost(r.host, this.#shards);
      const place = seenPlace(fingerprint(r.url), this.#buckets);
      // A discard for depth or by the strategy stays revivable, an error that made no request stays out of the page budget (redis-scripts.ts RESTORE_FINAL).
      const state = r.state === 'discarded' && isRevivable(r.reason) ? 'too deep' : r.state === 'error' && r.reason !== null && madeNoRequest(r.reason) ? 'unfetched' : r.state;
      const id = `${shard} ${state}`;
      let g = groups.get(id);
      if (!g) groups.set(id, (g = [state]));
      g.push(place.bucket, place.member, r.host);
    }
    this.roundTrips++;
    const fresh = await Promise.all([...groups].map(([id, args]) => this.#scripts.restoreFinal(this.#key(Number(id.split(' ')[0])), ...args) as Promise<number>));
    return fresh.reduce((a, b) => a + Number(b), 0);
  }

  /** Rebuild: offers URLs from the record as waiting, with their carried state, without writing them back to the record. */
  async restoreOpen(batch: CrawlRequest[], now: number): Promise<boolean[]> {
    this.#readyHint = null;
    const journal = this.#journal;
    this.#journal = null;
    try {
      return (await this.add(batch.map((r) => ({ url: r.url, host: r.host, depth: r.depth, parent: r.parent, anchor: r.anchor, priority: r.priority, data: r.data, probe: r.probe ?? null, sitemap: r.sitemap ?? null, redirected: r.redirected ?? null })), now)).map(Boolean);
    } finally {
      this.#journal = journal;
    }
  }

  /**
   * The crawl's layout mark: `current` for one in this layout (redis-scripts.ts), and for an empty
   * crawl, which is marked so; `earlier` for a frontier an earlier focuscrawl wrote, which these
   * scripts would misread (its owner recreates it with rebuild); `rebuilding` while a rebuild
   * refills it, or after one was interrupted. Only `current` lets this frontier's scripts run guarded.
   */
  async layout(): Promise<LayoutState> {
    this.roundTrips++;
    const found = await Promise.all(this.#shardList().map((s) => Promise.all([this.#redis.hget(shardBase(this.#prefix, s) + 'cfg', 'layout'), this.#redis.exists(this.#key(s))])));
    if (found.some(([layout]) => layout === REBUILDING)) return 'rebuilding';
    if (found.every(([layout]) => layout === LAYOUT)) return this.#mark();
    if (found.some(([layout, used]) => layout !== LAYOUT && used > 0)) return 'earlier';
    await this.#setMark(LAYOUT);
    return this.#mark();
  }

  #mark(): 'current' {
    this.#marked = true;
    return 'current';
  }

  async #setMark(mark: string): Promise<void> {
    await Promise.all(this.#shardList().map((s) => this.#redis.hset(shardBase(this.#prefix, s) + 'cfg', 'layout', mark)));
  }

  /**
   * Rebuild, on a crawl whose keys are cleared: marks every shard `rebuilding` before anything is
   * refilled, so that no worker's script runs on a half-rebuilt frontier (a worker still running
   * after Redis lost its data stops; one started meanwhile is refused) until endRebuild().
   */
  async beginRebuild(): Promise<void> {
    this.#marked = false;
    await this.#setMark(REBUILDING);
  }

  /** Rebuild, once every URL is restored: the layout mark that lets workers in. */
  async endRebuild(): Promise<void> {
    await this.#setMark(LAYOUT);
    this.#mark();
  }

  /**
   * Whether Redis holds anything of this crawl: the layout mark layout() leaves on every
   * shard when the crawl is created, or the counters of any shard. A crawl PostgreSQL knows with none lost its frontier (Redis
   * restarted without persistence, or flushed, or this is another database).
   */
  async present(): Promise<boolean> {
    this.roundTrips++;
    // The counters too: an earlier focuscrawl's layout has them and no mark, and a new crawl of its name must see them.
    const found = await Promise.all(this.#shardList().map((s) => this.#redis.exists(shardBase(this.#prefix, s) + 'cfg', this.#key(s))));
    return found.some((n) => n > 0);
  }

  /** The shard's KEYS[1] (its counters hash). */
  #key(shard: number): string {
    return countersKey(this.#prefix, shard);
  }

  async add(batch: NewRequest[], now: number): Promise<Admission[]> {
    return this.#offer(batch, now, null);
  }

  async discard(batch: NewRequest[], reason: string): Promise<Admission[]> {
    return this.#offer(batch, Date.now(), reason);
  }

  /**
   * add() and discard(): URLs the local cache proves useless (seen, and no better than this
   * worker's earlier offer, or final) are answered here; the rest go to their shards' add script.
   */
  async #offer(batch: NewRequest[], now: number, discardReason: string | null): Promise<Admission[]> {
    this.#readyHint = null;
    const discard = discardReason !== null;
    const deep = isRevivable(discardReason);
    const takes = takesRevivable(discardReason);
    const out = new Array<Admission>(batch.length).fill(false);
    const groups = new Map<number, { at: number[]; fps: Fingerprint[]; args: ScriptArg[] }>();
    const sent: CrawlRequest[] = [];
    const sentAt: number[] = [];
    for (let i = 0; i < batch.length; i++) {
      const r = batch[i]!;
      const fp = fingerprint(r.url);
      const ck = cacheKey(fp);
      const best = this.#cache.get(ck);
      const again = r.parent !== null && this.#redelivered.has(r.parent);
      // A discard is answered here, unless it may take the place of a revivable one (Redis decides).
      if (!again && (this.#leased.has(ck) || (best !== undefined && (discard ? !(takes && best === REVIVABLE) : !(r.priority > best))))) {
        this.#counters.cacheHits++;
        continue;
      }
      const key = fingerprintHex(fp);
      this.#counters.cacheMisses++;
      const shard = shardOfHost(r.host, this.#shards);
      const place = seenPlace(fp, this.#buckets);
      let g = groups.get(shard);
      if (!g) groups.set(shard, (g = { at: [], fps: [], args: [] }));
      const req = toRequest(r, key);
      g.at.push(i);
      g.fps.push(fp);
      g.args.push(r.host, keyBytes(key), place.bucket, place.member, discard ? '' : scoreOf(r.priority), discard ? '' : packKept(req), discard ? '' : packRaisable(req), now);
      sent.push(req);
      sentAt.push(i);
    }
    if (groups.size === 0) return out;
    const raised: CrawlRequest[] = [];
    const codeAt = new Array<number>(batch.length);
    await Promise.all(
      [...groups].map(async ([shard, g]) => {
        const codes = (await this.#adds.push(shard, [this.#perHost, deep ? '2' : takes ? '3' : discard ? '1' : '0', this.#stateBuckets], g.args, g.at.length)) as number[];
        g.at.forEach((i, j) => {
          const code = codes[j]!;
          codeAt[i] = code;
          const priority = batch[i]!.priority;
          out[i] = code === 1 || (code === 6 && 'revived');
          // 1 new, 6 revived, 0 waiting, 2 raised, 3 leased, 4 final, 5 too deep (see redis-scripts.ts ADD).
          // What the cache may remember: final for ever; the offered priority only when Redis
          // now holds at least it (new, raised, or already better). A leased URL ignored the
          // offer and may come back with its old priority: seen, nothing more. A URL discarded
          // revivably (too deep, by the strategy), here or by another worker, is REVIVABLE.
          if ((deep || code === 5) && code !== 4) {
            // Revivable: a later discard of it changes nothing (answered here), a later add may
            // revive it (sent on: every priority is above REVIVABLE).
            this.#cache.put(cacheKey(g.fps[j]!), REVIVABLE);
            return;
          }
          const final = code === 4 || (discard && (code === 1 || code === 6));
          this.#cache.put(cacheKey(g.fps[j]!), final ? Infinity : discard || code === 3 ? -Infinity : priority);
          if (code === 2) raised.push(toRequest(batch[i]!, fingerprintHex(g.fps[j]!)));
        });
      }),
    );
    this.raised += raised.length;
    // The record hears only of the URLs Redis admitted, once each: a page's repeat links cost
    // PostgreSQL nothing. A worker killed between the two leaves URLs that Redis holds and the
    // record does not; its page's lease expires, and the worker that fetches it again records
    // them whatever Redis answers (#redelivered): waiting ones as waiting, discards as discarded
    // (a URL final or in flight is recorded by its own page's commit).
    const journal = this.#journal;
    if (journal) {
      const admitted = sent.filter((req, j) => {
        const i = sentAt[j]!;
        if (out[i]) return true;
        if (req.parent === null || !this.#redelivered.has(req.parent)) return false;
        const code = codeAt[i];
        // A discard of a URL final in Redis is recorded as this discard (a row the record holds
        // stays as it is); a waiting one below, as waiting; a revivable one only by a revivable
        // reason, or the record would hold it for good.
        return discard ? code === 4 || (code === 5 && deep) : code === 0 || code === 2;
      });
      const waiting = discard ? sent.filter((req, j) => codeAt[sentAt[j]!] === 0 && req.parent !== null && this.#redelivered.has(req.parent)) : [];
      const written = Promise.all([
        admitted.length ? journal.added(admitted, discard ? 'discarded' : 'waiting', discardReason) : null,
        waiting.length ? journal.added(waiting, 'waiting', null) : null,
        raised.length ? journal.raised(raised) : null,
      ]);
      // An ordered journal fails the page's commit if these fail: waiting here would only add
      // a statement's latency to every page.
      if (journal.ordered) written.catch(() => {});
      else await written;
    }
    return out;
  }

  settled(url: string): boolean {
    const fp = fingerprint(url);
    const ck = cacheKey(fp);
    return this.#leased.has(ck) || this.#cache.peek(ck) === Infinity;
  }

  knownSeen(url: string): boolean {
    const fp = fingerprint(url);
    const ck = cacheKey(fp);
    const v = this.#cache.peek(ck);
    // A revivable discard is not known for good: another link to it may revive it.
    return (v !== undefined && v !== REVIVABLE) || this.#leased.has(ck);
  }

  async claim(max: number, now: number, leaseMs = DEFAULT_LEASE_MS): Promise<CrawlRequest[]> {
    const out: CrawlRequest[] = [];
    this.#readyHint = null;
    let next: number | null = null;
    let short = 0;
    let open = false;
    // One shard at a time, starting where the last claim stopped, so every shard is served.
    for (let tried = 0; tried < this.#shards && out.length < max; tried++) {
      const shard = this.#nextShard;
      this.#nextShard = (shard + 1) % this.#shards;
      this.roundTrips++;
      const reply = (await this.#scripts.claim(this.#key(shard), now, max - out.length, now + leaseMs, this.#perHost, this.#delayMs, this.#promote, this.#worker, this.#stateBuckets)) as Buffer[];
      out.push(...decodeClaimReply(reply, this.#noteRedelivered));
      if (reply.length % CLAIMED_FIELDS === 1) {
        short++;
        const [w, fetching, cut] = reply[reply.length - 1]!.toString().split(' ');
        if (w) next = Math.min(next ?? Infinity, Math.max(now, Number(w)));
        // Cut short by the page budget: URLs wait, so the crawl is not over; it ends at the budget (Crawler.run).
        if (w || Number(fetching) > 0 || cut) open = true;
      }
    }
    // Every shard answered short: the claim saw when the next host opens, and whether anything is
    // left at all (see nextReadyAt, isFinished).
    if (short === this.#shards) this.#readyHint = { now, next, finished: !open && out.length === 0 };
    for (const r of out) this.#leased.add(cacheKey(keyFingerprint(r.key)));
    return out;
  }

  async renew(reqs: CrawlRequest[], now: number, leaseMs: number): Promise<void> {
    const byShard = this.#byShard(reqs);
    if (!byShard.size) return;
    this.roundTrips++;
    await Promise.all([...byShard].map(([shard, rs]) => this.#scripts.renew(this.#key(shard), now, now + leaseMs, this.#worker, ...rs.map((r) => keyBytes(r.key)))));
  }

  async reap(now: number): Promise<number> {
    this.#readyHint = null;
    this.#announced = true;
    let total = 0;
    for (let shard = 0; shard < this.#shards; shard++) {
      for (let first = true; ; first = false) {
        this.roundTrips++;
        const n = Number(await this.#scripts.reap(this.#key(shard), now, REAP_CHUNK, this.#perHost, shard === 0 && first ? this.#worker : ''));
        total += n;
        if (n < REAP_CHUNK) break;
      }
    }
    return total;
  }

  async complete(req: CrawlRequest, outcome: Outcome, now: number): Promise<void> {
    // An error that made no request is counted apart: the claim script's page budget leaves it out, as the embedded crawl does.
    const ending = outcome.state === 'error' && madeNoRequest(outcome.reason) ? 'unfetched' : outcome.state;
    if (await this.#end(req, ending, now, 0)) this.#cache.put(cacheKey(keyFingerprint(req.key)), Infinity);
  }

  async retry(req: CrawlRequest, notBefore: number, now: number): Promise<void> {
    req.attempts++;
    if (await this.#end(req, 'retry', now, notBefore)) await this.#journal?.retried(req);
  }

  async release(req: CrawlRequest, notBefore: number, now: number): Promise<void> {
    if (await this.#end(req, 'release', now, notBefore)) await this.#journal?.retried(req);
  }

  /** The host's slot, in the same script call as the ends of this turn (ScriptBatcher): no round trip of its own. */
  async fetched(req: CrawlRequest, now: number): Promise<void> {
    await this.#end(req, 'fetched', now, 0);
  }

  async #end(req: CrawlRequest, outcome: EndOutcome, now: number, notBefore: number): Promise<boolean> {
    this.#readyHint = null;
    if (outcome !== 'fetched') {
      this.#leased.delete(cacheKey(keyFingerprint(req.key)));
      this.#redelivered.delete(req.key);
    }
    const shard = shardOfHost(req.host, this.#shards);
    const [code] = await this.#ends.push(shard, [this.#worker, this.#perHost, this.#delayMs, this.#stateBuckets], [keyBytes(req.key), outcome, now, notBefore, outcome === 'retry' ? packKept(req) : '', req.host], 1);
    if (outcome !== 'fetched' && Number(code) !== 1) this.lostLeases++; // counted once, when the lease would have ended
    return Number(code) !== 0;
  }

  async claimHost(host: string, now: number): Promise<CrawlRequest[]> {
    this.#readyHint = null;
    this.roundTrips++;
    const reply = await this.#scripts.claimHost(this.#key(shardOfHost(host, this.#shards)), host, now + DEFAULT_LEASE_MS, this.#worker, this.#stateBuckets);
    const out = decodeClaimReply(reply, this.#noteRedelivered);
    for (const r of out) this.#leased.add(cacheKey(keyFingerprint(r.key)));
    return out;
  }

  async setHostDelay(host: string, delayMs: number): Promise<void> {
    this.#readyHint = null;
    // Stored as given; the scripts take the larger of it and the configured delay.
    this.roundTrips++;
    await this.#redis.hset(`${shardBase(this.#prefix, shardOfHost(host, this.#shards))}h:${host}`, 'd', Math.max(this.#delayMs, delayMs));
  }

  /**
   * The crawl's page budget (maxPages), kept by the claim script for every worker at once: a URL
   * is leased only while done + error + leased is below it, so workers together never have more
   * requests out than the budget has left. Per shard: with several shards each holds it on its own.
   */
  async setPageBudget(pages: number): Promise<void> {
    this.#readyHint = null;
    this.roundTrips++;
    await Promise.all(this.#shardList().map((s) => this.#redis.hset(shardBase(this.#prefix, s) + 'cfg', 'pages', String(Math.max(0, Math.floor(pages))))));
  }

  async setHostBudget(budget: number): Promise<void> {
    this.#readyHint = null;
    const value = Number.isFinite(budget) ? String(Math.max(0, Math.floor(budget))) : '';
    this.roundTrips++;
    await Promise.all(this.#shardList().map((s) => this.#scripts.budget(this.#key(s), value, Date.now(), this.#perHost)));
  }

  /**
   * Walks every waiting URL, host by host (SSCAN of the hosts, ZSCAN of each queue): a full
   * pass, which is why it is not on the hot path. A host's queue is read whole before any score
   * changes, so no URL is rescored twice.
   */
  async rescore(priority: (req: CrawlRequest) => number | null): Promise<void> {
    this.#readyHint = null;
    for (const shard of this.#shardList()) {
      const base = shardBase(this.#prefix, shard);
      let cursor = '0';
      do {
        this.roundTrips++;
        const [next, hosts] = await this.#redis.sscan(base + 'hosts', cursor, 'COUNT', 100);
        cursor = next;
        for (const host of hosts) await this.#rescoreHost(base, shard, host, priority);
      } while (cursor !== '0');
    }
    this.#cache.forgetPriorities();
  }

  async #rescoreHost(base: string, shard: number, host: string, priority: (req: CrawlRequest) => number | null): Promise<void> {
    const entries = new Map<string, Buffer>();
    let cursor = '0';
    do {
      this.roundTrips++;
      const [next, flat] = await this.#redis.zscanBuffer(base + 'q:' + host, cursor, 'COUNT', RESCORE_CHUNK);
      cursor = next.toString();
      for (let i = 0; i + 1 < flat.length; i += 2) entries.set(flat[i]!.toString('latin1'), flat[i + 1]!);
    } while (cursor !== '0');
    const members = [...entries.keys()];
    const hostBuf = Buffer.from(host);
    for (let i = 0; i < members.length; i += RESCORE_CHUNK) {
      const chunk = members.slice(i, i + RESCORE_CHUNK);
      const keys = chunk.map((m) => Buffer.from(m.slice(4), 'latin1'));
      this.roundTrips++;
      const values = (await this.#scripts.states(this.#key(shard), this.#stateBuckets, ...keys)) as Buffer[];
      const pairs: (Buffer | string)[] = [];
      const changed: { key: string; priority: number }[] = [];
      chunk.forEach((m, j) => {
        const v = values[j];
        if (!v || !v.length) return; // ended meanwhile
        const req = decodeClaimed(keys[j]!, hostBuf, entries.get(m)!, v);
        const p = priority(req);
        if (p !== null && p !== req.priority) {
          pairs.push(Buffer.from(m, 'latin1'), scoreOf(p));
          changed.push({ key: req.key, priority: p });
        }
      });
      if (!pairs.length) continue;
      this.roundTrips++;
      await this.#scripts.rescore(this.#key(shard), Date.now(), this.#perHost, host, ...pairs);
      // The record keeps the new priorities, so a rebuilt frontier orders as this one did.
      await this.#journal?.rescored(changed);
    }
  }

  async nextReadyAt(now: number): Promise<number | null> {
    // Asked at the moment of a claim that came back short (the crawl loop's pattern): that claim's
    // reply already told, from the same state a round trip would read now; any other change
    // this worker makes in between drops the hint. Other workers' changes it may miss are what
    // a round trip a millisecond later could miss as well; the loop asks again within 100 ms.
    // The hint stays for a second question at the same moment (the loop's unreachable-host check
    // asks first): a round trip would name a ready host even when the claim got nothing because
    // the page budget is held by URLs in flight, and the loop asked again at once, thousands of
    // times a second, while another worker's (or a killed one's) leases held it.
    const hint = this.#readyHint;
    if (hint && hint.now === now) return hint.next;
    this.roundTrips++;
    const heads = await Promise.all(
      this.#shardList().map(async (s) => {
        const base = shardBase(this.#prefix, s);
        const [ready, wait] = await Promise.all([this.#redis.zcard(base + 'ready'), this.#redis.zrange(base + 'wait', 0, 0, 'WITHSCORES')]);
        // A host whose wait is over is promoted by the next claim: ready now.
        return ready > 0 ? now : wait.length ? Math.max(now, Number(wait[1])) : null;
      }),
    );
    const times = heads.filter((t): t is number => t !== null);
    return times.length ? times.reduce((a, b) => Math.min(a, b)) : null;
  }

  async counts(): Promise<FrontierCounts> {
    this.roundTrips++;
    const all = await Promise.all(this.#shardList().map((s) => this.#redis.hmget(this.#key(s), 'waiting', 'fetching', 'done', 'error', 'discarded', 'unfetched')));
    const sum = (k: number) => all.reduce((t, v) => t + Number(v[k] ?? 0), 0);
    return { waiting: sum(0), fetching: sum(1), done: sum(2), error: sum(3), discarded: sum(4), notFetched: sum(5) };
  }

  seenCounters(): SeenCounters | null {
    return this.#counters;
  }

  /**
   * An empty frontier is the crawl's end only while Redis still holds the crawl: one that lost
   * its data mid-crawl looks empty too, and a worker would record the crawl as finished.
   */
  async #finishedIfPresent(): Promise<true> {
    // Only a frontier that found or left its layout mark (every shared crawl's, layout()) can tell.
    if (!this.#marked || (await this.present())) return true;
    throw new FocusCrawlError('STORE', `${LOST_FRONTIER} (${this.#prefix}): it lost its data (restarted without persistence, or flushed)`);
  }

  async isFinished(): Promise<boolean> {
    // Right after a claim that came back short and empty (the crawl loop's pattern), that claim
    // already read, atomically, whether any URL was waiting or in flight. Finished cannot be
    // undone by another worker (only URLs in flight bring new ones); a stale "not yet" only
    // costs the loop another turn.
    const hint = this.#readyHint;
    if (hint?.finished) return this.#finishedIfPresent();
    if (hint) return false;
    this.roundTrips++;
    const busy = await Promise.all(
      this.#shardList().map(async (s) => {
        const base = shardBase(this.#prefix, s);
        // One transaction: read one at a time, another worker's claim could move the last waiting
        // URLs into its leases between the reads, and both would look empty.
        const replies = await this.#redis.multi().hget(this.#key(s), 'fetching').zcard(base + 'ready').zcard(base + 'wait').exec();
        const [fetching, ready, wait] = (replies ?? []).map(([err, v]) => {
          if (err) throw err;
          return Number(v ?? 0);
        });
        return fetching! > 0 || ready! + wait! > 0;
      }),
    );
    return busy.some(Boolean) ? false : this.#finishedIfPresent();
  }

  /**
   * The workers that reaped (their heartbeat, see reap()) within `withinMs` of `now`, and the
   * leases now held: live ones, and expired ones that no worker has reaped yet (their worker
   * stopped, or no worker runs). For status: a few round trips, never on a worker's path.
   */
  async liveness(now: number, withinMs: number): Promise<{ workers: string[]; leases: number; expired: number }> {
    this.roundTrips++;
    const workers = await this.#redis.zrangebyscore(shardBase(this.#prefix, 0) + 'workers', now - withinMs, '+inf');
    const per = await Promise.all(
      this.#shardList().map(async (s) => {
        const base = shardBase(this.#prefix, s);
        const [live, expired] = await Promise.all([this.#redis.zcount(base + 'lease', now, '+inf'), this.#redis.zcount(base + 'lease', '-inf', `(${now}`)]);
        return { live, expired };
      }),
    );
    return { workers: workers.sort(), leases: per.reduce((t, p) => t + p.live, 0), expired: per.reduce((t, p) => t + p.expired, 0) };
  }

  /** Leases live in Redis and the client belongs to the caller: a worker that stopped cleanly only takes its heartbeat back. */
  async close(): Promise<void> {
    // A Redis that is gone would hold this call through the client's retries: nothing to take back then.
    if (!this.#announced || this.#redis.status !== 'ready') return;
    await this.#redis.zrem(shardBase(this.#prefix, 0) + 'workers', this.#worker).catch(() => {});
  }

  #shardList(): number[] {
    return Array.from({ length: this.#shards }, (_, s) => s);
  }

  #byShard(reqs: CrawlRequest[]): Map<number, CrawlRequest[]> {
    const m = new Map<number, CrawlRequest[]>();
    for (const r of reqs) {
      const s = shardOfHost(r.host, this.#shards);
      const list = m.get(s);
      if (list) list.push(r);
      else m.set(s, [r]);
    }
    return m;
  }
}

/** The 53-bit key the local cache uses (fingerprintKey, from the halves). */
const cacheKey = (fp: Fingerprint) => fp.hi * 2097152 + (fp.lo >>> 11);

const keyFingerprint = (key: string): Fingerprint => ({ hi: parseInt(key.slice(0, 8), 16), lo: parseInt(key.slice(8), 16) });

function toRequest(r: NewRequest, key: string): CrawlRequest {
  return { key, id: 0, url: r.url, host: r.host, depth: r.depth, parent: r.parent, anchor: r.anchor, priority: r.priority, data: r.data, attempts: 0, probe: r.probe ?? null, sitemap: r.sitemap ?? null, redirected: r.redirected ?? null };
}
