import type { FingerprintCache } from './fingerprint-cache.js';

/**
 * CLOCK: each slot has a mark bit, set on a hit. On a miss with the cache full, the hand sweeps
 * forward clearing marks and evicts the first unmarked slot; the new key takes that slot unmarked
 * and the hand moves past it. The paper's recommendation: close to LRU at a lower cost.
 */
export class ClockCache implements FingerprintCache {
  readonly capacity: number;
  readonly #keys: Float64Array;
  readonly #marks: Uint8Array;
  readonly #slot = new Map<number, number>();
  #hand = 0;
  #used = 0;

  constructor(capacity: number) {
    if (!(capacity >= 1)) throw new RangeError('cache capacity must be at least 1');
    this.capacity = capacity;
    this.#keys = new Float64Array(capacity);
    this.#marks = new Uint8Array(capacity);
  }

  get size(): number {
    return this.#used;
  }

  has(key: number): boolean {
    return this.#slot.has(key);
  }

  access(key: number): boolean {
    const s = this.#slot.get(key);
    if (s !== undefined) {
      this.#marks[s] = 1;
      return true;
    }
    this.#admit(key);
    return false;
  }

  /** The slot `key` occupies, or -1; does not mark it (caches keeping a value per slot read it here). */
  slotOf(key: number): number {
    return this.#slot.get(key) ?? -1;
  }

  /** Marks a slot used (a hit, for the sweep). */
  touch(slot: number): void {
    this.#marks[slot] = 1;
  }

  /** Puts a key that is not cached into a slot (evicting by the sweep when full) and returns the slot. */
  admit(key: number): number {
    return this.#admit(key);
  }

  #admit(key: number): number {
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
    this.#marks[victim] = 0;
    this.#slot.set(key, victim);
    return victim;
  }
}
