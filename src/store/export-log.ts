import type { LogEntry } from './store.js';

export const LOG_FIELDS: (keyof LogEntry)[] = [
  'seq', 'url', 'final_url', 'state', 'status', 'depth', 'parent', 'anchor', 'title', 'relevance', 'priority', 'fetched_at', 'error',
];

/** One RFC 4180 CSV field. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  // Control characters mean nothing in a CSV cell, and printed they drive the terminal (a title
  // carrying ESC ]0; renames the window, ESC [2J clears it): they are dropped.
  const s = String(v).replace(CONTROL, '');
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/** Writes extracted links: one URL per line (txt, the trace `bench seen` reads), JSON lines or CSV. */
export function* formatLinks(links: Iterable<{ src: string; url: string; anchor: string }>, format: 'jsonl' | 'csv' | 'txt'): Iterable<string> {
  if (format === 'csv') yield 'src,url,anchor\r\n';
  let buf = '';
  for (const l of links) {
    buf += format === 'txt' ? l.url + '\n' : format === 'jsonl' ? JSON.stringify(l) + '\n' : `${csvField(l.src)},${csvField(l.url)},${csvField(l.anchor)}\r\n`;
    if (buf.length > 1 << 16) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

/**
 * Writes records as JSON lines (the given fields, in that order) or RFC 4180 CSV with a header
 * row, in chunks of about 64 KB (one write per record made a large export write-bound).
 */
export async function* formatRecords<T>(rows: AsyncIterable<T> | Iterable<T>, fields: readonly (keyof T & string)[], format: 'jsonl' | 'csv'): AsyncIterable<string> {
  if (format === 'csv') yield fields.join(',') + '\r\n';
  let buf = '';
  for await (const row of rows) {
    if (format === 'csv') buf += fields.map((f) => csvField(row[f])).join(',') + '\r\n';
    else {
      const o: Record<string, unknown> = {};
      for (const f of fields) o[f] = row[f];
      buf += JSON.stringify(o) + '\n';
    }
    if (buf.length > 1 << 16) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

/** Writes the crawl log as JSON lines or RFC 4180 CSV (with a header row). */
export function formatLog(entries: AsyncIterable<LogEntry> | Iterable<LogEntry>, format: 'jsonl' | 'csv'): AsyncIterable<string> {
  return formatRecords(entries, LOG_FIELDS, format);
}
