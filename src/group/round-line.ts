import type { CrawlStats } from '../engine/crawl-stats.js';
import { count } from '../text/count.js';

/**
 * "40 pages fetched (2 failed), 3 URLs ended without a request": a round's requests as the
 * summary counts them. A dead host's URLs end without one (its host marked unreachable) and are
 * no failed fetches.
 */
export function fetchedNote(s: CrawlStats): string {
  return `${count(s.fetched, 'page')} fetched${s.errors > 0 ? ` (${s.errors} failed)` : ''}${s.notFetched > 0 ? `, ${count(s.notFetched, 'URL')} ended without a request (host or its robots.txt unreachable)` : ''}`;
}
