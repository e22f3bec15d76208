import type { Link, RedirectHop } from '../types.js';

/** A fetched URL as the repository keeps it. */
export interface PageRecord {
  /** The URL's key (CrawlRequest.key): one page per key, whichever worker fetched it. */
  key: string;
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

/** The log line of a URL that reached a final state, without what the store assigns. */
export type NewLogEntry = Omit<LogEntry, 'seq'>;

/** What fetching one URL produced: its log line and, for a stored page, the page. */
export interface UrlCommit {
  /** The URL's key; null for a URL that never had a frontier entry. */
  key: string | null;
  entry: NewLogEntry;
  page: PageRecord | null;
}

/**
 * The repository: pages with their text, the crawl log, full-text search.
 *
 * A URL's end is one write, commit(): its page and its log line together. The crawler awaits it
 * before the frontier's complete(), so no URL is ever marked done before its page is recorded
 * (a crash in between refetches the URL, and the upsert by key stores it once). Writes may be
 * buffered: the embedded store queues them for its writer thread in order (durable at the next
 * flush, in the same transaction as the frontier's state), a shared store commits before resolving.
 * test/store/describe-store.ts is the contract suite every backend passes.
 */
export interface Store {
  /** Records a URL's end: the page, replacing any earlier one with the same key, and the log line. */
  commit(c: UrlCommit): Promise<void>;
  /** Log lines of URLs dropped without a fetch (out of scope, too deep, refused by the strategy). */
  logDiscards(entries: NewLogEntry[]): Promise<void>;
  /**
   * True while the store cannot keep up with the crawl (back-pressure): the crawler stops claiming
   * until it turns false. Answered locally, it is asked on every turn of the crawl loop.
   */
  congested(): boolean;
  /**
   * Hands buffered writes to the backend without waiting for them: the crawl loop calls it about
   * every 25 ms. The embedded store's writes go to its writer thread as one transaction; a shared
   * store's group writer sends its batches on its own, and a loop that waited for them would stop
   * claiming for a commit's time every turn.
   */
  handOver(): void;
  /** Hands buffered writes over and resolves once they are committed (after seeds, at the end of a run, at close). */
  flush(): Promise<void>;
  search(query: string, limit: number): Promise<SearchHit[]>;
  /** The crawl log in seq order, as committed. */
  logEntries(): AsyncIterable<LogEntry>;
  /** Pages whose relevance reached the threshold. */
  countRelevant(threshold: number): Promise<number>;
}
