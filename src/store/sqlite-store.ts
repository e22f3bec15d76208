import { cjkQueryTerm } from '../text/cjk-bigrams.js';
import { parseStored } from './stored-json.js';
import { foldLatinDiacritics } from '../text/fold-latin-diacritics.js';
import type { SqliteDb, WriteStatement } from './sqlite-db.js';
import type { LogEntry, NewLogEntry, PageRecord, SearchHit, Store, UrlCommit } from './store.js';
import { keyToBigInt, urlKey } from '../seen/fingerprint.js';
import { foldChineseChars } from '../text/fold-chinese.js';
import { MAX_QUERY_WORDS, prefixWords, queryWords, searchableQuery } from './query-words.js';

/**
 * Turns free text into an FTS5 query that cannot be a syntax error: every word quoted (CJK words
 * as phrases of bigrams, see cjk-bigrams.ts), all words required.
 */
/** Where FTS5 queries are split into words (and snippets look for them). */
const WORD_SEPARATORS = /[^\p{L}\p{N}_]+/u;

export function ftsQuery(query: string): string {
  const words = queryWords(searchableQuery(query).split(WORD_SEPARATORS).filter(Boolean), query);
  const prefixes = prefixWords(query, WORD_SEPARATORS);
  return words.map((w) => cjkQueryTerm(w) + (prefixes.has(w.toLowerCase()) ? '*' : '')).join(' ');
}

/**
 * About `2 * width` characters of the text around the first query word found in it, found as the
 * index finds words: split where the query is split (full-width commas and all), compatibility
 * forms and Latin diacritics folded (ＧＩＳ is GIS, cafe finds café).
 */
export function snippet(text: string, query: string, width = 80): string {
  // The query's words as the index reads them, and as written (a Taiwan page's 網路 is 网络 in its
  // index but 网路 character by character, which is what positions in its text can be found by).
  const asWritten = foldChineseChars(query.normalize('NFKC'));
  const words = [...new Set([searchableQuery(query), asWritten].flatMap((q) => q.toLowerCase().split(WORD_SEPARATORS)).filter(Boolean).map(foldLatinDiacritics))].slice(0, MAX_QUERY_WORDS);
  const folded = foldChineseChars(foldLatinDiacritics(text.normalize('NFKC').toLowerCase()));
  // Positions in the folded text are the text's own unless folding changed its length (rare).
  const shown = folded.length === text.length ? text : text.normalize('NFKC');
  let at = -1;
  for (const w of words) {
    at = folded.indexOf(w);
    if (at >= 0) break;
  }
  if (at < 0) return shown.slice(0, 2 * width);
  const start = Math.max(0, at - width);
  return (start > 0 ? '…' : '') + shown.slice(start, at + width) + (at + width < shown.length ? '…' : '');
}

/**
 * Pages saved between two updates of the full-text index. FTS5 writes a segment per transaction
 * and merges segments as they pile up: indexing each page in the transaction that stores it made
 * the writer thread the crawl's bottleneck. Batching cut the writer's CPU per page by a quarter
 * (bench/store in bench/RESULTS.md) and keeps the index at most a batch behind.
 */
export const FTS_BATCH = 1000;

/**
 * The embedded repository: pages, crawl log and FTS5 index in the crawl database. A saved page
 * is queued in fts_pending and indexed with the next batch; search() brings the index up to date
 * first, and so does the end of a crawl, so nothing stored is ever missing from a search.
 */
export class SqliteStore implements Store {
  readonly #sql: SqliteDb;
  readonly #ensureUrl: WriteStatement;
  readonly #frontierRows: boolean;
  readonly #upsertPage: WriteStatement;
  readonly #ftsDelete: WriteStatement;
  readonly #queueIndex: WriteStatement;
  readonly #indexPending: WriteStatement;
  readonly #clearPending: WriteStatement;
  readonly #insertLog: WriteStatement;
  #nextSeq: number;
  #queued = 0;

