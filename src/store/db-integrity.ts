import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { FocusCrawlError } from '../errors.js';

/** SQLite's result codes for a file whose pages are damaged, or that is not a database at all. */
export function isCorruptionError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** The one-line error for a damaged crawl database: what happened and what to do. */
export function damagedError(path: string, detail: string): FocusCrawlError {
  return new FocusCrawlError(
    'STORE',
    `${path} is damaged (${detail.split('\n')[0]}) and was left unchanged: restore it from a backup, or crawl again into a new --db`,
  );
}

/** Turns SQLite's corruption errors into damagedError; other errors pass through. */
export function explainCorruption(path: string, err: unknown): unknown {
  if (!isCorruptionError(err)) return err;
  if ((err as { code: string }).code === 'SQLITE_NOTADB') {
    return new FocusCrawlError('STORE', `${path} is not a usable focuscrawl database: ${(err as Error).message}`, { cause: err });
  }
  return damagedError(path, (err as Error).message);
}

/** A folder where a database file is expected: SQLite's own error for it is a bare "disk I/O error". */
export function checkNotFolder(path: string): void {
  let folder = false;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    /* missing: the caller says so, or creates it */
  }
  if (folder) throw new FocusCrawlError('IO', `${path} is a folder, not a crawl database file: pass a file with --db`);
}

/**
 * Checks the file before anything reads or writes it: SQLite's quick_check (every page's
 * structure, but not that indexes match their tables) on a read-only connection, so that a damaged
 * file is reported in one line and never written to. It reads the whole file once: 0.36 s for a
 * 620 MB file in the page cache (docs/architecture.md).
 */
export function checkIntact(path: string): void {
  checkNotFolder(path);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw explainCorruption(path, err);
  }
  try {
    const result = db.pragma('quick_check(1)', { simple: true }) as string;
    if (result !== 'ok') throw damagedError(path, result.replace(/^\*\*\* in database main \*\*\*\n/, ''));
  } catch (err) {
    throw explainCorruption(path, err);
  } finally {
    db.close();
  }
}
