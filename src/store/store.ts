import type { Link, RedirectHop } from '../types.js';

/** A fetched URL as the repository keeps it. */
export interface PageRecord {
  urlId: number;
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  headers: Record<string, string>;
  redirects: RedirectHop[];
  fetchedAt: string;
  fetchMs: number;
  bytes: number;
  /** Null for content that was recorded but not parsed (non-HTML). */
  encoding: string | null;
  title: string | null;
  /** Null when not parsed or when the page asked not to be indexed. */
  text: string | null;
  canonical: string | null;
  relevance: number | null;
  noindex: boolean;
  outlinks: Link[];
}

/** One line of the crawl log: a URL that reached a final state. Field names are the export's. */
export interface LogEntry {
  seq: number;
  url: string;
  final_url: string | null;
  state: 'done' | 'error' | 'discarded';
  status: number | null;
  depth: number;
  parent: string | null;
  anchor: string;
  title: string | null;
  relevance: number | null;
  priority: number;
  fetched_at: string | null;
  error: string | null;
}

export interface SearchHit {
  url: string;
  title: string;
  snippet: string;
  relevance: number | null;
}

/**
 * The repository: pages with their text, the crawl log, full-text search.
 * Writes may be buffered; they are durable after the backend's flush (see SqliteDb).
 * Saving a page for a url id that already has one replaces it, so redelivery never duplicates.
 */
export interface Store {
  savePage(page: PageRecord): void;
  /** Appends to the crawl log; `seq` is assigned by the store and returned. */
  log(entry: Omit<LogEntry, 'seq'>, urlId: number): number;
  search(query: string, limit: number): Promise<SearchHit[]>;
  /** The crawl log in seq order, as committed. */
  logEntries(): Iterable<LogEntry>;
  /** Pages whose relevance reached the threshold. */
  countRelevant(threshold: number): Promise<number>;
}
