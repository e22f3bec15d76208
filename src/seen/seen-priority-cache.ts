import { ClockCache } from './clock-cache.js';

/**
 * A worker's CLOCK cache of fingerprints confirmed present in a shared seen set, each with the
 * best priority this worker has offered for it (+Infinity once it is final).
 *
 * Why a value beside the key, unlike ClockCache: a waiting URL found again with a better priority
 * must be raised (Frontier.add), so a cache hit may be dropped before the round trip only when it
 * cannot raise anything: the shared frontier's priority for the URL is at least the best one this
 * worker offered (raises only go up), so an offer no better than that is a no-op. Final URLs
 * (+Infinity) are dropped always and make settled() true.
 *
 * The sweep is ClockCache's (its slots index the values here). Keys are 53-bit (fingerprintKey).
 */
export class SeenPriorityCache {
  /** A value below every priority that forgetPriorities keeps: a caller's mark of a state no priority says. */
  static readonly MARK = -Number.MAX_VALUE;
  readonly capacity: number;
  /** The keys and their sweep; `#best` holds each slot's value. */
  readonly #clock: ClockCache;
  readonly #best: Float64Array;

  constructor(capacity: number) {
    this.#clock = new ClockCache(capacity);
    this.capacity = capacity;
    this.#best = new Float64Array(capacity);
  }

  get size(): number {
    return this.#clock.size;
  }

  /** The best priority recorded for `key` (marking it used), or undefined when not cached. */
  get(key: number): number | undefined {
    const s = this.#clock.slotOf(key);
    if (s < 0) return undefined;
    this.#clock.touch(s);
    return this.#best[s];
  }

  /** Looks without marking. */
  peek(key: number): number | undefined {
    const s = this.#clock.slotOf(key);
    return s < 0 ? undefined : this.#best[s];
  }

  /** Records that `key` is in the seen set, offered at `priority`: keeps the higher of old and new. */
  put(key: number, priority: number): void {
    const s = this.#clock.slotOf(key);
    if (s >= 0) {
      this.#clock.touch(s);
      if (priority > this.#best[s]!) this.#best[s] = priority;
      return;
    }
    this.#best[this.#clock.admit(key)] = priority;
  }

  /**
   * Forgets the priorities (keeps the keys as seen at -Infinity): after a rescore a URL's priority
   * may have gone down, so no earlier offer proves a new one useless; final URLs stay final, and
   * a caller's MARK stays (RedisFrontier's revivable discards, which no rescore changes).
   */
  forgetPriorities(): void {
    for (let i = 0; i < this.#clock.size; i++) if (this.#best[i] !== Infinity && this.#best[i] !== SeenPriorityCache.MARK) this.#best[i] = -Infinity;
  }
}
