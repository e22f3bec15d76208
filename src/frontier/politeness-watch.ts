/** A host's politeness as one crawling process saw it, for readers in other processes (the dashboard). */
export interface HostPoliteness {
  host: string;
  /** The delay between requests in force: the configured one, or robots.txt's larger Crawl-delay. */
  delayMs: number;
  /** Time the host was closed by its delay or a backoff before a request of this process could start, since the last drain (a delta). */
  waitedMs: number;
  /** When the host may next be contacted (epoch ms), as of the last request this process started or ended. */
  nextAt: number;
  /** The per-host page budget in force; null: none. */
  budget: number | null;
}

/** How long after its closure ended an unclaimed host is forgotten. */
const FORGET_AFTER_MS = 60_000;

interface Watched {
  delayMs: number;
  nextAt: number;
  /** When the host's current closure started (the request that set nextAt started or ended). */
  heldFrom: number;
  waitedMs: number;
  dirty: boolean;
  /** Requests claimed and not ended: a host is not forgotten while one runs. */
  inflight: number;
}

/**
 * Follows the frontier's politeness rule from the outside (HostScheduler and the Redis scripts
 * apply the same one): a claim closes the host until `start + delay`, the end of a request until
 * `end + delay` or a later `notBefore` (backoff, Retry-After). Pure bookkeeping, so every backend
 * gets the same figures, and the wait of a request is exactly what the rule made it wait (never
 * more than the closure: time spent queueing for a free slot is not counted).
 */
export class PolitenessWatch {
  readonly #hosts = new Map<string, Watched>();
  readonly #delayMs: number;
  #budget: number | null = null;
  #budgetChanged = false;

  constructor(delayMs: number) {
    this.#delayMs = delayMs;
  }

  #host(host: string): Watched {
    let h = this.#hosts.get(host);
    if (!h) this.#hosts.set(host, (h = { delayMs: this.#delayMs, nextAt: 0, heldFrom: 0, waitedMs: 0, dirty: true, inflight: 0 }));
    return h;
  }

  claimed(host: string, now: number): void {
    const h = this.#host(host);
    if (h.nextAt > h.heldFrom) h.waitedMs += Math.max(0, Math.min(now, h.nextAt) - h.heldFrom);
    h.heldFrom = now;
    h.nextAt = Math.max(h.nextAt, now + h.delayMs);
    h.dirty = true;
    h.inflight++;
  }

  /**
   * A request ended (done, retried or released); `notBefore` keeps the host closed longer.
   * `finished` false: only the closure changes (the request's end was told before).
   */
  ended(host: string, now: number, notBefore = 0, finished = true): void {
    const h = this.#host(host);
    if (finished && h.inflight > 0) h.inflight--;
    h.heldFrom = now;
    h.nextAt = Math.max(h.nextAt, now + h.delayMs, notBefore);
    h.dirty = true;
  }

  /** robots.txt's Crawl-delay; never below the configured delay (as the frontier). */
  delay(host: string, delayMs: number): void {
    const h = this.#host(host);
    h.delayMs = Math.max(this.#delayMs, delayMs);
    h.dirty = true;
  }

  budget(budget: number | null): void {
    this.#budget = budget !== null && Number.isFinite(budget) && budget > 0 ? budget : null;
    this.#budgetChanged = true;
  }

  /**
   * A budget change since the last call (null: no budget any more), for the store to apply to
   * every host it records, those this watch has forgotten included; undefined: none.
   */
  drainBudget(): number | null | undefined {
    if (!this.#budgetChanged) return undefined;
    this.#budgetChanged = false;
    return this.#budget;
  }

  /**
   * The hosts changed since the last drain, their waits reset. A host whose closure ended a
   * minute ago and whose delay is the configured one is forgotten once reported (a crawl of many
   * sites otherwise keeps one record for every host it touched): its next claim starts a fresh
   * record, which does not count that old closure as a wait (a request a minute later did not wait for it).
   */
  drain(now = Date.now()): HostPoliteness[] {
    const out: HostPoliteness[] = [];
    for (const [host, h] of this.#hosts) {
      if (h.dirty) {
        out.push({ host, delayMs: h.delayMs, waitedMs: Math.round(h.waitedMs), nextAt: h.nextAt, budget: this.#budget });
        h.waitedMs = 0;
        h.dirty = false;
      }
      if (h.inflight === 0 && h.nextAt + FORGET_AFTER_MS <= now && h.delayMs === this.#delayMs) this.#hosts.delete(host);
    }
    return out;
  }

  /** Hosts this watch holds a record of. */
  get size(): number {
    return this.#hosts.size;
  }
}
