/**
 * A bounded cache of fingerprints (53-bit keys, see fingerprintKey) in front of a larger URL-seen
 * set, as in Broder, Najork and Wiener's URL caching study. Implementations: ClockCache,
 * LruCache, RandomCache, StaticCache.
 */
export interface FingerprintCache {
  readonly capacity: number;
  readonly size: number;
  /** A request for `key`: true on a hit; on a miss the key is admitted, evicting if full. */
  access(key: number): boolean;
  /** Looks without admitting or counting as a use. */
  has(key: number): boolean;
}
