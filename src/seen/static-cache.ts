import { checkCapacity, type FingerprintCache } from './fingerprint-cache.js';

/**
 * A static cache: the `capacity` most frequent keys of a training sequence, fixed afterwards
 * (the paper's "static cache of the most popular URLs"). Ties go to the key seen first.
 */
export class StaticCache implements FingerprintCache {
  readonly capacity: number;
  readonly #keys: Set<number>;

  constructor(capacity: number, training: ArrayLike<number>) {
    checkCapacity(capacity);
    // Unlike the other caches it is built from a sequence: without one it failed reading 'length' of undefined.
    if (typeof training?.length !== 'number') throw new TypeError('StaticCache(capacity, training): training is the key sequence whose most frequent keys it keeps (fingerprintKey(url) for each URL of a trace)');
    this.capacity = capacity;
    const counts = new Map<number, number>();
    for (let i = 0; i < training.length; i++) counts.set(training[i]!, (counts.get(training[i]!) ?? 0) + 1);
    const ranked = [...counts].sort((a, b) => b[1] - a[1]);
    this.#keys = new Set(ranked.slice(0, capacity).map(([k]) => k));
  }

  get size(): number {
    return this.#keys.size;
  }

  has(key: number): boolean {
    return this.#keys.has(key);
  }

  access(key: number): boolean {
    return this.#keys.has(key);
  }
}
