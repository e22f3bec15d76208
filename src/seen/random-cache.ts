import { seededRandom } from '../bench/seeded-random.js';
import { checkCapacity, type FingerprintCache } from './fingerprint-cache.js';

/** Random replacement: a miss with the cache full evicts a uniformly chosen entry (seeded PRNG). */
export class RandomCache implements FingerprintCache {
  readonly capacity: number;
  readonly #keys: Float64Array;
  readonly #slot = new Map<number, number>();
  readonly #random01: () => number;

  constructor(capacity: number, seed = 1) {
    checkCapacity(capacity);
    this.capacity = capacity;
    this.#keys = new Float64Array(capacity);
    this.#random01 = seededRandom(seed);
  }

  get size(): number {
    return this.#slot.size;
  }

  has(key: number): boolean {
    return this.#slot.has(key);
  }

  #random(n: number): number {
    return Math.floor(this.#random01() * n);
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