  /**
   * `frontierRows`: a SqliteFrontier in the same database writes every URL's row before its page
   * (the crawl), so the store need not make one (a store used on its own does).
   */
  constructor(sql: SqliteDb, opts: { frontierRows?: boolean } = {}) {
    this.#sql = sql;
    this.#frontierRows = opts.frontierRows === true;
    const db = sql.db;
    // Pages and log lines are keyed by the URL's fingerprint; in this file the fingerprint's row in
    // `urls` (written by the frontier in the same ordered journal) gives the integer id that pages
    // and the FTS5 index use. A page with no frontier row (a store used on its own) gets one.
    this.#ensureUrl = sql.prepareWrite(`INSERT INTO urls(fp, url, host, depth, anchor, priority, state)
      SELECT ?, ?, '', 0, '', 0, 2 WHERE NOT EXISTS (SELECT 1 FROM urls WHERE fp = ?)`);
    this.#upsertPage = sql.prepareWrite(`INSERT INTO pages(url_id, url, final_url, status, content_type, headers, redirects, fetched_at,
      fetch_ms, bytes, encoding, title, text, canonical, relevance, noindex, outlinks)
      VALUES ((SELECT id FROM urls WHERE fp = ?),?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
      ON CONFLICT(url_id) DO UPDATE SET url=excluded.url, final_url=excluded.final_url, status=excluded.status,
        content_type=excluded.content_type, headers=excluded.headers, redirects=excluded.redirects,
        fetched_at=excluded.fetched_at, fetch_ms=excluded.fetch_ms, bytes=excluded.bytes, encoding=excluded.encoding,
        title=excluded.title, text=excluded.text, canonical=excluded.canonical, relevance=excluded.relevance,
        noindex=excluded.noindex, outlinks=excluded.outlinks`);
    // Only a page already in the index has an entry to remove: one still pending has none, and a
    // new page (almost every save) finds no row and costs FTS5 nothing.
    this.#ftsDelete = sql.prepareWrite(`DELETE FROM pages_fts WHERE rowid =
      (SELECT p.url_id FROM urls u JOIN pages p ON p.url_id = u.id WHERE u.fp = ? AND NOT EXISTS (SELECT 1 FROM fts_pending q WHERE q.url_id = p.url_id))`);
    this.#queueIndex = sql.prepareWrite('INSERT OR IGNORE INTO fts_pending(url_id) SELECT id FROM urls WHERE fp = ?');
    // cjk_bigrams() runs where the statement runs: on the writer thread (see sql-functions.ts).
    // The text is read back from pages rather than sent twice to the writer.
    this.#indexPending = sql.prepareWrite(`INSERT INTO pages_fts(rowid, title, text)
      SELECT p.url_id, cjk_bigrams(coalesce(p.title, '')), cjk_bigrams(coalesce(p.text, ''))
      FROM fts_pending q JOIN pages p ON p.url_id = q.url_id
      WHERE p.noindex = 0 AND (coalesce(p.title, '') <> '' OR coalesce(p.text, '') <> '')`);
    this.#clearPending = sql.prepareWrite('DELETE FROM fts_pending');
    this.#insertLog = sql.prepareWrite(`INSERT INTO crawl_log(seq, url_id, url, final_url, state, status, depth, parent, anchor, title,
      relevance, priority, fetched_at, error) VALUES (?,coalesce((SELECT id FROM urls WHERE fp = ?), 0),?,?,?,?,?,?,?,?,?,?,?,?)`);
    this.#nextSeq = ((db.prepare('SELECT max(seq) FROM crawl_log').pluck().get() as number | null) ?? 0) + 1;
  }

  /** Queued in order with the frontier's writes: durable at the next flush, in the same transaction as the URL's state. */
  async commit(c: UrlCommit): Promise<void> {
    if (c.page) this.#savePage(c.page);
    this.#log(c.entry, c.key);
  }

  async logDiscards(entries: NewLogEntry[]): Promise<void> {
    // With the URL's row, so that the log can tell a discard undone later (crawlLogRows).
    for (const e of entries) this.#log(e, urlKey(e.url));
  }

  congested(): boolean {
    return this.#sql.congested;
  }

  handOver(): void {
    this.#sql.flush();
  }

  async flush(): Promise<void> {
    await this.#sql.settle();
  }

  #savePage(p: PageRecord): void {
    const fp = keyToBigInt(p.key);
    const row = [
      fp, p.url, p.finalUrl, p.status, p.contentType, JSON.stringify(p.headers), JSON.stringify(p.redirects),
      p.fetchedAt, p.fetchMs, p.bytes, p.encoding, p.title, p.text, p.canonical, p.relevance, p.noindex ? 1 : 0,
      JSON.stringify(p.outlinks.map((l) => (l.nofollow ? [l.url, l.anchor, 1] : [l.url, l.anchor]))),
    ];
    if (!this.#frontierRows) this.#sql.write(this.#ensureUrl, [fp, p.url, fp]);
    this.#sql.write(this.#ftsDelete, [fp]);
    this.#sql.write(this.#upsertPage, row);
    if (!p.noindex && (p.title || p.text)) {
      this.#sql.write(this.#queueIndex, [fp]);
      if (++this.#queued >= FTS_BATCH) this.indexPending();
    }
  }

  /**
   * Queues the update of the full-text index with every page saved since the last one (this
   * session's and any a crash left pending). It is written in order with the other writes.
   */
  indexPending(): void {
    this.#queued = 0;
    this.#sql.write(this.#indexPending, []);
    this.#sql.write(this.#clearPending, []);
  }

  #log(e: NewLogEntry, key: string | null): void {
    const seq = this.#nextSeq++;
    this.#sql.write(this.#insertLog, [seq, key === null ? null : keyToBigInt(key), e.url, e.final_url, e.state, e.status, e.depth, e.parent, e.anchor, e.title, e.relevance, e.priority, e.fetched_at, e.error]);
  }

  /**
   * Brings the full-text index up to date first, unless the database is open read-only (another
   * process's crawl holds it): then pages still queued are not found; see unindexed().
   */
  async search(query: string, limit: number): Promise<SearchHit[]> {
    await this.#sql.settle();
    // Written only when something is pending, so that searching a finished crawl stays read-only.
    if (!this.#sql.readonly && this.#sql.db.prepare('SELECT EXISTS (SELECT 1 FROM fts_pending)').pluck().get()) {
      this.indexPending();
      try {
        await this.#sql.settle();
      } catch {
        // A full disk: what is indexed is still searched; the database keeps its failure
        // (SqliteDb.failure), and the reader says how many pages were left out (unsearchable()).
      }
    }
    const rows = this.#sql.db
      .prepare(
        `SELECT p.url, p.title, p.text, p.relevance FROM pages_fts f JOIN pages p ON p.url_id = f.rowid
         WHERE pages_fts MATCH ? ORDER BY f.rank LIMIT ?`,
      )
      .all(ftsQuery(query), limit) as { url: string; title: string | null; text: string | null; relevance: number | null }[];
    // SQLite keeps any type in any column: a blob put there by hand is no text to show.
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    return rows.map((r) => ({ url: r.url, title: str(r.title), snippet: snippet(str(r.text), query), relevance: r.relevance }));
  }

  /** Stored pages not yet in the full-text index. */
  unindexed(): number {
    return this.#sql.db.prepare('SELECT count(*) FROM fts_pending').pluck().get() as number;
  }

  /** The crawl log with every write queued so far. */
  async *logEntries(): AsyncIterable<LogEntry> {
    await this.#sql.settle();
    yield* crawlLogRows(this.#sql, 0);
  }

  /** Every link extracted from stored pages, in the order the pages were fetched. */
  *extractedLinks(): Iterable<{ src: string; url: string; anchor: string }> {
    const stmt = this.#sql.db.prepare(
      `SELECT p.url AS src, p.outlinks FROM crawl_log l JOIN pages p ON p.url_id = l.url_id WHERE l.state = 'done' ORDER BY l.seq`,
    );
    for (const row of stmt.iterate() as Iterable<{ src: string; outlinks: string | null }>) {
      for (const [url, anchor] of parseStored<[string, string][]>(row.outlinks ?? '[]', () => `outlinks of ${row.src}`, this.#sql.path)) yield { src: row.src, url, anchor };
    }
  }

  async countRelevant(threshold: number): Promise<number> {
    await this.#sql.settle();
    return this.#sql.db.prepare('SELECT count(*) FROM pages WHERE relevance >= ?').pluck().get(threshold) as number;
  }
}

/**
 * The crawl log of a database after `seq`, as committed; the parent of a logged fetch is read from
 * the frontier's row. A discard that was undone (a URL too deep or discarded by the strategy,
 * found again and queued: its row took a new id) is left out, so each URL is listed once, in the
 * state it ended in.
 */
export function* crawlLogRows(sql: SqliteDb, after: number): Iterable<LogEntry> {
  const stmt = sql.db.prepare(
    `SELECT l.seq, l.url, l.final_url, l.state, l.status, l.depth, COALESCE(l.parent, pu.url) AS parent, l.anchor, l.title,
       l.relevance, l.priority, l.fetched_at, l.error
     FROM crawl_log l LEFT JOIN urls u ON u.id = l.url_id AND l.url_id > 0 LEFT JOIN urls pu ON pu.fp = u.parent
     WHERE l.seq > ? AND NOT (l.state = 'discarded' AND l.url_id > 0 AND u.id IS NULL) ORDER BY l.seq`,
  );
  yield* stmt.iterate(after) as Iterable<LogEntry>;
}
