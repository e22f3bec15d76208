import type { CrawlRequest, NewRequest } from '../types.js';
import type { SeenCounters } from '../seen/seen-set.js';
import type { Admission, Frontier, FrontierCounts, Outcome } from './frontier.js';
import type { PolitenessWatch } from './politeness-watch.js';

/**
 * A frontier that tells a PolitenessWatch what the crawl asks of it (claims, ends, Crawl-delays,
 * budgets) and otherwise forwards every call unchanged. Wrapping the contract instead of reading
 * each backend's scheduler gives the embedded and the Redis frontier the same per-host figures.
 */
export class WatchedFrontier implements Frontier {
  readonly #f: Frontier;
  readonly #watch: PolitenessWatch;
  readonly #freed = new Set<string>();

  constructor(inner: Frontier, watch: PolitenessWatch) {
    this.#f = inner;
    this.#watch = watch;
  }

  add(batch: NewRequest[], now: number): Promise<Admission[]> {
    return this.#f.add(batch, now);
  }

  discard(batch: NewRequest[], reason: string): Promise<Admission[]> {
    return this.#f.discard(batch, reason);
  }

  settled(url: string): boolean {
    return this.#f.settled(url);
  }

  knownSeen(url: string): boolean {
    return this.#f.knownSeen(url);
  }

  async claim(max: number, now: number, leaseMs?: number): Promise<CrawlRequest[]> {
    const out = await this.#f.claim(max, now, leaseMs);
    for (const req of out) this.#watch.claimed(req.host, now);
    return out;
  }

  renew(reqs: CrawlRequest[], now: number, leaseMs: number): Promise<void> {
    return this.#f.renew(reqs, now, leaseMs);
  }

  reap(now: number): Promise<number> {
    return this.#f.reap(now);
  }

  async fetched(req: CrawlRequest, now: number): Promise<void> {
    await this.#f.fetched(req, now);
    if (!this.#freed.has(req.key)) this.#watch.ended(req.host, now);
    this.#freed.add(req.key);
  }

  /** The host's wait as the frontier sees it: it began at fetched() when that gave the slot back (then only a notBefore adds to it). */
  #ended(req: CrawlRequest, now: number, notBefore = 0): void {
    const freed = this.#freed.delete(req.key);
    // A slot given back at fetched() was counted then; a notBefore holds the host longer still.
    if (!freed || notBefore > 0) this.#watch.ended(req.host, now, notBefore, !freed);
  }

  async complete(req: CrawlRequest, outcome: Outcome, now: number): Promise<void> {
    await this.#f.complete(req, outcome, now);
    this.#ended(req, now);
  }

  async retry(req: CrawlRequest, notBefore: number, now: number): Promise<void> {
    await this.#f.retry(req, notBefore, now);
    this.#ended(req, now, notBefore);
  }

  async release(req: CrawlRequest, notBefore: number, now: number): Promise<void> {
    await this.#f.release(req, notBefore, now);
    this.#ended(req, now, notBefore);
  }

  claimHost(host: string, now: number): Promise<CrawlRequest[]> {
    return this.#f.claimHost(host, now);
  }

  async setHostDelay(host: string, delayMs: number): Promise<void> {
    await this.#f.setHostDelay(host, delayMs);
    this.#watch.delay(host, delayMs);
  }

  async setHostBudget(budget: number): Promise<void> {
    await this.#f.setHostBudget(budget);
    this.#watch.budget(budget);
  }

  rescore(priority: (req: CrawlRequest) => number | null): Promise<void> {
    return this.#f.rescore(priority);
  }

  nextReadyAt(now: number): Promise<number | null> {
    return this.#f.nextReadyAt(now);
  }

  counts(): Promise<FrontierCounts> {
    return this.#f.counts();
  }

  seenCounters(): SeenCounters | null {
    return this.#f.seenCounters();
  }

  isFinished(): Promise<boolean> {
    return this.#f.isFinished();
  }

  close(): Promise<void> {
    return this.#f.close();
  }
}
