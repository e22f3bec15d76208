import type { StoredPage } from './crawl-reader.js';
import { csvField } from './export-log.js';

export const PAGE_FIELDS: (keyof StoredPage)[] = [
  'url', 'final_url', 'status', 'content_type', 'fetched_at', 'encoding', 'title', 'relevance', 'canonical', 'noindex', 'text',
];

/** Writes stored pages as JSON lines (one page a line, its text included) or RFC 4180 CSV with a header row. */
export async function* formatPages(pages: AsyncIterable<StoredPage>, format: 'jsonl' | 'csv'): AsyncIterable<string> {
  if (format === 'csv') yield PAGE_FIELDS.join(',') + '\r\n';
  let buf = '';
  for await (const p of pages) {
    if (format === 'csv') buf += PAGE_FIELDS.map((f) => csvField(p[f])).join(',') + '\r\n';
    else {
      const o: Record<string, unknown> = {};
      for (const f of PAGE_FIELDS) o[f] = p[f];
      buf += JSON.stringify(o) + '\n';
    }
    if (buf.length > 1 << 16) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}
