import type { StoredPage } from './crawl-reader.js';
import { formatRecords, type RecordFormat } from './export-log.js';

export const PAGE_FIELDS: (keyof StoredPage)[] = [
  'url', 'final_url', 'status', 'content_type', 'fetched_at', 'encoding', 'title', 'relevance', 'canonical', 'noindex', 'text',
];

/** Writes stored pages as JSON lines (one page a line, its text included), one JSON array or RFC 4180 CSV with a header row. */
export function formatPages(pages: AsyncIterable<StoredPage>, format: RecordFormat): AsyncIterable<string> {
  return formatRecords(pages, PAGE_FIELDS, format);
}
