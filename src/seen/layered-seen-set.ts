import type { FingerprintCache } from './fingerprint-cache.js';
import { fingerprint, type Fingerprint } from './fingerprint.js';
import type { SeenCounters, SeenSet } from './seen-set.js';

/**
 * The authoritative set behind a cache, as the embedded frontier asks it: synchronously, one
 * fingerprint at a time (SqliteSeenBacking answers from its index).
 */
export interface LocalSeenBacking {
  has(fp: Fingerprint): boolean;
  /** Adds; true when new. */
  add(fp: Fingerprint): boolean;
}

/**
 * The seen-set contract every backing set passes (test/seen/describe-seen-backing.ts): batched
 * and async, so that a shared set (Redis) answers a page's links in one round trip. The set only
 * grows; `add` and `has` agree at once, whoever added.
 */
export interface SeenBacking {
  /** Per fingerprint, whether it was already in the set. */
  hasMany(fps: Fingerprint[]): Promise<boolean[]>;
  /** Adds them; per fingerprint, true when it was new (a repeat within the batch is not new). */
  addMany(fps: Fingerprint[]): Promise<boolean[]>;
  /** Fingerprints in the set. */
  size(): Promise<number>;
}

const keyOf = (fp: Fingerprint) => fp.hi * 2097152 + (fp.lo >>> 11);

/**
 * A cache of fingerprints known to be seen in front of a backing set (the caching paper's
 * setting). The cache holds only positives and the seen set only grows, so a hit is always right;
 * a miss asks the backing set, and whatever it says is seen enters the cache.
 */
export class LayeredSeenSet implements SeenSet {
  readonly #cache: FingerprintCache;
  readonly #backing: LocalSeenBacking;
  readonly counters: SeenCounters = { cacheHits: 0, cacheMisses: 0 };
  /** How the last has() was answered: from the cache, or not. */
  #lastHit = false;

  constructor(cache: FingerprintCache, backing: LocalSeenBacking) {
    this.#cache = cache;
    this.#backing = backing;
  }

  has(url: string, count = true): boolean {
    const fp = fingerprint(url);
    const key = keyOf(fp);
    this.#lastHit = this.#cache.has(key);
    if (count) this.countLast();
    if (this.#lastHit) {
      this.#cache.access(key); // a use: CLOCK marks it, LRU moves it
      return true;
    }
    const seen = this.#backing.has(fp);
    if (seen) this.#cache.access(key);
    return seen;
  }

  countLast(): void {
    if (this.#lastHit) this.counters.cacheHits++;
    else this.counters.cacheMisses++;
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
