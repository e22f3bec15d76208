import { BoundedFingerprintSet } from '../seen/bounded-fingerprint-set.js';
import { madeNoRequest } from '../fetch/made-no-request.js';
import type { CrawlRequest, NewRequest } from '../types.js';
import { FingerprintSet } from '../seen/fingerprint-set.js';
import type { SeenCounters, SeenSet } from '../seen/seen-set.js';
import { isRevivable, takesRevivable, type Admission, type Frontier, type FrontierCounts, type Outcome } from './frontier.js';
import { HostScheduler, type PolitenessOptions, type SpillOptions } from './host-scheduler.js';
import { hostOf } from '../parse/normalize-url.js';
import { urlKey } from '../seen/fingerprint.js';

/**
 * A frontier held in memory only: for benchmarks and tests, and the scheduling core that
 * SqliteFrontier extends with durable writes. Nothing survives the process.
 */
export class MemoryFrontier implements Frontier {
  protected readonly scheduler: HostScheduler;
  protected readonly seen: SeenSet;
  protected nextId = 1;
  protected readonly tally = { done: 0, error: 0, discarded: 0, notFetched: 0 };
  /**
   * URLs discarded as too deep or by the strategy (frontier.ts isRevivable), which a shorter
   * path or a better page revives: about 11 bytes each, like the seen set, and only for those
   * discards; with a seen cache (revivableCap), at most as many as it holds.
   */
  protected readonly revivable: FingerprintSet | BoundedFingerprintSet;
  /** Waiting URLs raised by a better rediscovery, in this process. */
  raised = 0;
  /** URLs discarded as too deep or by the strategy and then found again and queued, in this process. */
  revived = 0;
  /** Leased URLs whose host slot fetched() gave back. */
  readonly #freed = new Set<string>();

  /**
   * `seen` defaults to the whole set in memory (a FingerprintSet, about 11 bytes a URL); with
   * `spill`, only each host's best waiting URLs stay in memory (SqliteFrontier).
   */
  constructor(politeness: Partial<PolitenessOptions> = {}, seen: SeenSet = new FingerprintSet(), spill: SpillOptions | null = null, revivableCap = 0) {
    this.scheduler = new HostScheduler(politeness, spill);
    this.seen = seen;
    // With a bounded seen set the revivable discards are bounded alike: the oldest become final.
    this.revivable = revivableCap > 0 ? new BoundedFingerprintSet(revivableCap) : new FingerprintSet();
  }

  /** Waiting URLs held in memory (the others, with a spill store, wait in the file). */
  get waitingInMemory(): number {
    return this.scheduler.inMemory;
  }

  /** Cache hits and misses of the URL-seen test, when the seen set has a cache. */
  seenCounters(): SeenCounters | null {
    return (this.seen as { counters?: SeenCounters }).counters ?? null;
  }

  async add(batch: NewRequest[], now: number): Promise<Admission[]> {
    return batch.map((r): Admission => {
      if (!this.seen.add(r.url)) {
        if (this.scheduler.isQueued(r.url)) {
          this.willWrite(r.url);
          const raised = this.scheduler.raise(r, now);
          if (raised) {
            this.raised++;
            this.onRaised(raised);
          }
        } else if (this.revivable.size > 0 && this.revivable.delete(r.url)) {
          const req = toRequest(r, this.nextId++);
          this.tally.discarded--;
          this.revived++;
          this.onRevived(req);
          this.scheduler.push(req, now);
          return 'revived';
        } else if (this.scheduler.hasSpilled(r.host) && r.priority > this.scheduler.spillBest(r.host)) {
          // Perhaps waiting in the spill store: raised there, if so, and the host looks again.
          this.onRaiseSpilled(r);
          this.scheduler.raiseSpilled(r.host, r.priority);
        }
        return false;
      }
      const req = toRequest(r, this.nextId++);
      this.onAdded(req);
      this.scheduler.push(req, now);
      return true;
    });
  }

  async discard(batch: NewRequest[], reason: string): Promise<Admission[]> {
    const takes = takesRevivable(reason);
    return batch.map((r): Admission => {
      if (!this.seen.add(r.url)) {
        if (!takes || this.revivable.size === 0 || !this.revivable.delete(r.url)) return false;
        // Discarded still, for this reason now (tally unchanged), and final.
        this.onRediscarded(toRequest(r, this.nextId++), reason);
        return 'revived';
      }
      const req = toRequest(r, this.nextId++);
      if (isRevivable(reason)) this.revivable.add(r.url);
      this.tally.discarded++;
      this.onDiscarded(req, reason);
      return true;
    });
  }

  // A link answered here goes no further: its seen test is counted here. Any other goes on to
  // add(), which counts it: one test per link.
  knownSeen(url: string): boolean {
    const known = this.seen.has(url, false) && !this.#revivable(url);
    if (known) this.seen.countLast?.();
    return known;
  }

  settled(url: string): boolean {
    // A host with spilled URLs cannot tell a spilled one from a finished one here: say "not known".
    const settled = this.seen.has(url, false) && !this.scheduler.isQueued(url) && !this.scheduler.hasSpilled(hostOf(url)) && !this.#revivable(url);
    if (settled) this.seen.countLast?.();
    return settled;
  }

