import { existsSync } from 'node:fs';
import { FocusCrawlError } from '../errors.js';
import { SqliteDb } from '../store/sqlite-db.js';

/** Opens a crawl database for reading commands; a missing file is a usage error naming it. */
export function openExistingDb(path: string): SqliteDb {
  if (!existsSync(path)) throw new FocusCrawlError('IO', `no crawl database at ${path}`);
  return new SqliteDb(path, { create: false });
}
