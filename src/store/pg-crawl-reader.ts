import { FocusCrawlError } from '../errors.js';
import { pageKindSql } from '../frontier/request-kind.js';
import { checkCrawlName, pgSchema, redact } from '../distributed/shared-target.js';
import { connectPg, pgQuery } from './pg-connect.js';
import { parseStored } from './stored-json.js';
import { fetchedSql, madeNoRequestSql } from '../fetch/made-no-request.js';
import type pg from 'pg';
import type { FrontierCounts } from '../frontier/frontier.js';
import { discardKind } from '../engine/discard-reasons.js';
import type { ServiceEntry } from '../services/service-registry.js';
import type { ServiceStatus } from '../services/service-record.js';
import { checkMinRelevance, checkSearchArguments, commonErrors, crawlStrategy, ERROR_TEXTS_READ, foldedErrorPattern, PRIORITY_BAND_SQL, PRIORITY_BANDS, withNextAllowed } from './crawl-reader.js';
import type { CrawlReader, CrawlStrategy, FetchedRelevance, HarvestPoint, HostSummary, LabelledPage, LastRun, PageLabel, PageSummary, PathStep, RecallPoint, StoredConfig, StoredPage } from './crawl-reader.js';
import { PgServiceRegistry } from './pg-service-registry.js';
import { pgTextQuery } from './pg-text-query.js';
import { snippet } from './sqlite-store.js';
import type { LogEntry, SearchHit } from './store.js';
import { crawlSchemaExists, tableExists } from './pg-table-exists.js';

const PAGE = 1000;

/**
 * The read model over a shared crawl's PostgreSQL schema. PostgreSQL does not know which waiting
 * URLs a worker holds: `live` (the Redis frontier's counts) supplies waiting and fetching when given.
 */
export class PgCrawlReader implements CrawlReader {
  readonly #pool: pg.Pool;
  readonly #s: string;
  readonly #live: (() => Promise<FrontierCounts>) | null;
  readonly #owned: boolean;
  readonly #registry: PgServiceRegistry;
  readonly #delays: readonly number[];

  /**
   * Opens the shared crawl `name` in the PostgreSQL at `url` for reading (its own pool, ended by
   * close()); a name no crawl has is a FocusCrawlError, as in `status --name`.
   */
  static async open(url: string, name: string): Promise<PgCrawlReader> {
    checkCrawlName(name, "PgCrawlReader.open's name");
    const pool = await connectPg(url, 2);
    const schema = pgSchema(name);
    const found = await crawlSchemaExists(pool, schema).catch(async (err: unknown) => {
      await pool.end().catch(() => {});
      throw err;
    });
    if (!found) {
      await pool.end();
      throw new FocusCrawlError('USAGE', `there is no crawl named '${name}' in PostgreSQL at ${redact(url)}`);
    }
    return new PgCrawlReader(pool, schema, null, true);
  }

  /**
   * `owned`: close() ends the pool (a reader opened on its own, not one borrowed from a PgStore).
   * `delays`: a lost connection is tried again after each (a worker's reads, which a restart of
   * PostgreSQL must not end, as its writes are not ended); none: a command's read fails at once.
   */
  constructor(pool: pg.Pool, schema: string, live: (() => Promise<FrontierCounts>) | null = null, owned = false, delays: readonly number[] = []) {
    this.#pool = pool;
    this.#s = schema;
    this.#live = live;
    this.#owned = owned;
    this.#delays = delays;
    this.#registry = new PgServiceRegistry(pool, schema);
  }

