import { checkCapacity, type FingerprintCache } from './fingerprint-cache.js';

/** Least recently used: a Map kept in use order (a hit moves the key to the end). */
export class LruCache implements FingerprintCache {
  readonly capacity: number;
  readonly #map = new Map<number, true>();

  constructor(capacity: number) {
    checkCapacity(capacity);
    this.capacity = capacity;
  }

  get size(): number {
    return this.#map.size;
  }

  has(key: number): boolean {
    return this.#map.has(key);
  }

  access(key: number): boolean {
    if (this.#map.delete(key)) {
      this.#map.set(key, true);
      return true;
    }
    if (this.#map.size >= this.capacity) this.#map.delete(this.#map.keys().next().value!);
    this.#map.set(key, true);
    return false;
  }
}
