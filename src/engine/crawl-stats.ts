import type { FrontierCounts } from '../frontier/frontier.js';
import type { SeenCounters } from '../seen/seen-set.js';

/** Live statistics of a crawl, readable at any moment (progress display, dashboard). */
export interface CrawlStats {
  startedAt: number;
  /** Fetches that reached a final state in this run (done or error). */
  fetched: number;
  done: number;
  /** Of `done`, the pages stored with their text (not sitemaps, probes, robots-only answers). */
  pages: number;
  errors: number;
  /** Links discarded in this run (scope, depth, robots, strategy). */
  discarded: number;
  /** The same, by kind of reason (src/engine/discard-reasons.ts). */
  discardedBy: Record<string, number>;
  /**
   * Links discarded as deeper than max depth (in this run or an earlier one) that a shorter path
   * found again in this run: queued after all, though their discard is counted above.
   */
  revived: number;
  /**
   * URLs that ended in this run as errors without a request of their own (host unreachable,
   * robots.txt unreachable): not in `fetched` or `errors`, and not counted against the page budget.
   */
  notFetched: number;
  /** The first URLs of this run that ended as errors, with why (at most FIRST_FAILURES): what a run that fetched nothing tells the user. */
  failures: { url: string; reason: string }[];
  retries: number;
  /** Pages in this run with relevance >= the topic threshold. */
  relevant: number;
  bytes: number;
  /** Links extracted from pages in this run (the stream the URL-seen test sees). */
  links: number;
  frontier: FrontierCounts;
  /** The URL-seen cache's hits and misses (with --seen-cache); null without a cache. */
  seen: SeenCounters | null;
  /** Service probes answered or failed in this run (they count in `fetched` too). */
  probes: number;
  /** Probed endpoints by outcome in this run. */
  services: { valid: number; exception: number; invalid: number };
  /** Sitemap files read or failed in this run (they count in `fetched` too). */
  sitemaps: number;
  /** Of those, files cut at a limit (URLs or bytes). */
  sitemapsCut: number;
  /** URLs that joined the frontier from sitemaps in this run (not linked from a page fetched before). */
  sitemapUrls: number;
}

/** Failures a run keeps for its summary. */
export const FIRST_FAILURES = 3;

export function newStats(): CrawlStats {
  return {
    startedAt: Date.now(),
    fetched: 0,
    done: 0,
    pages: 0,
    errors: 0,
    discarded: 0,
    discardedBy: {},
    revived: 0,
    notFetched: 0,
    failures: [],
    retries: 0,
    relevant: 0,
    bytes: 0,
    links: 0,
    frontier: { waiting: 0, fetching: 0, done: 0, error: 0, discarded: 0, notFetched: 0 },
    seen: null,
    probes: 0,
    services: { valid: 0, exception: 0, invalid: 0 },
    sitemaps: 0,
    sitemapsCut: 0,
    sitemapUrls: 0,
  };
}

export function pagesPerSecond(s: CrawlStats, now = Date.now()): number {
  const secs = (now - s.startedAt) / 1000;
  return secs > 0 ? s.fetched / secs : 0;
}
