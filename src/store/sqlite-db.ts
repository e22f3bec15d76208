import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { FocusCrawlError } from '../errors.js';
import { explainCorruption } from './db-integrity.js';
import { unwritableReason } from './db-files.js';
import type { WriterInit, WriterMessage, WriterReply } from './sqlite-writer.js';
import { registerFunctions } from './sql-functions.js';
import { indexForm } from '../text/cjk-bigrams.js';
import { hasTraditional } from '../text/fold-chinese.js';

type Db = Database.Database;

/**
 * 2 added urls.probe and the service registry; 3 the fts_pending queue; 4 urls.parent holds the
 * parent's fingerprint (every backend knows URLs by key), not its row id; 5 urls.probe may hold
 * {"redirected": n}, a page queued by redirects across hosts, which a version 4 reader would take
 * for a service probe (nothing to convert: the number tells such readers to refuse the file);
 * 6 the full-text index reads traditional Chinese as simplified (fold-chinese.ts), so the pages
 * that have traditional characters are indexed again.
 * Older files are upgraded on open (the new tables are created by SCHEMA itself).
 */
const SCHEMA_VERSION = 6;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- The frontier: every URL the crawl has seen, in one state:
-- 0 waiting, 1 fetching (leased), 2 done, 3 error, 4 discarded.
CREATE TABLE IF NOT EXISTS urls (
  id INTEGER PRIMARY KEY,
  fp INTEGER NOT NULL UNIQUE,
  url TEXT NOT NULL,
  host TEXT NOT NULL,
  depth INTEGER NOT NULL,
  -- The fingerprint (fp) of the page that discovered the URL; null for seeds.
  parent INTEGER,
  anchor TEXT NOT NULL,
  priority REAL NOT NULL,
  data TEXT,
  state INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  reason TEXT,
  -- A service probe (JSON {type, endpoint, step}), a sitemap file (JSON {"sitemap": {site, level}}), a page queued by
  -- n redirects across hosts (JSON {"redirected": n}), or null for a page found as a link (request-kind.ts).
  probe TEXT
);
CREATE INDEX IF NOT EXISTS urls_open ON urls(state) WHERE state < 2;
-- A host's best waiting URLs, read back when the frontier holds only part of them in memory.
CREATE INDEX IF NOT EXISTS urls_waiting ON urls(host, priority DESC, id) WHERE state = 0;
-- The crawl log: one row per URL that reached a final state, in that order.
CREATE TABLE IF NOT EXISTS crawl_log (
  seq INTEGER PRIMARY KEY,
  url_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  final_url TEXT,
  state TEXT NOT NULL,
  status INTEGER,
  depth INTEGER NOT NULL,
  parent TEXT,
  anchor TEXT NOT NULL,
  title TEXT,
  relevance REAL,
  priority REAL NOT NULL,
  fetched_at TEXT,
  error TEXT
);
-- The repository: one row per fetched URL, written again (not duplicated) if it is fetched again.
CREATE TABLE IF NOT EXISTS pages (
  url_id INTEGER PRIMARY KEY,
  url TEXT NOT NULL,
  final_url TEXT NOT NULL,
  status INTEGER NOT NULL,
  content_type TEXT NOT NULL,
  headers TEXT NOT NULL,
  redirects TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  fetch_ms REAL NOT NULL,
  bytes INTEGER NOT NULL,
  encoding TEXT,
  title TEXT,
  text TEXT,
  canonical TEXT,
  relevance REAL,
  noindex INTEGER NOT NULL DEFAULT 0,
  outlinks TEXT
);
-- Full-text index over title and text, CJK runs as bigrams (see cjk-bigrams.ts); contentless,
-- since the text lives in pages.
-- The service registry: one row per (endpoint, type) probed, and every page that linked to it.
CREATE TABLE IF NOT EXISTS services (
  endpoint TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  version TEXT,
  versions TEXT NOT NULL,
  title TEXT,
  abstract TEXT,
  keywords TEXT NOT NULL,
  provider TEXT,
  layers TEXT NOT NULL,
  conformance TEXT NOT NULL,
  probed_url TEXT NOT NULL,
  checked_at TEXT NOT NULL,
  PRIMARY KEY (endpoint, type)
);
CREATE TABLE IF NOT EXISTS service_sources (
  endpoint TEXT NOT NULL,
  type TEXT NOT NULL,
  page TEXT NOT NULL,
  PRIMARY KEY (endpoint, type, page)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS pages_fts USING fts5(title, text, content='', contentless_delete=1);
-- Pages stored but not yet in pages_fts: the index is brought up to date in batches (see
-- SqliteStore), which costs FTS5 far less than one small segment per transaction.
CREATE TABLE IF NOT EXISTS fts_pending (url_id INTEGER PRIMARY KEY);
`;

/** A write statement registered with SqliteDb.prepareWrite(). */
export interface WriteStatement {
  readonly id: number;
  readonly sql: string;
}

export interface SqliteDbOptions {
  /** Create the file if missing (crawl) or insist that it exists (resume, status, search). */
  create: boolean;
  /**
   * Where journal batches are written: 'thread', a writer thread with its own connection (the
   * crawl's choice: the writes use the second core), or 'inline', on this thread (default).
   */
  writer?: 'thread' | 'inline';
  /**
   * Open read-only: no schema creation or upgrade, no writes (status, search and export while a
   * crawl holds the database).
   */
  readonly?: boolean;
}

/**
 * Batches handed to the writer thread and not yet committed before `congested` asks producers to
 * wait. The writer commits about every 250 ms and the crawl flushes about every 25 ms, so a
 * healthy backlog is around 10; 40 means the disk or FTS5 is not keeping up.
 */
const MAX_BACKLOG = 40;
/**
 * The same limit in bytes of parameters (strings counted at 2 bytes a character): a fast crawl
 * makes larger batches, and 40 of them once exceeded the writer thread's 96 MB heap (measured in
 * bench/throughput at 2,300 pages/s). Queued batches live in that heap until committed.
 */
const MAX_BACKLOG_BYTES = 24 * 1024 * 1024;

/**
 * One SQLite database holding a whole crawl (frontier, crawl log, repository) and a write-behind
 * journal: every write is queued as data (statement id and parameters) and a flush writes the
 * queue in one transaction, batches in the order they were flushed. The file therefore always
 * holds a state the crawl really passed through; a crash loses only the unwritten tail, whose
 * leases were still open and are fetched again on resume.
 */
export class SqliteDb {
  readonly db: Db;
  readonly path: string;
  #ops: [number, unknown[]][] = [];
  readonly #writes: WriteStatement[] = [];
  readonly #inline: Database.Statement[] = [];
  readonly #worker: Worker | null = null;
  #seq = 0;
  #acked = 0;
  /** Approximate bytes of the queued writes, and of each flushed batch not yet committed. */
  #pendingBytes = 0;
  #unacked: { seq: number; bytes: number }[] = [];
  #unackedBytes = 0;
  #failure: Error | null = null;
  #waiters: { seq: number; resolve: () => void }[] = [];
  #closed = false;
  #workerGone = false;
  readonly readonly: boolean;

  constructor(path: string, opts: SqliteDbOptions) {
    this.path = path;
    this.readonly = opts.readonly === true;
    // Said at once, naming the file, rather than as SQLite's "attempt to write a readonly database" at the first write.
    const unwritable = this.readonly ? null : unwritableReason(path);
    if (unwritable) throw new FocusCrawlError('IO', `cannot write crawl database ${path}: ${unwritable}`);
    try {
      this.db = new Database(path, { fileMustExist: !opts.create || this.readonly, readonly: this.readonly });
    } catch (err) {
      const e = explainCorruption(path, err);
      if (e !== err) throw e;
      throw new FocusCrawlError('IO', `cannot open crawl database ${path}: ${(err as Error).message}`, { cause: err });
    }
    try {
      this.#setUp();
    } catch (err) {
      this.db.close();
      throw err;
    }
    if (opts.writer === 'thread' && !this.readonly) {
      this.#worker = new Worker(new URL('./sqlite-writer.js', import.meta.url), {
        workerData: { path } satisfies WriterInit,
        // A bounded heap makes V8 collect the writer's garbage (page texts, bigram strings) early
        // instead of letting the process grow. It must hold the queued batches (MAX_BACKLOG, MAX_BACKLOG_BYTES):
        // 32 MB ran out of memory in bench/throughput, 96 MB did not. An 8 MB young generation (was 32)
        // measured a few MB less peak RSS at the same speed.
        resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 },
      });
      this.#worker.on('message', (m: WriterReply) => this.#onReply(m));
      this.#worker.on('error', (err) => this.#fail(err));
      // A writer thread that ends on its own (out of memory, a crash) must fail the waits on it,
      // not leave them hanging.
      this.#worker.on('exit', (code) => {
        this.#workerGone = true;
        if (!this.#closed) this.#fail(new Error(`the writer thread stopped (exit code ${code})`));
      });
    }
  }

  #setUp(): void {
    const usable = (err: unknown) => {
      const e = explainCorruption(this.path, err);
      return e !== err ? e : new FocusCrawlError('STORE', `${this.path} is not a usable focuscrawl database: ${(err as Error).message}`, { cause: err });
    };
    try {
      this.db.pragma('busy_timeout = 5000');
      registerFunctions(this.db);
      if (!this.readonly) {
        this.db.pragma('journal_mode = WAL');
        this.db.pragma('synchronous = NORMAL');
        // One transaction with the version of a new file: a crawl killed while it made the file
        // leaves all of the schema or none (table by table, a kill left a file of some tables,
        // refused as another program's).
        this.db.transaction(() => {
          this.db.exec(SCHEMA);
          if (this.getMeta('schema_version') === null) this.setMetaNow('schema_version', String(SCHEMA_VERSION));
        })();
      }
    } catch (err) {
      throw usable(err);
    }
    let version: string | null;
    try {
      version = this.getMeta('schema_version');
    } catch (err) {
      throw usable(err);
    }
    if (this.readonly && Number(version) !== SCHEMA_VERSION) {
      throw new FocusCrawlError('STORE', `${this.path} has schema version ${version ?? 'none'} and cannot be upgraded while a crawl holds it; try again when it has ended`);
    } else if (Number(version) >= 1 && Number(version) < SCHEMA_VERSION) this.#upgrade(Number(version));
    else if (Number(version) !== SCHEMA_VERSION) {
      throw new FocusCrawlError('STORE', `${this.path} has schema version ${version}; this focuscrawl reads version ${SCHEMA_VERSION}`);
    }
  }

  #upgrade(from: number): void {
    const cols = this.db.prepare("SELECT name FROM pragma_table_info('urls')").pluck().all() as string[];
    this.db.transaction(() => {
      if (from < 2 && !cols.includes('probe')) this.db.exec('ALTER TABLE urls ADD COLUMN probe TEXT');
      if (from < 4) this.db.exec('UPDATE urls SET parent = (SELECT p.fp FROM urls p WHERE p.id = urls.parent) WHERE parent IS NOT NULL');
      if (from < 6) this.#refoldIndex();
      this.setMetaNow('schema_version', String(SCHEMA_VERSION));
    })();
  }

  /**
   * Indexes again the pages whose title or text has traditional Chinese, which an older index
   * holds as written (a search for 网络 would miss them, and one for 網路 is now asked as 网络).
   * Pages still queued for the index are indexed in the new form when their turn comes.
   */
  #refoldIndex(): void {
    const pending = new Set(this.db.prepare('SELECT url_id FROM fts_pending').pluck().all() as number[]);
    const batch = this.db.prepare('SELECT url_id AS id, title, text FROM pages WHERE url_id > ? AND noindex = 0 ORDER BY url_id LIMIT 1000');
    const drop = this.db.prepare('DELETE FROM pages_fts WHERE rowid = ?');
    const add = this.db.prepare('INSERT INTO pages_fts(rowid, title, text) VALUES (?, ?, ?)');
    for (let after = -1; ; ) {
      const rows = batch.all(after) as { id: number; title: string | null; text: string | null }[];
      if (!rows.length) return;
      after = rows[rows.length - 1]!.id;
      for (const r of rows) {
        if (pending.has(r.id) || !(hasTraditional(r.title ?? '') || hasTraditional(r.text ?? ''))) continue;
        drop.run(r.id);
        add.run(r.id, indexForm(r.title ?? ''), indexForm(r.text ?? ''));
      }
    }
  }

  /** Registers a write statement; use it with write(). */
  prepareWrite(sql: string): WriteStatement {
    const stmt = { id: this.#writes.length, sql };
    this.#writes.push(stmt);
    if (this.#worker) this.#worker.postMessage({ type: 'prepare', id: stmt.id, sql } satisfies WriterMessage);
    else this.#inline[stmt.id] = this.db.prepare(sql);
    return stmt;
  }

  /** Queues a write; it reaches the file at a later flush(). Parameters must be cloneable. */
  write(stmt: WriteStatement, params: unknown[]): void {
    this.#ops.push([stmt.id, params]);
    let bytes = 16;
    for (const p of params) bytes += typeof p === 'string' ? 2 * p.length : 8;
    this.#pendingBytes += bytes;
  }

  /** True when flush() commits at once on this thread (no writer thread). */
  get inline(): boolean {
    return this.#worker === null;
  }

  /** Writes queued and not yet flushed. */
  get pending(): number {
    return this.#ops.length;
  }

  /** The number the next flush will have: writes queued now are committed once committedSeq reaches it. */
  get nextFlushSeq(): number {
    return this.#seq + 1;
  }

  /** Every flush up to this number is committed (inline writes commit at the flush itself). */
  get committedSeq(): number {
    return this.#acked;
  }

  /** Flushed batches the writer thread has not committed yet. */
  get backlog(): number {
    return this.#seq - this.#acked;
  }

  /**
   * Hands the queued writes over as one transaction: committed here (inline) or by the writer
   * thread. Throws if an earlier batch failed.
   */
  flush(): void {
    if (this.#failure) throw this.#failure;
    if (!this.#ops.length) return;
    const ops = this.#ops;
    const bytes = this.#pendingBytes;
    this.#ops = [];
    this.#pendingBytes = 0;
    if (!this.#worker) {
      try {
        this.#runInline(ops);
      } catch (err) {
        // As the writer thread does: nothing after a failed batch is written (they build on it).
        this.#fail(err as Error);
        throw this.#failure;
      }
      this.#acked = ++this.#seq; // committed already
      return;
    }
    this.#worker.postMessage({ type: 'batch', seq: ++this.#seq, ops } satisfies WriterMessage);
    this.#unacked.push({ seq: this.#seq, bytes });
    this.#unackedBytes += bytes;
  }

  /** True when the writer is so far behind that the producer should wait (see settle()). */
  get congested(): boolean {
    return this.backlog >= MAX_BACKLOG || this.#unackedBytes >= MAX_BACKLOG_BYTES;
  }

  /** Flushes and waits until everything flushed so far is committed. */
  async settle(): Promise<void> {
    this.flush();
    const target = this.#seq;
    if (this.#acked >= target) return;
    this.#worker?.postMessage({ type: 'sync' } satisfies WriterMessage);
    await new Promise<void>((resolve) => this.#waiters.push({ seq: target, resolve }));
    if (this.#failure) throw this.#failure;
  }

  #runInline(ops: [number, unknown[]][]): void {
    this.db.transaction(() => {
      for (const [id, params] of ops) this.#inline[id]!.run(params);
    })();
  }

  #onReply(m: WriterReply): void {
    if (m.type === 'failed') this.#fail(new Error(m.message));
    if (m.type === 'done' || m.type === 'failed') this.#acked = Math.max(this.#acked, m.seq);
    while (this.#unacked.length && this.#unacked[0]!.seq <= this.#acked) this.#unackedBytes -= this.#unacked.shift()!.bytes;
    this.#waiters = this.#waiters.filter((w) => {
      if (w.seq > this.#acked && !this.#failure) return true;
      w.resolve();
      return false;
    });
  }

  #fail(err: Error): void {
    this.#failure ??= new FocusCrawlError('STORE', `writing to ${this.path} failed: ${err.message}`, { cause: err });
    this.#acked = this.#seq;
    for (const w of this.#waiters) w.resolve();
    this.#waiters = [];
  }

  /** The write failure that ended this database's use, if any. */
  get failure(): Error | null {
    return this.#failure;
  }

  getMeta(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? row.value : null;
  }

  setMetaNow(key: string, value: string): void {
    if (this.readonly) throw new FocusCrawlError('STORE', `${this.path} is open read-only`);
    this.db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** Writes everything queued, stops the writer thread and closes the file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.settle();
    } finally {
      if (this.#worker && !this.#workerGone) {
        const w = this.#worker;
        await new Promise<void>((resolve) => {
          w.on('message', (m: WriterReply) => m.type === 'closed' && resolve());
          w.on('exit', () => resolve());
          w.postMessage({ type: 'close' } satisfies WriterMessage);
        });
        await w.terminate();
      }
      if (this.db.open) this.db.close();
    }
  }
}
