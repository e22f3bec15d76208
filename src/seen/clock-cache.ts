import { checkCapacity, type FingerprintCache } from './fingerprint-cache.js';

/**
 * CLOCK: each slot has a mark bit, set on a hit. On a miss with the cache full, the hand sweeps
 * forward clearing marks and evicts the first unmarked slot; the new key takes that slot unmarked
 * and the hand moves past it. The paper's recommendation: close to LRU at a lower cost.
 *
 * Keys (53-bit fingerprint keys) find their slot through an open-addressing index in a typed
 * array (linear probing, deletion by backward shift) rather than a Map: a Map keyed by numbers
 * past 2^31 boxes every key, and in a shared crawl's worker that lookup and its garbage were a
 * visible share of the CPU per page (bench/distributed/cpu-per-page).
 */
export class ClockCache implements FingerprintCache {
  readonly capacity: number;
  readonly #keys: Float64Array;
  readonly #marks: Uint8Array;
  /** Slot + 1 per index position, 0 when empty; at most half full. */
  readonly #index: Int32Array;
  readonly #mask: number;
  #hand = 0;
  #used = 0;

  constructor(capacity: number) {
    checkCapacity(capacity);
    this.capacity = capacity;
    this.#keys = new Float64Array(capacity);
    this.#marks = new Uint8Array(capacity);
    let size = 4;
    while (size < capacity * 2) size *= 2;
    this.#index = new Int32Array(size);
    this.#mask = size - 1;
  }

  get size(): number {
    return this.#used;
  }

  has(key: number): boolean {
    return this.slotOf(key) >= 0;
  }

  access(key: number): boolean {
    // A string key (the URL itself) is stored as NaN, which equals nothing: every access a silent miss.
    if (typeof key !== 'number') throw new TypeError(`cache keys are numbers, fingerprintKey(url), not ${typeof key}`);
    const s = this.slotOf(key);
    if (s >= 0) {
      this.#marks[s] = 1;
      return true;
    }
    this.#admit(key);
    return false;
  }

  /** The slot `key` occupies, or -1; does not mark it (caches keeping a value per slot read it here). */
  slotOf(key: number): number {
    const index = this.#index;
    const mask = this.#mask;
    for (let i = this.#home(key); ; i = (i + 1) & mask) {
      const e = index[i]!;
      if (e === 0) return -1;
      if (this.#keys[e - 1] === key) return e - 1;
    }
  }

  /** Marks a slot used (a hit, for the sweep). */
  touch(slot: number): void {
    this.#marks[slot] = 1;
  }

  /** Puts a key that is not cached into a slot (evicting by the sweep when full) and returns the slot. */
  admit(key: number): number {
    return this.#admit(key);
  }

  #home(key: number): number {
    // The low 32 bits of a fingerprint key (>>> 0 is exact below 2^53), mixed: keys are hashes already, but tests use small ones.
    return Math.imul(key >>> 0 ^ Math.floor(key / 4294967296), 0x9e3779b1) & this.#mask;
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
      this.#unindex(victim);
      this.#hand = (victim + 1) % this.capacity;
    }
    this.#keys[victim] = key;
    this.#marks[victim] = 0;
    const index = this.#index;
    let i = this.#home(key);
    while (index[i] !== 0) i = (i + 1) & this.#mask;
    index[i] = victim + 1;
    return victim;
  }

  /** Removes a slot's key from the index, shifting later entries of its probe run back (no tombstones). */
  #unindex(slot: number): void {
    const index = this.#index;
    const mask = this.#mask;
    let i = this.#home(this.#keys[slot]!);
    while (index[i] !== slot + 1) i = (i + 1) & mask;
    for (let j = (i + 1) & mask; index[j] !== 0; j = (j + 1) & mask) {
      const h = this.#home(this.#keys[index[j]! - 1]!);
      // Move j's entry into the hole at i unless its home lies cyclically in (i, j].
      if (((j - h) & mask) >= ((j - i) & mask)) {
        index[i] = index[j]!;
        i = j;
      }
    }
    index[i] = 0;
  }
}