  #query(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    return this.#delays.length ? pgQuery(this.#pool, sql, params, this.#delays) : this.#pool.query(sql, params);
  }

  async #meta(key: string): Promise<string | null> {
    const r = await this.#query(`SELECT value FROM ${this.#s}.meta WHERE key = $1`, [key]);
    return r.rows[0] ? (r.rows[0] as { value: string }).value : null;
  }

  async config(): Promise<StoredConfig | null> {
    const v = await this.#meta('config');
    return v ? parseStored<StoredConfig>(v, 'config', `crawl schema ${this.#s}`) : null;
  }

  /** A shared crawl is never a group crawl (group is embedded only). */
  async strategy(): Promise<CrawlStrategy | null> {
    return crawlStrategy(await this.config(), null, null);
  }

  async lastRun(): Promise<LastRun | null> {
    const v = await this.#meta('lastRun');
    return v ? parseStored<LastRun>(v, 'lastRun', `crawl schema ${this.#s}`) : null;
  }

  async unendedRunStart(): Promise<string | null> {
    return null;
  }

  async urlCounts(): Promise<FrontierCounts> {
    const out: FrontierCounts = { waiting: 0, fetching: 0, done: 0, error: 0, discarded: 0, notFetched: 0 };
    const names = ['waiting', 'fetching', 'done', 'error', 'discarded'] as const;
    const r = await this.#query(
      `SELECT state, count(*)::int AS n, count(*) FILTER (WHERE state = 3 AND ${madeNoRequestSql()})::int AS unfetched FROM ${this.#s}.urls GROUP BY state`,
    );
    for (const x of r.rows as { state: number; n: number; unfetched: number }[]) {
      out[names[x.state] ?? 'waiting'] += x.n;
      out.notFetched += x.unfetched;
    }
    if (this.#live) {
      const live = await this.#live();
      out.waiting = live.waiting;
      out.fetching = live.fetching;
    }
    return out;
  }

  async pageCount(): Promise<number> {
    return this.#int(`SELECT count(*)::int AS n FROM ${this.#s}.pages`);
  }

  /** The index is a generated column, never behind. */
  async unindexed(): Promise<number> {
    return 0;
  }

  async countRelevant(threshold: number): Promise<number> {
    return this.#int(`SELECT count(*)::int AS n FROM ${this.#s}.pages WHERE relevance >= $1`, [threshold]);
  }

  async topErrors(limit: number): Promise<{ error: string; n: number }[]> {
    const r = await this.#query(`SELECT error, count(*)::int AS n FROM ${this.#s}.crawl_log WHERE state = 'error' GROUP BY error ORDER BY n DESC, error LIMIT $1`, [ERROR_TEXTS_READ]);
    const top = commonErrors(r.rows as { error: string; n: number }[], limit);
    // A folded group's texts may reach past the rows read: its count, in full.
    for (const e of top) {
      const like = foldedErrorPattern(e.error);
      if (like !== null) e.n = (await this.#query(`SELECT count(*)::int AS n FROM ${this.#s}.crawl_log WHERE state = 'error' AND error LIKE $1 ESCAPE '\\'`, [like])).rows[0].n as number;
    }
    return top.sort((a, b) => b.n - a.n);
  }

  async discardedByKind(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    const r = await this.#query(`SELECT reason, count(*)::int AS n FROM ${this.#s}.urls WHERE state = 4 GROUP BY reason`);
    for (const x of r.rows as { reason: string | null; n: number }[]) {
      const k = discardKind(x.reason ?? '');
      out[k] = (out[k] ?? 0) + x.n;
    }
    return out;
  }

  serviceCounts(): Promise<Partial<Record<ServiceStatus, number>>> {
    return this.#registry.counts();
  }

  services(limit?: number): Promise<ServiceEntry[]> {
    return this.#registry.entries(limit);
  }

  async sitemapCounts(): Promise<{ files: number; urls: number }> {
    const files = await this.#int(`SELECT count(*)::int AS n FROM ${this.#s}.urls WHERE ${fetchedSql()} AND kind ? 'sitemap'`);
    const urls = await this.#int(`SELECT count(*)::int AS n FROM ${this.#s}.urls WHERE ${pageKindSql('kind', 'pg')} AND state <> 4 AND parent IN (SELECT fp FROM ${this.#s}.urls WHERE kind ? 'sitemap')`);
    return { files, urls };
  }

  async *fetchedRelevance(batch = 10_000): AsyncIterable<FetchedRelevance[]> {
    for (let after = 0; ; ) {
      const r = await this.#query(
        `SELECT seq, url, coalesce(final_url, url) AS "finalUrl", relevance FROM ${this.#s}.crawl_log WHERE seq > $1 AND state = 'done' AND relevance IS NOT NULL ORDER BY seq LIMIT $2`,
        [after, batch],
      );
      const rows = r.rows as { seq: string; url: string; finalUrl: string; relevance: number }[];
      if (rows.length) yield rows;
      if (rows.length < batch) return;
      after = Number(rows[rows.length - 1]!.seq);
    }
  }

  /**
   * The crawl log after `seq`; a discard that was undone (the URL was found again and queued, or
   * discarded again for another reason: a redirect's target) is left out, as in SQLite.
   */
  async *logEntries(after = 0): AsyncIterable<LogEntry> {
    let from = after;
    for (;;) {
      const r = await this.#query(
        `SELECT l.seq::float8 AS seq, l.url, l.final_url, l.state, l.status, l.depth, coalesce(l.parent, pu.url) AS parent, l.anchor, l.title, l.relevance, l.priority, l.fetched_at, l.error
         FROM ${this.#s}.crawl_log l LEFT JOIN ${this.#s}.urls u ON u.fp = l.fp LEFT JOIN ${this.#s}.urls pu ON pu.fp = u.parent
         WHERE l.seq > $1 AND NOT (l.state = 'discarded' AND u.state IS NOT NULL AND (u.state <> 4 OR l.error IS DISTINCT FROM u.reason)) ORDER BY l.seq LIMIT $2`,
        [from, PAGE],
      );
      const rows = r.rows as LogEntry[];
      yield* rows;
      if (rows.length < PAGE) return;
      from = rows[rows.length - 1]!.seq;
    }
  }

  async harvestCurve(threshold: number, points: number): Promise<HarvestPoint[]> {
    const r = await this.#query(
      `WITH f AS (SELECT row_number() OVER (ORDER BY seq) AS fetched, sum(CASE WHEN relevance >= $1 THEN 1 ELSE 0 END) OVER (ORDER BY seq) AS relevant,
                    count(*) OVER () AS total
                  FROM ${this.#s}.crawl_log WHERE state IN ('done', 'error') AND fetched_at IS NOT NULL)
       SELECT fetched::int, relevant::int FROM f WHERE fetched % greatest(1, ceil(total::float8 / $2)::int) = 0 OR fetched = total ORDER BY fetched`,
      [threshold, points],
    );
    return r.rows as HarvestPoint[];
  }

  async hosts(limit: number, threshold: number | null): Promise<HostSummary[]> {
    const recorded = await this.#hasTable('host_politeness');
    const r = await this.#query(
      // Hosts in play (a URL not discarded, or a request recorded) before hosts known only from
      // discarded links, then the limit, as in the SQLite reader.
      `SELECT g.host, g.waiting, g.fetched, g.errors, g.relevant,
              ${recorded ? 'hp.delay_ms AS "delayMs", hp.waited_ms::float8 AS "waitedMs", hp.next_at::float8 AS "nextAt", hp.budget' : 'NULL::int AS "delayMs", NULL::float8 AS "waitedMs", NULL::float8 AS "nextAt", NULL::int AS budget'}
       FROM (SELECT u.host, count(*) FILTER (WHERE u.state = 0)::int AS waiting, count(*) FILTER (WHERE ${fetchedSql('u')})::int AS fetched,
                    count(*) FILTER (WHERE u.state = 3)::int AS errors, count(*) FILTER (WHERE u.state <> 4)::int AS active,
                    count(p.fp) FILTER (WHERE $2::float8 IS NOT NULL AND p.relevance >= $2)::int AS relevant
             FROM ${this.#s}.urls u LEFT JOIN ${this.#s}.pages p ON p.fp = u.fp WHERE u.host <> ''
             GROUP BY u.host) g
       ${recorded ? `LEFT JOIN ${this.#s}.host_politeness hp ON hp.host = g.host` : ''}
       ORDER BY g.fetched DESC, (g.active > 0${recorded ? ' OR hp.host IS NOT NULL' : ''}) DESC, g.host LIMIT $1`,
      [limit, threshold],
    );
    return (r.rows as (Omit<HostSummary, 'nextAllowedAt'> & { nextAt: number | null })[]).map(withNextAllowed);
  }

  async recallCurve(urls: readonly string[], points: number): Promise<RecallPoint[]> {
    if (!urls.length) return [];
    const r = await this.#query(
      `WITH t AS (SELECT unnest($1::text[]) AS url),
       f AS (SELECT row_number() OVER (ORDER BY seq) AS fetched,
                    sum(CASE WHEN url IN (SELECT url FROM t) OR final_url IN (SELECT url FROM t) THEN 1 ELSE 0 END) OVER (ORDER BY seq) AS found,
                    count(*) OVER () AS total
             FROM ${this.#s}.crawl_log WHERE state IN ('done', 'error') AND fetched_at IS NOT NULL)
       SELECT fetched::int, found::int FROM f WHERE fetched % greatest(1, ceil(total::float8 / $2)::int) = 0 OR fetched = total ORDER BY fetched`,
      [urls, points],
    );
    return r.rows as RecallPoint[];
  }

  async search(query: string, limit: number): Promise<SearchHit[]> {
    checkSearchArguments(query, limit);
    const r = await this.#query(
      `SELECT url, title, text, relevance FROM ${this.#s}.pages, to_tsquery('simple', $1) q WHERE tsv @@ q ORDER BY ts_rank(tsv, q) DESC, fp LIMIT $2`,
      [pgTextQuery(query), limit],
    );
    return (r.rows as { url: string; title: string | null; text: string | null; relevance: number | null }[]).map((x) => ({ url: x.url, title: x.title ?? '', snippet: snippet(x.text ?? '', query), relevance: x.relevance }));
  }

  async waitingByPriority(): Promise<{ band: string; n: number }[]> {
    const rows = (await this.#query(`SELECT ${PRIORITY_BAND_SQL} AS band, count(*)::int AS n FROM ${this.#s}.urls WHERE state = 0 GROUP BY band`)).rows as { band: string; n: number }[];
    return PRIORITY_BANDS.map((b) => ({ band: b.band, n: rows.find((r) => r.band === b.band)?.n ?? 0 }));
  }

  async relevantPages(threshold: number, limit: number): Promise<PageSummary[]> {
    const r = await this.#query(
      `SELECT p.url, coalesce(p.title, '') AS title, p.relevance, u.priority, u.depth FROM ${this.#s}.pages p JOIN ${this.#s}.urls u ON u.fp = p.fp
       WHERE p.relevance >= $1 ORDER BY p.relevance DESC, p.fp LIMIT $2`,
      [threshold, limit],
    );
    return r.rows as PageSummary[];
  }

  async *storedPages(minRelevance: number | null = null): AsyncIterable<StoredPage> {
    checkMinRelevance(minRelevance);
    // Keyset pages of PAGE rows: a cursor would hold a transaction open for the whole export.
    let after: [string, string] | null = null;
    for (;;) {
      const r = await this.#query(
        `SELECT url, final_url, status, content_type, fetched_at, encoding, title, text, relevance, canonical, noindex FROM ${this.#s}.pages
         WHERE ($1::float8 IS NULL OR relevance >= $1) AND ($2::text IS NULL OR (fetched_at, url) > ($2, $3))
         ORDER BY fetched_at, url LIMIT $4`,
        [minRelevance, after?.[0] ?? null, after?.[1] ?? null, PAGE],
      );
      const rows = r.rows as StoredPage[];
      yield* rows;
      if (rows.length < PAGE) return;
      const last = rows[rows.length - 1]!;
      after = [last.fetched_at, last.url];
    }
  }

  async anchorPaths(urls: string[], maxSteps = 30): Promise<Record<string, PathStep[]>> {
    if (!urls.length) return {};
    const r = await this.#query(
      `WITH RECURSIVE path(start, fp, parent, url, anchor, priority, step) AS (
         SELECT p.url, u.fp, u.parent, u.url, u.anchor, u.priority, 0 FROM ${this.#s}.pages p JOIN ${this.#s}.urls u ON u.fp = p.fp WHERE p.url = ANY($1)
         UNION ALL
         SELECT path.start, u.fp, u.parent, u.url, u.anchor, u.priority, path.step + 1 FROM ${this.#s}.urls u JOIN path ON u.fp = path.parent WHERE path.step < $2)
       SELECT path.start, path.url, path.anchor, path.priority, p.relevance FROM path LEFT JOIN ${this.#s}.pages p ON p.fp = path.fp ORDER BY path.start, path.step DESC`,
      [urls, maxSteps],
    );
    const out: Record<string, PathStep[]> = {};
    for (const x of r.rows as (PathStep & { start: string })[]) (out[x.start] ??= []).push({ url: x.url, anchor: x.anchor, priority: x.priority, relevance: x.relevance });
    return out;
  }

  async #hasTable(name: string): Promise<boolean> {
    return tableExists({ query: (sql, params) => this.#query(sql, params) }, `${this.#s}.${name}`);
  }

  #hasLabels(): Promise<boolean> {
    return this.#hasTable('labels');
  }

  async labels(): Promise<PageLabel[]> {
    if (!(await this.#hasLabels())) return [];
    const r = await this.#query(`SELECT url, relevant, labelled_at AS "labelledAt" FROM ${this.#s}.labels ORDER BY labelled_at DESC, url`);
    return r.rows as PageLabel[];
  }

  async labelledPages(urls?: readonly string[]): Promise<LabelledPage[]> {
    if (!(await this.#hasLabels())) return [];
    const r = await this.#query(
      `SELECT l.url, l.relevant, l.labelled_at AS "labelledAt", coalesce(p.title, '') AS title, coalesce(p.text, '') AS text, u.data AS "linkData"
       FROM ${this.#s}.labels l JOIN ${this.#s}.pages p ON p.url = l.url LEFT JOIN ${this.#s}.urls u ON u.fp = p.fp
       WHERE $1::text[] IS NULL OR l.url = ANY($1) ORDER BY l.url`,
      [urls ?? null],
    );
    return r.rows as LabelledPage[];
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#pool.end();
  }

  async #int(sql: string, params: unknown[] = []): Promise<number> {
    const r = await this.#query(sql, params);
    return (r.rows[0] as { n: number }).n;
  }
}
