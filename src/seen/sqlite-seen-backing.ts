import type Database from 'better-sqlite3';
import type { SqliteDb } from '../store/sqlite-db.js';
import { fingerprintToBigInt, type Fingerprint } from './fingerprint.js';
import type { LocalSeenBacking } from './layered-seen-set.js';

/**
 * The crawl database's `urls` table as the backing seen set (its UNIQUE fp index answers the
 * test). Rows are written by the writer thread after a delay, so fingerprints added since are
 * kept in memory until the writer has committed the batch that holds them.
 */
export class SqliteSeenBacking implements LocalSeenBacking {
  readonly #sql: SqliteDb;
  readonly #lookup: Database.Statement;
  /** Fingerprints not yet committed, by the flush number that will carry them. */
  readonly #pending = new Map<bigint, number>();

  constructor(sql: SqliteDb) {
    this.#sql = sql;
    this.#lookup = sql.db.prepare('SELECT 1 FROM urls WHERE fp = ?').pluck();
  }

  has(fp: Fingerprint): boolean {
    const v = fingerprintToBigInt(fp);
    this.#forgetCommitted();
    return this.#pending.has(v) || this.#lookup.get(v) !== undefined;
  }

  add(fp: Fingerprint): boolean {
    if (this.has(fp)) return false;
    this.#pending.set(fingerprintToBigInt(fp), this.#sql.nextFlushSeq);
    return true;
  }

  #forgetCommitted(): void {
    const committed = this.#sql.committedSeq;
    if (this.#pending.size === 0) return;
    for (const [v, seq] of this.#pending) {
      if (seq > committed) break; // insertion order is flush order
      this.#pending.delete(v);
    }
  }
}
