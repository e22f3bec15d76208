import { parseStored } from './stored-json.js';
import { FocusCrawlError } from '../errors.js';
import { pageKindSql } from '../frontier/request-kind.js';
import { fetchedSql, madeNoRequestSql } from '../fetch/made-no-request.js';
import type { FrontierCounts } from '../frontier/frontier.js';
import { discardKind } from '../engine/discard-reasons.js';
import type { ServiceEntry } from '../services/service-registry.js';
import type { ServiceStatus } from '../services/service-record.js';
import { urlStateName } from '../types.js';
import { checkMinRelevance, checkSearchArguments, commonErrors, crawlStrategy, ERROR_TEXTS_READ, foldedErrorPattern, PRIORITY_BAND_SQL, PRIORITY_BANDS, withNextAllowed } from './crawl-reader.js';
import type { CrawlReader, CrawlStrategy, FetchedRelevance, HarvestPoint, HostSummary, LabelledPage, LastRun, PageLabel, PageSummary, PathStep, RecallPoint, StoredConfig, StoredPage } from './crawl-reader.js';
import type { SqliteDb } from './sqlite-db.js';
import { openExistingDb } from './open-existing-db.js';
import { SqliteServiceRegistry } from './sqlite-service-registry.js';
import { crawlLogRows, SqliteStore } from './sqlite-store.js';
import type { LogEntry, SearchHit } from './store.js';

/**
 * The read model over a crawl database: what `status`, `export`, `search`, `services`, the tests
 * and the dashboard read. Works on a database open read-only while a crawl holds it (what that
 * crawl has committed so far).
 */
export class SqliteCrawlReader implements CrawlReader {
  #open: SqliteDb | null;
  readonly #owned: boolean;

  /** `owned`: close() closes the database (a reader opened on its own). */
  constructor(sql: SqliteDb, owned = false) {
    this.#open = sql;
    this.#owned = owned;
  }

  /** The database; after close() a use says so, instead of better-sqlite3's TypeError. */
  get #sql(): SqliteDb {
    if (!this.#open) throw new FocusCrawlError('USAGE', 'this crawl reader is closed: open another (SqliteCrawlReader.open)');
    return this.#open;
  }

  /**
   * Opens a crawl database to read as `status` does: a missing or damaged file is an error naming
   * it, and while a crawl holds the database it is opened read-only. close() closes it.
   */
  static open(path: string): SqliteCrawlReader {
    return new SqliteCrawlReader(openExistingDb(path).db, true);
  }

