/**
 * The URL-seen test as the frontier uses it. Implementations: FingerprintSet (the whole set in
 * memory, the embedded default) and LayeredSeenSet (a cache in front of a backing set).
 */
export interface SeenSet {
  /** Adds the URL. True when it was not seen before. */
  add(url: string): boolean;
  has(url: string): boolean;
}

/** Counters of a cached seen set, reported in the crawl statistics. */
export interface SeenCounters {
  cacheHits: number;
  cacheMisses: number;
}
