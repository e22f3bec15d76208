import type pg from 'pg';
import { requestKind, type RequestKind } from '../frontier/request-kind.js';
import type { CrawlRequest } from '../types.js';
import type { UrlJournal } from '../frontier/url-journal.js';
import { bigIntToKey, keyToBigInt, urlKey } from '../seen/fingerprint.js';
import { connectPg, pgQuery, RETRY_DELAYS_MS } from './pg-connect.js';
import { PgCrawlReader } from './pg-crawl-reader.js';
import { pgSchemaSql, PG_SCHEMA_VERSION } from './pg-schema.js';
import { PgServiceRegistry } from './pg-service-registry.js';
import { pgTsvector } from './pg-text-query.js';
import { hasTraditional } from '../text/fold-chinese.js';
import { fp, keyOfWrite, recordBatchParams, writeRecordParams, type RecordWrite } from './pg-record-batch.js';
import { PgWriterThread } from './pg-writer-thread.js';
import type { LogEntry, NewLogEntry, SearchHit, Store, UrlCommit } from './store.js';
import { FocusCrawlError } from '../errors.js';
import { GroupWriter } from './group-writer.js';
import { crawlSchemaExists } from './pg-table-exists.js';

/**
 * Batches closed and waiting behind the one being written before congested() asks the crawl to
 * wait. A batch closes early only when full or on a repeated key, so a queue means PostgreSQL is
 * behind.
 */
const MAX_QUEUED = 4;
/**
 * What a batch may carry: a commit (a page's text) weighs as much as 30 admitted URLs, plus one
 * per 16 KB of text, so a batch of huge pages (5 MB bodies) stays a few tens of MB in the writer
 * thread rather than hundreds.
 */
const MAX_BATCH_WEIGHT = 2000;
const COMMIT_WEIGHT = 30;
const TEXT_WEIGHT_CHARS = 16_384;
/** Rows a bulk statement carries at most (parameters stay far below PostgreSQL's 65,535). */
const BULK = 1000;

/**
 * The repository of a shared crawl in PostgreSQL, one schema per crawl. It is the crawl's record:
 * pages, log and services, and (as the Redis frontier's UrlJournal) every URL admitted with its
 * state, so `rebuild` can recreate a lost live frontier.
 *
 * A URL's end is one statement (data-modifying CTEs: page upsert, log line, URL state), so it is
 * atomic and costs one round trip; the upsert by fingerprint makes a redelivered URL harmless.
 */
