import { FocusCrawlError } from '../errors.js';
import { cjkQueryTerm } from '../text/cjk-bigrams.js';
import type { SqliteDb, WriteStatement } from './sqlite-db.js';
import type { LogEntry, PageRecord, SearchHit, Store } from './store.js';

/**
 * Turns free text into an FTS5 query that cannot be a syntax error: every word quoted (CJK words
 * as phrases of bigrams, see cjk-bigrams.ts), all words required.
 */
export function ftsQuery(query: string): string {
  const words = query.normalize('NFKC').split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  if (!words.length) throw new FocusCrawlError('USAGE', `search query '${query}' has no words to look for`);
  return words.map(cjkQueryTerm).join(' ');
}

function snippet(text: string, query: string, width = 80): string {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const lower = text.toLowerCase();
  let at = -1;
  for (const w of words) {
    at = lower.indexOf(w);
    if (at >= 0) break;
  }
  if (at < 0) return text.slice(0, 2 * width);
  const start = Math.max(0, at - width);
  return (start > 0 ? '…' : '') + text.slice(start, at + width) + (at + width < text.length ? '…' : '');
}

/** The embedded repository: pages, crawl log and FTS5 index in the crawl database. */
export class SqliteStore implements Store {
  readonly #sql: SqliteDb;
  readonly #upsertPage: WriteStatement;
  readonly #ftsDelete: WriteStatement;
  readonly #ftsInsert: WriteStatement;
  readonly #insertLog: WriteStatement;
  #nextSeq: number;

  constructor(sql: SqliteDb) {
    this.#sql = sql;
    const db = sql.db;
    this.#upsertPage = sql.prepareWrite(`INSERT INTO pages(url_id, url, final_url, status, content_type, headers, redirects, fetched_at,
      fetch_ms, bytes, encoding, title, text, canonical, relevance, noindex, outlinks)
      VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
      ON CONFLICT(url_id) DO UPDATE SET url=excluded.url, final_url=excluded.final_url, status=excluded.status,
        content_type=excluded.content_type, headers=excluded.headers, redirects=excluded.redirects,
        fetched_at=excluded.fetched_at, fetch_ms=excluded.fetch_ms, bytes=excluded.bytes, encoding=excluded.encoding,
        title=excluded.title, text=excluded.text, canonical=excluded.canonical, relevance=excluded.relevance,
        noindex=excluded.noindex, outlinks=excluded.outlinks`);
    this.#ftsDelete = sql.prepareWrite('DELETE FROM pages_fts WHERE rowid = ?');
    // cjk_bigrams() runs where the statement runs: on the writer thread (see sql-functions.ts).
    this.#ftsInsert = sql.prepareWrite('INSERT INTO pages_fts(rowid, title, text) VALUES (?, cjk_bigrams(?), cjk_bigrams(?))');
    this.#insertLog = sql.prepareWrite(`INSERT INTO crawl_log(seq, url_id, url, final_url, state, status, depth, parent, anchor, title,
      relevance, priority, fetched_at, error) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
    this.#nextSeq = ((db.prepare('SELECT max(seq) FROM crawl_log').pluck().get() as number | null) ?? 0) + 1;
  }

  savePage(p: PageRecord): void {
    const row = [
      p.urlId, p.url, p.finalUrl, p.status, p.contentType, JSON.stringify(p.headers), JSON.stringify(p.redirects),
      p.fetchedAt, p.fetchMs, p.bytes, p.encoding, p.title, p.text, p.canonical, p.relevance, p.noindex ? 1 : 0,
      JSON.stringify(p.outlinks.map((l) => (l.nofollow ? [l.url, l.anchor, 1] : [l.url, l.anchor]))),
    ];
    const indexed = !p.noindex && (p.title || p.text) ? [p.title ?? '', p.text ?? ''] : null;
    this.#sql.write(this.#upsertPage, row);
    this.#sql.write(this.#ftsDelete, [p.urlId]);
    if (indexed) this.#sql.write(this.#ftsInsert, [p.urlId, indexed[0], indexed[1]]);
  }

  log(e: Omit<LogEntry, 'seq'>, urlId: number): number {
    const seq = this.#nextSeq++;
    this.#sql.write(this.#insertLog, [seq, urlId, e.url, e.final_url, e.state, e.status, e.depth, e.parent, e.anchor, e.title, e.relevance, e.priority, e.fetched_at, e.error]);
    return seq;
  }

  async search(query: string, limit: number): Promise<SearchHit[]> {
    await this.#sql.settle();
    const rows = this.#sql.db
      .prepare(
        `SELECT p.url, p.title, p.text, p.relevance FROM pages_fts f JOIN pages p ON p.url_id = f.rowid
         WHERE pages_fts MATCH ? ORDER BY f.rank LIMIT ?`,
      )
      .all(ftsQuery(query), limit) as { url: string; title: string | null; text: string | null; relevance: number | null }[];
    return rows.map((r) => ({ url: r.url, title: r.title ?? '', snippet: snippet(r.text ?? '', query), relevance: r.relevance }));
  }

  /** The crawl log as committed: call `await db.settle()` first to include recent writes. */
  *logEntries(): Iterable<LogEntry> {
    const stmt = this.#sql.db.prepare(
      `SELECT l.seq, l.url, l.final_url, l.state, l.status, l.depth, COALESCE(l.parent, pu.url) AS parent, l.anchor, l.title,
         l.relevance, l.priority, l.fetched_at, l.error
       FROM crawl_log l LEFT JOIN urls u ON u.id = l.url_id LEFT JOIN urls pu ON pu.id = u.parent ORDER BY l.seq`,
    );
    yield* stmt.iterate() as Iterable<LogEntry>;
  }

  /** Every link extracted from stored pages, in the order the pages were fetched. */
  *extractedLinks(): Iterable<{ src: string; url: string; anchor: string }> {
    const stmt = this.#sql.db.prepare(
      `SELECT p.url AS src, p.outlinks FROM crawl_log l JOIN pages p ON p.url_id = l.url_id WHERE l.state = 'done' ORDER BY l.seq`,
    );
    for (const row of stmt.iterate() as Iterable<{ src: string; outlinks: string | null }>) {
      for (const [url, anchor] of JSON.parse(row.outlinks ?? '[]') as [string, string][]) yield { src: row.src, url, anchor };
    }
  }

  async countRelevant(threshold: number): Promise<number> {
    await this.#sql.settle();
    return this.#sql.db.prepare('SELECT count(*) FROM pages WHERE relevance >= ?').pluck().get(threshold) as number;
  }
}
