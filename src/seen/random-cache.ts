import type { FingerprintCache } from './fingerprint-cache.js';

/** Random replacement: a miss with the cache full evicts a uniformly chosen entry (seeded PRNG). */
export class RandomCache implements FingerprintCache {
  readonly capacity: number;
  readonly #keys: Float64Array;
  readonly #slot = new Map<number, number>();
  #state: number;

  constructor(capacity: number, seed = 1) {
    if (!(capacity >= 1)) throw new RangeError('cache capacity must be at least 1');
    this.capacity = capacity;
    this.#keys = new Float64Array(capacity);
    this.#state = seed >>> 0;
  }

  get size(): number {
    return this.#slot.size;
  }

  has(key: number): boolean {
    return this.#slot.has(key);
  }

  #random(n: number): number {
    // mulberry32
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  }

  access(key: number): boolean {
    if (this.#slot.has(key)) return true;
    let s = this.#slot.size;
    if (s >= this.capacity) {
      s = this.#random(this.capacity);
      this.#slot.delete(this.#keys[s]!);
    }
    this.#keys[s] = key;
    this.#slot.set(key, s);
    return false;
  }
}
