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
 * Same sweep as ClockCache: a mark bit per slot set on a hit, the hand clears marks and evicts
 * the first unmarked slot. Keys are 53-bit (fingerprintKey).
 */
export class SeenPriorityCache {
  readonly capacity: number;
  readonly #keys: Float64Array;
  readonly #best: Float64Array;
  readonly #marks: Uint8Array;
  readonly #slot = new Map<number, number>();
  #hand = 0;
  #used = 0;

  constructor(capacity: number) {
    if (!(capacity >= 1)) throw new RangeError('cache capacity must be at least 1');
    this.capacity = capacity;
    this.#keys = new Float64Array(capacity);
    this.#best = new Float64Array(capacity);
    this.#marks = new Uint8Array(capacity);
  }

  get size(): number {
    return this.#used;
  }

  /** The best priority recorded for `key` (marking it used), or undefined when not cached. */
  get(key: number): number | undefined {
    const s = this.#slot.get(key);
    if (s === undefined) return undefined;
    this.#marks[s] = 1;
    return this.#best[s];
  }

  /** Looks without marking. */
  peek(key: number): number | undefined {
    const s = this.#slot.get(key);
    return s === undefined ? undefined : this.#best[s];
  }

  /** Records that `key` is in the seen set, offered at `priority`: keeps the higher of old and new. */
  put(key: number, priority: number): void {
    const s = this.#slot.get(key);
    if (s !== undefined) {
      this.#marks[s] = 1;
      if (priority > this.#best[s]!) this.#best[s] = priority;
      return;
    }
    let victim: number;
    if (this.#used < this.capacity) {
      victim = this.#used++;
    } else {
      while (this.#marks[this.#hand]) {
        this.#marks[this.#hand] = 0;
        this.#hand = (this.#hand + 1) % this.capacity;
      }
      victim = this.#hand;
      this.#slot.delete(this.#keys[victim]!);
      this.#hand = (victim + 1) % this.capacity;
    }
    this.#keys[victim] = key;
    this.#best[victim] = priority;
    this.#marks[victim] = 0;
    this.#slot.set(key, victim);
  }

  /**
   * Forgets the priorities (keeps the keys as seen at -Infinity): after a rescore a URL's priority
   * may have gone down, so no earlier offer proves a new one useless; final URLs stay final.
   */
  forgetPriorities(): void {
    for (let i = 0; i < this.#used; i++) if (this.#best[i] !== Infinity) this.#best[i] = -Infinity;
  }
}
