import Database from 'better-sqlite3';
import { FocusCrawlError } from '../errors.js';

type Db = Database.Database;

const SCHEMA_VERSION = 1;

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
  parent INTEGER,
  anchor TEXT NOT NULL,
  priority REAL NOT NULL,
  data TEXT,
  state INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  reason TEXT
);
CREATE INDEX IF NOT EXISTS urls_open ON urls(state) WHERE state < 2;
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
-- Full-text index over title and text, CJK runs pre-segmented (see space-cjk.ts); contentless,
-- since the text lives in pages.
CREATE VIRTUAL TABLE IF NOT EXISTS pages_fts USING fts5(title, text, content='', contentless_delete=1);
`;

/**
 * One SQLite database holding a whole crawl (frontier, crawl log, repository) and a write-behind
 * journal: every write is queued and flushed in one transaction, in the order it happened, so
 * the file always holds a state the crawl really passed through. A crash loses only the unflushed
 * tail, whose leases were still open and are fetched again on resume.
 */
export class SqliteDb {
  readonly db: Db;
  readonly path: string;
  #ops: Array<() => void> = [];
  readonly #flushTx: () => void;

  constructor(path: string, opts: { create: boolean }) {
    this.path = path;
    try {
      this.db = new Database(path, { fileMustExist: !opts.create });
    } catch (err) {
      throw new FocusCrawlError('IO', `cannot open crawl database ${path}: ${(err as Error).message}`, { cause: err });
    }
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('busy_timeout = 5000');
      this.db.exec(SCHEMA);
    } catch (err) {
      this.db.close();
      throw new FocusCrawlError('STORE', `${path} is not a usable focuscrawl database: ${(err as Error).message}`, { cause: err });
    }
    const version = this.getMeta('schema_version');
    if (version === null) this.setMetaNow('schema_version', String(SCHEMA_VERSION));
    else if (Number(version) !== SCHEMA_VERSION) {
      this.db.close();
      throw new FocusCrawlError('STORE', `${path} has schema version ${version}; this focuscrawl reads version ${SCHEMA_VERSION}`);
    }
    this.#flushTx = this.db.transaction(() => {
      const ops = this.#ops;
      this.#ops = [];
      for (const op of ops) op();
    });
  }

  /** Queues a write; it reaches the file at the next flush(). */
  enqueue(op: () => void): void {
    this.#ops.push(op);
  }

  get pending(): number {
    return this.#ops.length;
  }

  /** Writes every queued operation in one transaction. */
  flush(): void {
    if (this.#ops.length) this.#flushTx();
  }

  getMeta(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? row.value : null;
  }

  setMetaNow(key: string, value: string): void {
    this.db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  close(): void {
    this.flush();
    if (this.db.open) this.db.close();
  }
}
