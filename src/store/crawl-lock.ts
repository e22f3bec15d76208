import { accessSync, constants, existsSync, realpathSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { FocusCrawlError } from '../errors.js';
import { checkOneName } from './db-files.js';

/** Who holds a crawl database, as written by the holder into the lock file. */
export interface LockHolder {
  pid: number;
  host: string;
  /** crawl, resume, group, demo, ... */
  command: string;
  /** ISO time the holder took the lock. */
  started: string;
}

/**
 * How long a writer waits for the lock before giving up. A reader's probe holds it for
 * microseconds, a running crawl for its whole life: this only absorbs probes, so a second writer
 * still fails at once for a human.
 */
const ACQUIRE_WAIT_MS = 250;

const SCHEMA = `CREATE TABLE IF NOT EXISTS holder (
  id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, host TEXT NOT NULL, command TEXT NOT NULL,
  started TEXT NOT NULL, token TEXT NOT NULL)`;

/**
 * The lock file beside the database file itself: a symbolic link to the database shares its lock
 * (SQLite follows the link for its own -wal too), so a second name cannot let in a second writer.
 */
export function lockPath(dbPath: string): string {
  let real = dbPath;
  try {
    real = realpathSync(dbPath);
  } catch {
    /* not created yet */
  }
  return `${real}-lock`;
}

const isBusy = (err: unknown) => /^SQLITE_BUSY/.test((err as { code?: string }).code ?? '');

function readHolder(db: Database.Database): (LockHolder & { token: string }) | null {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'holder'").get();
  if (!hasTable) return null;
  return (db.prepare('SELECT pid, host, command, started, token FROM holder WHERE id = 1').get() as (LockHolder & { token: string }) | undefined) ?? null;
}

/** "crawl (pid 1234 on host, since 2025-01-01T10:00:00Z)": how messages name a holder; null when unknown. */
export function describeHolder(h: LockHolder | null): string {
  if (!h) return 'process';
  return `${h.command} (pid ${h.pid} on ${h.host}, since ${h.started})`;
}

function heldError(dbPath: string, h: LockHolder | null): FocusCrawlError {
  return new FocusCrawlError(
    'STORE',
    `${dbPath} is in use by a running ${describeHolder(h)}: one crawl process per database; wait for it to end or stop it (status, search and export work meanwhile)`,
  );
}

/**
 * The exclusive hold a crawl process has on its database: a write transaction (SQLite RESERVED
 * lock, an fcntl lock underneath) on a companion file `<db>-lock`, kept open for the crawl's life.
 * The operating system drops the lock when the process ends, however it ends, so a SIGKILL never
 * leaves a stale lock. The holder's pid, host, command and start time are committed in that file
 * before the hold begins; a RESERVED lock still lets others read them. docs/architecture.md has
 * the reasons for this design.
 */
export class CrawlLock {
  readonly path: string;
  readonly holder: LockHolder;
  #db: Database.Database | null;
  /** True when this lock created the lock file (a failed first crawl removes it again). */
  readonly created: boolean;

  private constructor(path: string, db: Database.Database, holder: LockHolder, created: boolean) {
    this.path = path;
    this.#db = db;
    this.holder = holder;
    this.created = created;
  }

  /**
   * Takes the lock of the database at `dbPath`, or throws a STORE error naming the process that
   * holds it. `command` is what readers are told is running.
   */
  static acquire(dbPath: string, command: string): CrawlLock {
    checkOneName(dbPath);
    const path = lockPath(dbPath);
    const created = !existsSync(path);
    let db: Database.Database;
    try {
      db = new Database(path);
    } catch (err) {
      throw new FocusCrawlError('IO', `cannot create the lock file ${path}: ${(err as Error).message}`, { cause: err });
    }
    const me = { pid: process.pid, host: hostname(), command, started: new Date().toISOString(), token: randomBytes(8).toString('hex') };
    try {
      db.pragma(`busy_timeout = ${ACQUIRE_WAIT_MS}`);
      db.exec(SCHEMA);
      // Our details must be committed to be readable, and committing ends the transaction that
      // holds the lock. So: take it, publish, take it again, and check that nobody slipped in
      // between (a process that did now fails to take it and exits; we publish again).
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          db.exec('BEGIN IMMEDIATE');
        } catch (err) {
          if (!isBusy(err)) throw err;
          const h = readHolder(db);
          db.close();
          throw heldError(dbPath, h && h.token !== me.token ? h : null);
        }
        if (readHolder(db)?.token === me.token) {
          const { token: _t, ...holder } = me;
          return new CrawlLock(path, db, holder, created);
        }
        db.prepare('INSERT OR REPLACE INTO holder(id, pid, host, command, started, token) VALUES (1, ?, ?, ?, ?, ?)').run(me.pid, me.host, me.command, me.started, me.token);
        db.exec('COMMIT');
      }
      db.close();
      throw heldError(dbPath, null);
    } catch (err) {
      if (db.open) db.close();
      if (err instanceof FocusCrawlError) throw err;
      if (isBusy(err)) throw heldError(dbPath, null);
      throw new FocusCrawlError('IO', `cannot use the lock file ${path}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Ends the hold. `removeFile` deletes the lock file too (only safe while nobody else can want it). */
  release(removeFile = false): void {
    const db = this.#db;
    if (!db) return;
    this.#db = null;
    // The holder's row goes with the hold: a reader that cannot probe the lock goes by it
    // (probeLock), and a library caller's process lives on after its crawl ended.
    try {
      db.prepare('DELETE FROM holder WHERE id = 1').run();
      db.exec('COMMIT');
    } catch {
      // Closing ends the hold all the same.
    }
    if (removeFile) rmSync(this.path, { force: true });
    db.close();
  }
}

/**
 * Whether a process holds the crawl database at `dbPath`: null when none does, else the holder
 * (null inside when its details cannot be read). Probes the lock without waiting and never
 * creates the lock file. A reader without write access to the lock (another user, a read-only
 * mount) cannot probe it: it goes by the holder the lock names, running while that process is
 * alive on this host (it took a live crawl for an interrupted one, and searched without its
 * newest pages in silence).
 */
export function probeLock(dbPath: string): { holder: LockHolder | null } | null {
  const path = lockPath(dbPath);
  if (!existsSync(path)) return null;
  // SQLite opens a file it may not write read-only without saying so, and its BEGIN IMMEDIATE then succeeds: no probe.
  if (!writable(path)) return holderAlive(path);
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: true });
  } catch {
    return holderAlive(path);
  }
  try {
    db.pragma('busy_timeout = 0');
    try {
      db.exec('BEGIN IMMEDIATE');
      db.exec('ROLLBACK');
      return null;
    } catch (err) {
      if (!isBusy(err)) {
        db.close();
        return holderAlive(path);
      }
    }
    db.pragma(`busy_timeout = ${ACQUIRE_WAIT_MS}`);
    let h: ReturnType<typeof readHolder> = null;
    try {
      h = readHolder(db);
    } catch {
      /* held, by a process whose details cannot be read */
    }
    return { holder: h ? { pid: h.pid, host: h.host, command: h.command, started: h.started } : null };
  } catch {
    return null;
  } finally {
    db.close();
  }
}

/** The lock's holder as it names itself, when that process runs on this host; else null (none, or one that cannot be told). */
function holderAlive(path: string): { holder: LockHolder } | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { fileMustExist: true, readonly: true });
    db.pragma('busy_timeout = 1000');
    const h = readHolder(db);
    if (!h || h.host !== hostname() || !processAlive(h.pid)) return null;
    return { holder: { pid: h.pid, host: h.host, command: h.command, started: h.started } };
  } catch {
    return null;
  } finally {
    db?.close();
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Throws the "in use" error when a crawl holds the database (for commands that are about to write). */
export function assertNotRunning(dbPath: string): void {
  const p = probeLock(dbPath);
  if (p) throw heldError(dbPath, p.holder);
}