  #all<T>(query: string, ...params: unknown[]): T[] {
    return this.#sql.db.prepare(query).all(...params) as T[];
  }

  #int(query: string, ...params: unknown[]): number {
    return (this.#sql.db.prepare(query).pluck().get(...params) as number | null) ?? 0;
  }

  async config(): Promise<StoredConfig | null> {
    const v = this.#sql.getMeta('config');
    return v ? parseStored<StoredConfig>(v, 'config', this.#sql.path) : null;
  }

  async strategy(): Promise<CrawlStrategy | null> {
    return crawlStrategy(await this.config(), this.#sql.getMeta('driver'), this.#sql.getMeta('groupMethod'), this.#sql.getMeta('strategyObject'));
  }

  async lastRun(): Promise<LastRun | null> {
    const v = this.#sql.getMeta('lastRun');
    return v ? parseStored<LastRun>(v, 'lastRun', this.#sql.path) : null;
  }

  async unendedRunStart(): Promise<string | null> {
    const started = this.#sql.getMeta('runStarted');
    if (!started) return null;
    const ended = (await this.lastRun())?.endedAt;
    return ended !== undefined && ended >= started ? null : started;
  }

  async urlCounts(): Promise<FrontierCounts> {
    await this.#sql.settle();
    const out: FrontierCounts = { waiting: 0, fetching: 0, done: 0, error: 0, discarded: 0, notFetched: 0 };
    const rows = this.#all<{ state: number; n: number; unfetched: number }>(`SELECT state, count(*) AS n, sum(state = 3 AND ${madeNoRequestSql()}) AS unfetched FROM urls GROUP BY state`);
    for (const r of rows) {
      out[urlStateName(r.state)] += r.n;
      out.notFetched += r.unfetched;
    }
    return out;
  }

  async pageCount(): Promise<number> {
    await this.#sql.settle();
    return this.#int('SELECT count(*) FROM pages');
  }

  async unindexed(): Promise<number> {
    await this.#sql.settle();
    return this.#int('SELECT count(*) FROM fts_pending');
  }

  async countRelevant(threshold: number): Promise<number> {
    await this.#sql.settle();
    return this.#int('SELECT count(*) FROM pages WHERE relevance >= ?', threshold);
  }

  async topErrors(limit: number): Promise<{ error: string; n: number }[]> {
    await this.#sql.settle();
    const top = commonErrors(this.#all("SELECT error, count(*) AS n FROM crawl_log WHERE state = 'error' GROUP BY error ORDER BY n DESC, error LIMIT ?", ERROR_TEXTS_READ), limit);
    // A folded group's texts may reach past the rows read: its count, in full.
    for (const e of top) {
      const like = foldedErrorPattern(e.error);
      if (like !== null) e.n = this.#int("SELECT count(*) FROM crawl_log WHERE state = 'error' AND error LIKE ? ESCAPE '\\'", like);
    }
    return top.sort((a, b) => b.n - a.n);
  }

  async discardedByKind(): Promise<Record<string, number>> {
    await this.#sql.settle();
    const out: Record<string, number> = {};
    for (const r of this.#all<{ reason: string | null; n: number }>('SELECT reason, count(*) AS n FROM urls WHERE state = 4 GROUP BY reason')) {
      const k = discardKind(r.reason ?? '');
      out[k] = (out[k] ?? 0) + r.n;
    }
    return out;
  }

  serviceCounts(): Promise<Partial<Record<ServiceStatus, number>>> {
    return new SqliteServiceRegistry(this.#sql).counts();
  }

  services(limit?: number): Promise<ServiceEntry[]> {
    return new SqliteServiceRegistry(this.#sql).entries(limit);
  }

  async sitemapCounts(): Promise<{ files: number; urls: number }> {
    await this.#sql.settle();
    return {
      files: this.#int(`SELECT count(*) FROM urls WHERE ${fetchedSql()} AND probe LIKE '{"sitemap":%'`),
      urls: this.#int(`SELECT count(*) FROM urls WHERE ${pageKindSql('probe', 'sqlite')} AND state != 4 AND parent IN (SELECT fp FROM urls WHERE probe LIKE '{"sitemap":%')`),
    };
  }

  async *logEntries(after = 0): AsyncIterable<LogEntry> {
    await this.#sql.settle();
    yield* crawlLogRows(this.#sql, after);
  }

  async harvestCurve(threshold: number, points: number): Promise<HarvestPoint[]> {
    await this.#sql.settle();
    return this.#all<HarvestPoint>(
      `WITH f AS (SELECT row_number() OVER (ORDER BY seq) AS fetched, sum(CASE WHEN relevance >= ? THEN 1 ELSE 0 END) OVER (ORDER BY seq) AS relevant,
                    count(*) OVER () AS total
                  FROM crawl_log WHERE state IN ('done', 'error') AND fetched_at IS NOT NULL)
       SELECT fetched, relevant FROM f WHERE fetched % max(1, CAST((total + ? - 1) / ? AS INTEGER)) = 0 OR fetched = total ORDER BY fetched`,
      threshold, points, points,
    );
  }

  async hosts(limit: number, threshold: number | null): Promise<HostSummary[]> {
    await this.#sql.settle();
    const recorded = this.#hasTable('host_politeness');
    // Hosts in play (a URL not discarded, or a request recorded) before hosts known only from
    // discarded links, then the limit: a crawl with many out-of-scope hosts keeps its waiting ones.
    const rows = this.#all<Omit<HostSummary, 'nextAllowedAt'> & { nextAt: number | null }>(
      `SELECT g.host, g.waiting, g.fetched, g.errors, g.relevant,
              ${recorded ? 'hp.delay_ms AS delayMs, hp.waited_ms AS waitedMs, hp.next_at AS nextAt, hp.budget' : 'NULL AS delayMs, NULL AS waitedMs, NULL AS nextAt, NULL AS budget'}
       FROM (SELECT u.host, sum(u.state = 0) AS waiting, sum(${fetchedSql('u')}) AS fetched, sum(u.state = 3) AS errors, sum(u.state <> 4) AS active,
                    sum(CASE WHEN ? IS NOT NULL AND p.relevance >= ? THEN 1 ELSE 0 END) AS relevant
             FROM urls u LEFT JOIN pages p ON p.url_id = u.id WHERE u.host <> '' GROUP BY u.host) g
       ${recorded ? 'LEFT JOIN host_politeness hp ON hp.host = g.host' : ''}
       ORDER BY g.fetched DESC, (g.active > 0${recorded ? ' OR hp.host IS NOT NULL' : ''}) DESC, g.host LIMIT ?`,
      threshold, threshold, limit,
    );
    return rows.map(withNextAllowed);
  }

  async recallCurve(urls: readonly string[], points: number): Promise<RecallPoint[]> {
    if (!urls.length) return [];
    await this.#sql.settle();
    return this.#all<RecallPoint>(
      `WITH t(url) AS (SELECT value FROM json_each(?)),
       f AS (SELECT row_number() OVER (ORDER BY seq) AS fetched,
                    sum(CASE WHEN url IN (SELECT url FROM t) OR final_url IN (SELECT url FROM t) THEN 1 ELSE 0 END) OVER (ORDER BY seq) AS found,
                    count(*) OVER () AS total
             FROM crawl_log WHERE state IN ('done', 'error') AND fetched_at IS NOT NULL)
       SELECT fetched, found FROM f WHERE fetched % max(1, CAST((total + ? - 1) / ? AS INTEGER)) = 0 OR fetched = total ORDER BY fetched`,
      JSON.stringify(urls), points, points,
    );
  }

  async search(query: string, limit: number): Promise<SearchHit[]> {
    checkSearchArguments(query, limit);
    return new SqliteStore(this.#sql).search(query, limit);
  }

  async waitingByPriority(): Promise<{ band: string; n: number }[]> {
    await this.#sql.settle();
    const rows = this.#all<{ band: string; n: number }>(`SELECT ${PRIORITY_BAND_SQL} AS band, count(*) AS n FROM urls WHERE state = 0 GROUP BY band`);
    return PRIORITY_BANDS.map((b) => ({ band: b.band, n: rows.find((r) => r.band === b.band)?.n ?? 0 }));
  }

  async relevantPages(threshold: number, limit: number): Promise<PageSummary[]> {
    await this.#sql.settle();
    return this.#all<PageSummary>(
      `SELECT p.url, coalesce(p.title, '') AS title, p.relevance, u.priority, u.depth FROM pages p JOIN urls u ON u.id = p.url_id
       WHERE p.relevance >= ? ORDER BY p.relevance DESC, p.url_id LIMIT ?`,
      threshold, limit,
    );
  }

  async *fetchedRelevance(batch = 10_000): AsyncIterable<FetchedRelevance[]> {
    await this.#sql.settle();
    const rows = this.#sql.db
      .prepare("SELECT url, coalesce(final_url, url) AS finalUrl, relevance FROM crawl_log WHERE state = 'done' AND relevance IS NOT NULL ORDER BY seq")
      .iterate() as Iterable<FetchedRelevance>;
    let out: FetchedRelevance[] = [];
    for (const r of rows) {
      out.push(r);
      if (out.length >= batch) {
        yield out;
        out = [];
      }
    }
    if (out.length) yield out;
  }

  async *storedPages(minRelevance: number | null = null): AsyncIterable<StoredPage> {
    checkMinRelevance(minRelevance);
    await this.#sql.settle();
    const rows = this.#sql.db
      .prepare(
        `SELECT url, final_url, status, content_type, fetched_at, encoding, title, text, relevance, canonical, noindex FROM pages
         WHERE ? IS NULL OR relevance >= ? ORDER BY fetched_at, url`,
      )
      .iterate(minRelevance, minRelevance) as Iterable<Omit<StoredPage, 'noindex'> & { noindex: number }>;
    for (const r of rows) yield { ...r, noindex: r.noindex === 1 };
  }

  async anchorPaths(urls: string[], maxSteps = 30): Promise<Record<string, PathStep[]>> {
    await this.#sql.settle();
    const out: Record<string, PathStep[]> = {};
    const start = this.#sql.db.prepare('SELECT url_id FROM pages WHERE url = ?').pluck();
    // Parents are kept by fingerprint (unique index), so each step back is one index lookup.
    const walk = this.#sql.db.prepare(
      `WITH RECURSIVE path(id, parent, url, anchor, priority, step) AS (
         SELECT id, parent, url, anchor, priority, 0 FROM urls WHERE id = ?
         UNION ALL
         SELECT u.id, u.parent, u.url, u.anchor, u.priority, path.step + 1 FROM urls u JOIN path ON u.fp = path.parent WHERE path.step < ?)
       SELECT path.url, path.anchor, path.priority, p.relevance FROM path LEFT JOIN pages p ON p.url_id = path.id ORDER BY path.step DESC`,
    );
    for (const url of urls) {
      const id = start.get(url) as number | undefined;
      if (id !== undefined) out[url] = walk.all(id, maxSteps) as PathStep[];
    }
    return out;
  }

  #hasTable(name: string): boolean {
    return this.#sql.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  }

  #hasLabels(): boolean {
    return this.#hasTable('labels');
  }

  async labels(): Promise<PageLabel[]> {
    if (!this.#hasLabels()) return [];
    return this.#all<{ url: string; relevant: number; labelledAt: string }>('SELECT url, relevant, labelled_at AS labelledAt FROM labels ORDER BY labelled_at DESC, rowid DESC').map((l) => ({ ...l, relevant: l.relevant === 1 }));
  }

  async labelledPages(urls?: readonly string[]): Promise<LabelledPage[]> {
    if (!this.#hasLabels()) return [];
    await this.#sql.settle();
    return this.#all<{ url: string; relevant: number; labelledAt: string; title: string; text: string; data: string | null }>(
      `SELECT l.url, l.relevant, l.labelled_at AS labelledAt, coalesce(p.title, '') AS title, coalesce(p.text, '') AS text, u.data
       FROM labels l JOIN pages p ON p.url = l.url JOIN urls u ON u.id = p.url_id
       ${urls ? 'WHERE l.url IN (SELECT value FROM json_each(?))' : ''} ORDER BY l.url`,
      ...(urls ? [JSON.stringify(urls)] : []),
    ).map(({ data, ...l }) => ({ ...l, relevant: l.relevant === 1, linkData: data ? parseStored<Record<string, unknown>>(data, () => `carried state of ${l.url}`, this.#sql.path) : null }));
  }

  /**
   * Stored pages a search does not find, and why, when no crawl will index them: the database
   * cannot be written here (a read-only copy), or indexing them failed (a full disk). Null when
   * every page is searchable or a running crawl indexes them (unindexed() counts those).
   */
  unsearchable(why: string | null): string | null {
    const sql = this.#sql;
    const failure = sql.failure;
    const reason = failure ? `indexing them failed (${failure.message})` : sql.readonly && why ? `indexing them is a write, and ${why}` : null;
    if (!reason) return null;
    const n = Number(sql.db.prepare('SELECT count(*) FROM fts_pending').pluck().get());
    return n ? `${n} ${n === 1 ? 'page' : 'pages'} stored are not searchable: ${reason}` : null;
  }

  async close(): Promise<void> {
    const db = this.#open;
    this.#open = null;
    // A reader's failed index (a full disk) was said by unsearchable(); closing does not fail on it again.
    if (db && this.#owned) await db.close().catch((err: unknown) => {
      if (!db.failure) throw err;
    });
  }
}
