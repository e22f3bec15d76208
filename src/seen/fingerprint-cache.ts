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

/** A cache's capacity: a fraction (1.5) made CLOCK write past its slots and sweep by a fractional hand. */
export function checkCapacity(capacity: number): void {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`cache capacity must be a whole number, at least 1 (got ${typeof capacity === 'string' ? `'${capacity}'` : String(capacity)})`);
}
