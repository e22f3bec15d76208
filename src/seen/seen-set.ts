/**
 * The URL-seen test as the frontier uses it. Implementations: FingerprintSet (the whole set in
 * memory, the embedded default) and LayeredSeenSet (a cache in front of a backing set).
 */
export interface SeenSet {
  /** Adds the URL. True when it was not seen before. */
  add(url: string): boolean;
  /**
   * Whether the URL was seen. `count` false leaves the test out of the counters: the frontier
   * counts it (countLast) only when it is the link's last test, so that a link tested here and
   * then added is counted once, as the caching paper counts one test per link.
   */
  has(url: string, count?: boolean): boolean;
  /** Counts the test the last has(url, false) answered (a cache hit, or a miss). */
  countLast?(): void;
}

/** Counters of a cached seen set, reported in the crawl statistics. */
export interface SeenCounters {
  cacheHits: number;
  cacheMisses: number;
}
