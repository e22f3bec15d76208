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

/** The formats records are written in: JSON lines, one JSON array, or CSV with a header row. */
export type RecordFormat = 'jsonl' | 'json' | 'csv';

/**
 * One record as JSON: a line of JSON lines, or an element of a JSON array (a `.json` file is read
 * whole by json.load and JSON.parse, as Scrapy's `-o items.json` writes it), opened by the first.
 */
export function jsonRecord(record: unknown, format: 'jsonl' | 'json', first: boolean): string {
  const s = JSON.stringify(record);
  return format === 'jsonl' ? s + '\n' : (first ? '[\n' : ',\n') + s;
}

/** What closes the records of `jsonRecord`: the array's bracket (the whole array when there were none). */
export function jsonEnd(format: RecordFormat | 'txt', none: boolean): string {
  return format === 'json' ? (none ? '[]\n' : '\n]\n') : '';
}

/** Writes extracted links: one URL per line (txt, the trace `bench seen` reads), JSON lines, a JSON array or CSV. */
export function* formatLinks(links: Iterable<{ src: string; url: string; anchor: string }>, format: RecordFormat | 'txt'): Iterable<string> {
  if (format === 'csv') yield 'src,url,anchor\r\n';
  let buf = '';
  let none = true;
  for (const l of links) {
    buf += format === 'txt' ? l.url + '\n' : format === 'csv' ? `${csvField(l.src)},${csvField(l.url)},${csvField(l.anchor)}\r\n` : jsonRecord(l, format, none);
    none = false;
    if (buf.length > 1 << 16) {
      yield buf;
      buf = '';
    }
  }
  buf += jsonEnd(format, none);
  if (buf) yield buf;
}

/**
 * Writes records as JSON lines, one JSON array (the given fields, in that order) or RFC 4180 CSV with a header
 * row, in chunks of about 64 KB (one write per record made a large export write-bound).
 */
export async function* formatRecords<T>(rows: AsyncIterable<T> | Iterable<T>, fields: readonly (keyof T & string)[], format: RecordFormat): AsyncIterable<string> {
  if (format === 'csv') yield fields.join(',') + '\r\n';
  let buf = '';
  let none = true;
  for await (const row of rows) {
    if (format === 'csv') buf += fields.map((f) => csvField(row[f])).join(',') + '\r\n';
    else {
      const o: Record<string, unknown> = {};
      for (const f of fields) o[f] = row[f];
      buf += jsonRecord(o, format, none);
    }
    none = false;
    if (buf.length > 1 << 16) {
      yield buf;
      buf = '';
    }
  }
  buf += jsonEnd(format, none);
  if (buf) yield buf;
}

/** Writes the crawl log as JSON lines, one JSON array or RFC 4180 CSV (with a header row). */
export function formatLog(entries: AsyncIterable<LogEntry> | Iterable<LogEntry>, format: RecordFormat): AsyncIterable<string> {
  return formatRecords(entries, LOG_FIELDS, format);
}
