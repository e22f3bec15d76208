import type { FingerprintCache } from './fingerprint-cache.js';
import { fingerprint, type Fingerprint } from './fingerprint.js';
import type { SeenCounters, SeenSet } from './seen-set.js';

/** The authoritative set behind a cache: SQLite now, Redis in the distributed backend. */
export interface SeenBacking {
  has(fp: Fingerprint): boolean;
  /** Adds; true when new. */
  add(fp: Fingerprint): boolean;
}

const keyOf = (fp: Fingerprint) => fp.hi * 2097152 + (fp.lo >>> 11);

/**
 * A cache of fingerprints known to be seen in front of a backing set (the caching paper's
 * setting). The cache holds only positives and the seen set only grows, so a hit is always right;
 * a miss asks the backing set, and whatever it says is seen enters the cache.
 */
export class LayeredSeenSet implements SeenSet {
  readonly #cache: FingerprintCache;
  readonly #backing: SeenBacking;
  readonly counters: SeenCounters = { cacheHits: 0, cacheMisses: 0 };

  constructor(cache: FingerprintCache, backing: SeenBacking) {
    this.#cache = cache;
    this.#backing = backing;
  }

  has(url: string): boolean {
    const fp = fingerprint(url);
    const key = keyOf(fp);
    if (this.#cache.has(key)) {
      this.counters.cacheHits++;
      this.#cache.access(key); // a use: CLOCK marks it, LRU moves it
      return true;
    }
    this.counters.cacheMisses++;
    const seen = this.#backing.has(fp);
    if (seen) this.#cache.access(key);
    return seen;
  }

  add(url: string): boolean {
    const fp = fingerprint(url);
    const key = keyOf(fp);
    if (this.#cache.has(key)) {
      this.counters.cacheHits++;
      this.#cache.access(key);
      return false;
    }
    this.counters.cacheMisses++;
    const fresh = this.#backing.add(fp);
    this.#cache.access(key); // seen from now on, either way
    return fresh;
  }
}
