import { existsSync } from 'node:fs';
import { FocusCrawlError } from '../errors.js';
import { describeHolder, probeLock, type LockHolder } from './crawl-lock.js';
import { checkIntact } from './db-integrity.js';
import { checkDbFile, unwritableReason } from './db-files.js';
import { SqliteDb } from './sqlite-db.js';

export interface ExistingDb {
  db: SqliteDb;
  /** Set when a crawl process holds the database: it is then open read-only. */
  running: { holder: LockHolder | null } | null;
}

/**
 * Opens a crawl database for the reading commands (status, search, export, services). A missing
 * file is an error naming it, a damaged one is reported before anything reads it, and while a
 * crawl holds the database it is opened read-only.
 */
export function openExistingDb(path: string): ExistingDb {
  if (!existsSync(path)) throw new FocusCrawlError('IO', `no crawl database at ${path}`);
  checkDbFile(path, { existing: true });
  const running = probeLock(path);
  // Read-only also where the file or its folder cannot be written (a read-only mount): reading needs no write.
  const readonly = running !== null || unwritableReason(path) !== null;
  checkIntact(path, { mayWrite: !readonly });
  return { db: new SqliteDb(path, { create: false, readonly }), running };
}


/** "a crawl (pid ...) is running on db": what the reading commands say during a crawl. */
export function runningLine(path: string, running: ExistingDb['running']): string | null {
  return running ? `a ${describeHolder(running.holder)} is running on ${path}` : null;
}
