import type Database from 'better-sqlite3';
import { indexForm } from '../text/cjk-bigrams.js';

/**
 * SQL functions every connection to a crawl database registers. They are used by the writes
 * focuscrawl itself makes; the file stays readable (and searchable) by any SQLite client.
 */
export function registerFunctions(db: Database.Database): void {
  db.function('cjk_bigrams', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? indexForm(text) : text));
}