  #revivable(url: string): boolean {
    return this.revivable.size > 0 && this.revivable.has(url);
  }

  /** Leases are held by this process, so `leaseMs` is not needed: they end with it (and return on reopening). */
  async claim(max: number, now: number, _leaseMs?: number): Promise<CrawlRequest[]> {
    const out = this.scheduler.take(max, now);
    if (out.length) this.onClaimed(out, now);
    return out;
  }

  async renew(_reqs: CrawlRequest[], _now: number, _leaseMs: number): Promise<void> {}

  async reap(_now: number): Promise<number> {
    return 0;
  }

  /** Leases claimHost handed out, which no host budget counted. */
  readonly #uncounted = new Set<string>();

  async fetched(req: CrawlRequest, now: number): Promise<void> {
    if (this.#freed.has(req.key)) return;
    this.#freed.add(req.key);
    this.scheduler.release(req.host, now);
  }

  /** The lease's host slot goes back now, unless fetched() gave it back already (then only `notBefore` holds the host). */
  #freeHost(req: CrawlRequest, now: number, notBefore = 0): void {
    if (this.#freed.delete(req.key)) this.scheduler.hold(req.host, now, notBefore);
    else this.scheduler.release(req.host, now, notBefore);
  }

  async complete(req: CrawlRequest, outcome: Outcome, now: number): Promise<void> {
    // Recorded before the host is placed again: placing may read spilled URLs back, which hands
    // the queued writes over, and the final state must go in the same batch as the page and log line.
    this.tally[outcome.state]++;
    const noRequest = outcome.state === 'error' && madeNoRequest(outcome.reason);
    if (noRequest) this.tally.notFetched++;
    this.onCompleted(req, outcome);
    this.#freeHost(req, now);
    // A URL discarded when claimed (robots.txt, a trap rule) made no request either.
    if (noRequest || outcome.state === 'discarded') this.#giveBack(req, now);
    else this.#uncounted.delete(req.key);
  }

  async retry(req: CrawlRequest, notBefore: number, now: number): Promise<void> {
    req.attempts++;
    this.#freeHost(req, now, notBefore);
    this.#giveBack(req, now);
    this.willWrite(req.url);
    this.scheduler.push(req, now);
    this.onRetried(req);
  }

  async release(req: CrawlRequest, notBefore: number, now: number): Promise<void> {
    this.#freeHost(req, now, notBefore);
    this.#giveBack(req, now);
    this.willWrite(req.url);
    this.scheduler.push(req, now);
    this.onRetried(req);
  }

  /**
   * A host's budget counts its fetches: URLs done or failed after a request, and those in flight.
   * An attempt retried or released, or an end without a request, gives its count back (leases
   * of claimHost were never counted).
   */
  #giveBack(req: CrawlRequest, now: number): void {
    if (this.#uncounted.delete(req.key)) return;
    this.scheduler.untake(req.host, now);
  }

  async claimHost(host: string, now: number): Promise<CrawlRequest[]> {
    const out = this.scheduler.takeHost(host);
    for (const r of out) this.#uncounted.add(r.key);
    if (out.length) this.onClaimed(out, now);
    return out;
  }

  async setHostDelay(host: string, delayMs: number): Promise<void> {
    this.scheduler.setHostDelay(host, delayMs);
  }

  async nextReadyAt(now: number): Promise<number | null> {
    return this.scheduler.nextReadyAt(now);
  }

  async setHostBudget(budget: number): Promise<void> {
    this.scheduler.setHostBudget(budget, Date.now());
  }

  async rescore(priority: (req: CrawlRequest) => number | null): Promise<void> {
    for (const r of this.scheduler.rescore(priority, Date.now())) this.onRescored(r);
  }

  async counts(): Promise<FrontierCounts> {
    return this.countsNow();
  }

  /** counts() without a promise, for this process's own readers (the embedded crawl's statistics). */
  countsNow(): FrontierCounts {
    return { waiting: this.scheduler.queued, fetching: this.scheduler.inflight + this.#freed.size, ...this.tally };
  }

  async isFinished(): Promise<boolean> {
    return this.scheduler.inflight + this.#freed.size === 0 && (this.scheduler.queued === 0 || this.scheduler.nextReadyAt(Date.now()) === null);
  }

  async close(): Promise<void> {}

  // Persistence hooks: SqliteFrontier records each transition; here they do nothing.
  protected onAdded(_req: CrawlRequest): void {}
  /** A waiting URL's row is about to be written (before the scheduler may move it out of memory). */
  protected willWrite(_url: string): void {}
  protected onDiscarded(_req: CrawlRequest, _reason: string): void {}
  protected onClaimed(_reqs: CrawlRequest[], _now: number): void {}
  protected onCompleted(_req: CrawlRequest, _outcome: Outcome): void {}
  protected onRetried(_req: CrawlRequest): void {}
  protected onRescored(_req: CrawlRequest): void {}
  protected onRaised(_req: CrawlRequest): void {}
  protected onRaiseSpilled(_better: NewRequest): void {}
  /** A URL discarded as too deep or by the strategy is waiting again, as `req` (a new id: discovered now). */
  protected onRevived(_req: CrawlRequest): void {}
  /** A URL discarded as too deep or by the strategy is discarded for good, for `reason` (takesRevivable), as `req`. */
  protected onRediscarded(_req: CrawlRequest, _reason: string): void {}
}

/**
 * A waiting request, built field by field: a spread copy with a property deleted afterwards puts
 * V8 objects in dictionary mode, several times larger, and the frontier holds many of them.
 */
function toRequest(r: NewRequest, id: number): CrawlRequest {
  return { key: urlKey(r.url), id, url: r.url, host: r.host, depth: r.depth, parent: r.parent, anchor: r.anchor, priority: r.priority, data: r.data, attempts: 0, probe: r.probe ?? null, sitemap: r.sitemap ?? null, redirected: r.redirected ?? null };
}