export class PgStore implements Store, UrlJournal {
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly services: PgServiceRegistry;
  readonly #delays: readonly number[];
  /** The waits before each new attempt after a lost connection (connect's retryDelaysMs), for the crawl's other writers. */
  get retryDelays(): readonly number[] {
    return this.#delays;
  }
  /** The writer thread that builds and sends the group writer's statements, or null to do it on this thread. */
  readonly #thread: PgWriterThread | null;
  /**
   * Every write of a running crawl (URLs admitted or raised, URL ends with their pages) in one
   * ordered group writer: one statement per batch, batches in order. So the Redis frontier need
   * not wait for its admissions (UrlJournal.ordered): a page's links are written in the page's
   * statement or an earlier one, never after it.
   */
  readonly #record = new GroupWriter<RecordWrite>((batch) => this.#writeBatch(batch), {
    maxWeight: MAX_BATCH_WEIGHT,
    delayMs: 4,
    keyOf: keyOfWrite,
    weightOf: (w) => ('commit' in w ? COMMIT_WEIGHT + Math.floor((w.commit.page?.text?.length ?? 0) / TEXT_WEIGHT_CHARS) : 1),
  });
  /** UrlJournal: later writes through this store never commit before added() and raised() (see #record). */
  readonly ordered = true;
  /** Commits made by this process and the time they took as it saw them (bench/distributed). */
  readonly writes = { commits: 0, ms: 0 };
  /** Statements the group writer sent (each a batch of admissions, raises and commits). */
  statements = 0;

  private constructor(pool: pg.Pool, url: string, schema: string, delays: readonly number[], writer: 'thread' | 'inline') {
    this.pool = pool;
    this.schema = schema;
    this.#delays = delays;
    this.#thread = writer === 'thread' ? new PgWriterThread({ url, schema, delays }) : null;
    this.services = new PgServiceRegistry(pool, schema, delays);
  }

  /**
   * Connects (retrying a few times) and creates the crawl's schema if it is missing. A write that
   * loses its connection later is retried after each of `retryDelaysMs` (default RETRY_DELAYS_MS),
   * then fails with a FocusCrawlError naming PostgreSQL. The group writer's statements are built
   * and sent by a writer thread with its own connection (`writer: 'thread'`, the default) or on
   * the caller's thread (`'inline'`).
   */
  /**
   * Opens the crawl record in `schema`, creating it when missing, unless `missing` is given: a
   * worker joining a crawl then fails with that error and creates nothing.
   */
  static async connect(url: string, schema: string, opts: { poolSize?: number; retryDelaysMs?: readonly number[]; writer?: 'thread' | 'inline'; missing?: () => Error } = {}): Promise<PgStore> {
    if (!/^[a-z][a-z0-9_]{0,62}$/.test(schema)) throw new FocusCrawlError('USAGE', `'${schema}' is not a usable PostgreSQL schema name`);
    const pool = await connectPg(url, opts.poolSize ?? 10);
    if (opts.missing) {
      const found = await crawlSchemaExists(pool, schema).catch(async (err: unknown) => {
        await pool.end().catch(() => {});
        throw new FocusCrawlError('STORE', `PostgreSQL: cannot read the crawl's schema ${schema}: ${(err as Error).message}`, { cause: err });
      });
      if (!found) {
        await pool.end().catch(() => {});
        throw opts.missing();
      }
    }
    const store = new PgStore(pool, url, schema, opts.retryDelaysMs ?? RETRY_DELAYS_MS, opts.writer ?? 'thread');
    try {
      await store.#migrate();
    } catch (err) {
      await pool.end().catch(() => {});
      throw new FocusCrawlError('STORE', `PostgreSQL: cannot set up the crawl's schema ${schema}: ${(err as Error).message}`, { cause: err });
    }
    return store;
  }

  async #migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      // Workers starting together must not race to create the same tables.
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [this.schema]);
      await client.query(pgSchemaSql(this.schema));
      const v = await client.query(`SELECT value FROM ${this.schema}.meta WHERE key = 'schema_version'`);
      const found = v.rows[0] ? Number((v.rows[0] as { value: string }).value) : null;
      if (found === 1 || found === 2) await this.#storeTsvectors(client);
      if (found === 3 || found === 4) await this.#refoldTsvectors(client);
      if (found === null || (found >= 1 && found <= 4)) {
        await client.query(`INSERT INTO ${this.schema}.meta(key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [String(PG_SCHEMA_VERSION)]);
      } else if (found !== PG_SCHEMA_VERSION) throw new Error(`schema version ${found}; this focuscrawl reads version ${PG_SCHEMA_VERSION}`);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * Versions 1 and 2 to 3: the tsvector, generated until 2 from a stored search text, becomes a
   * column the store writes; each indexed page's is built again from its title and text (which
   * also folds the diacritics version 1 kept), and the search text column goes.
   */
  async #storeTsvectors(client: pg.PoolClient): Promise<void> {
    await client.query(`ALTER TABLE ${this.schema}.pages ALTER COLUMN tsv DROP EXPRESSION IF EXISTS`);
    let after = '-9223372036854775808';
    for (;;) {
      const r = await client.query(`SELECT fp::text AS fp, title, text FROM ${this.schema}.pages WHERE fp > $1::bigint AND search_text IS NOT NULL ORDER BY fp LIMIT 500`, [after]);
      const rows = r.rows as { fp: string; title: string | null; text: string | null }[];
      if (!rows.length) break;
      await client.query(
        `UPDATE ${this.schema}.pages p SET tsv = lower(v.t)::tsvector FROM unnest($1::bigint[], $2::text[]) AS v(fp, t) WHERE p.fp = v.fp`,
        [rows.map((x) => x.fp), rows.map((x) => pgTsvector(x.title, x.text))],
      );
      after = rows[rows.length - 1]!.fp;
    }
    await client.query(`UPDATE ${this.schema}.pages SET tsv = NULL WHERE search_text IS NULL`);
    await client.query(`ALTER TABLE ${this.schema}.pages DROP COLUMN search_text`);
  }

  /** Versions 3 and 4 to 5: the pages whose title or text has traditional Chinese get their tsvector again, folded. */
  async #refoldTsvectors(client: pg.PoolClient): Promise<void> {
    let after = '-9223372036854775808';
    for (;;) {
      const r = await client.query(`SELECT fp::text AS fp, title, text FROM ${this.schema}.pages WHERE fp > $1::bigint AND tsv IS NOT NULL ORDER BY fp LIMIT 500`, [after]);
      const rows = r.rows as { fp: string; title: string | null; text: string | null }[];
      if (!rows.length) break;
      after = rows[rows.length - 1]!.fp;
      const changed = rows.filter((x) => hasTraditional(x.title ?? '') || hasTraditional(x.text ?? ''));
      if (!changed.length) continue;
      await client.query(
        `UPDATE ${this.schema}.pages p SET tsv = lower(v.t)::tsvector FROM unnest($1::bigint[], $2::text[]) AS v(fp, t) WHERE p.fp = v.fp`,
        [changed.map((x) => x.fp), changed.map((x) => pgTsvector(x.title, x.text))],
      );
    }
  }

  reader(live?: ConstructorParameters<typeof PgCrawlReader>[2]): PgCrawlReader {
    return new PgCrawlReader(this.pool, this.schema, live, false, this.#delays);
  }

  #query(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    return pgQuery(this.pool, sql, params, this.#delays);
  }

  async getMeta(key: string): Promise<string | null> {
    const r = await this.#query(`SELECT value FROM ${this.schema}.meta WHERE key = $1`, [key]);
    return r.rows[0] ? (r.rows[0] as { value: string }).value : null;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.#query(`INSERT INTO ${this.schema}.meta(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [key, value]);
  }

  /**
   * Group commit (GroupWriter): the URL ends handed in within a few milliseconds, or while the
   * batch before them is written, leave together as one statement (data-modifying CTEs over
   * unnest arrays: URLs admitted and raised, log lines, URL states, pages), atomic for the whole
   * batch; each caller's promise resolves when its batch has committed.
   */
  commit(c: UrlCommit): Promise<void> {
    const t0 = performance.now();
    return this.#record.write([{ commit: c }]).finally(() => {
      this.writes.commits++;
      this.writes.ms += performance.now() - t0;
    });
  }

  // async: a batch that cannot be flattened fails its writers like one PostgreSQL refused.
  async #writeBatch(batch: RecordWrite[]): Promise<void> {
    this.statements++;
    const params = recordBatchParams(batch);
    return this.#thread ? this.#thread.send(params) : writeRecordParams(this.pool, this.schema, params, this.#delays, this.#writeName);
  }

  /** The name the batch statement is prepared under on each connection of the pool (inline writer). */
  readonly #writeName = `fc_write_${Math.random().toString(36).slice(2, 10)}`;

  async logDiscards(entries: NewLogEntry[]): Promise<void> {
    for (let i = 0; i < entries.length; i += BULK) {
      const part = entries.slice(i, i + BULK);
      const col = <K extends keyof NewLogEntry>(k: K) => part.map((e) => e[k]);
      // With the URL's fingerprint, so that the log can tell a discard undone later (the URL found again and queued).
      await this.#query(
        `INSERT INTO ${this.schema}.crawl_log(url, final_url, state, status, depth, parent, anchor, title, relevance, priority, fetched_at, error, fp)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::float8[], $10::float8[], $11::text[], $12::text[], $13::bigint[])`,
        [col('url'), col('final_url'), col('state'), col('status'), col('depth'), col('parent'), col('anchor'), col('title'), col('relevance'), col('priority'), col('fetched_at'), col('error'), part.map((e) => fp(urlKey(e.url)))],
      );
    }
  }

  congested(): boolean {
    return this.#record.queued >= MAX_QUEUED;
  }

  /** Nothing to do: the group writer sends a batch as soon as the one before it is written (or after its delay). */
  handOver(): void {}

  async flush(): Promise<void> {
    await this.#record.flush();
  }

  // UrlJournal: the Redis frontier records what it admits.

  /** URLs admitted (waiting, or discarded with the reason): written in the next group batch, several pages' links in one statement. */
  added(reqs: CrawlRequest[], state: 'waiting' | 'discarded', reason: string | null): Promise<void> {
    if (!reqs.length) return Promise.resolve();
    return this.#record.write(reqs.map((admit) => ({ admit, state, reason })));
  }

  /** Raised URLs: in the next group batch, after the batch that admitted them. */
  raised(batch: CrawlRequest[]): Promise<void> {
    if (!batch.length) return Promise.resolve();
    return this.#record.write(batch.map((raise) => ({ raise })));
  }

  /**
   * Waiting URLs given new priorities by Frontier.rescore(), lower ones included (raised() only
   * ever raises). Not yet part of UrlJournal: without it a rebuild brings back the priorities the
   * URLs had before the last rescore.
   */
  async rescored(batch: { key: string; priority: number }[]): Promise<void> {
    await this.#record.flush(); // the rows it updates may still be queued
    const sorted = batch.map((r) => [keyToBigInt(r.key), r.priority] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (let i = 0; i < sorted.length; i += BULK) {
      const part = sorted.slice(i, i + BULK);
      await this.#query(
        `UPDATE ${this.schema}.urls AS u SET priority = t.pr FROM unnest($1::bigint[], $2::float8[]) AS t(f, pr) WHERE u.fp = t.f AND u.state = 0`,
        [part.map(([f]) => f.toString()), part.map(([, pr]) => pr)],
      );
    }
  }

  async retried(req: CrawlRequest): Promise<void> {
    await this.#record.flush(); // the URL's row may still be queued
    await this.#query(`UPDATE ${this.schema}.urls SET attempts = $2 WHERE fp = $1 AND state = 0`, [fp(req.key), req.attempts]);
  }

  // Reading.

  search(query: string, limit: number): Promise<SearchHit[]> {
    return this.reader().search(query, limit);
  }

  logEntries(): AsyncIterable<LogEntry> {
    return this.reader().logEntries();
  }

  async countRelevant(threshold: number): Promise<number> {
    const r = await this.#query(`SELECT count(*)::int AS n FROM ${this.schema}.pages WHERE relevance >= $1`, [threshold]);
    return (r.rows[0] as { n: number }).n;
  }

  /**
   * The URLs `rebuild` returns to the live frontier: every one not final (waiting, or leased by a
   * worker when Redis lost its data), with its carried state, read in batches by fingerprint.
   */
  async *openRows(): AsyncIterable<CrawlRequest> {
    let after: string | null = null;
    for (;;) {
      const r: pg.QueryResult = await this.#query(
        `SELECT fp::text AS fp, url, host, depth, parent::text AS parent, anchor, priority, data, attempts, kind FROM ${this.schema}.urls
         WHERE state < 2 ${after === null ? '' : 'AND fp > $2'} ORDER BY urls.fp LIMIT $1`,
        after === null ? [BULK] : [BULK, after],
      );
      for (const row of r.rows as { fp: string; url: string; host: string; depth: number; parent: string | null; anchor: string; priority: number; data: CrawlRequest['data']; attempts: number; kind: RequestKind | null }[]) {
        yield {
          key: bigIntToKey(BigInt(row.fp)), id: 0, url: row.url, host: row.host, depth: row.depth, parent: row.parent === null ? null : bigIntToKey(BigInt(row.parent)),
          anchor: row.anchor, priority: row.priority, data: row.data, attempts: row.attempts, ...requestKind(row.kind),
        };
      }
      if (r.rows.length < BULK) return;
      after = (r.rows[r.rows.length - 1] as { fp: string }).fp;
    }
  }

  /** Every final URL (done, error, discarded) with its host and reason, for `rebuild`'s seen set. */
  async *finalRows(): AsyncIterable<{ url: string; host: string; state: 'done' | 'error' | 'discarded'; reason: string | null }> {
    let after: string | null = null;
    const names = { 2: 'done', 3: 'error', 4: 'discarded' } as const;
    for (;;) {
      const r: pg.QueryResult = await this.#query(
        `SELECT fp::text AS fp, url, host, state, reason FROM ${this.schema}.urls WHERE state >= 2 ${after === null ? '' : 'AND fp > $2'} ORDER BY urls.fp LIMIT $1`,
        after === null ? [BULK] : [BULK, after],
      );
      for (const row of r.rows as { url: string; host: string; state: 2 | 3 | 4; reason: string | null }[]) yield { url: row.url, host: row.host, state: names[row.state], reason: row.reason };
      if (r.rows.length < BULK) return;
      after = (r.rows[r.rows.length - 1] as { fp: string }).fp;
    }
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.#thread?.close();
      await this.pool.end();
    }
  }
}
