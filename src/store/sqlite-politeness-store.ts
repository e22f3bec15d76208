import type { HostPoliteness } from '../frontier/politeness-watch.js';
import type { PolitenessStore } from './politeness-store.js';
import type { SqliteDb, WriteStatement } from './sqlite-db.js';

/** The hosts' politeness table; created by the first crawl that records it, so older files read as "not recorded". */
export const SQLITE_HOST_POLITENESS = 'CREATE TABLE IF NOT EXISTS host_politeness (host TEXT PRIMARY KEY, delay_ms INTEGER NOT NULL, waited_ms INTEGER NOT NULL, next_at INTEGER NOT NULL, budget INTEGER)';

/** Politeness rows in the crawl database, through its writer (queued like the crawl's own writes). */
export class SqlitePolitenessStore implements PolitenessStore {
  readonly #db: SqliteDb;
  readonly #upsert: WriteStatement;
  readonly #budget: WriteStatement;

  constructor(db: SqliteDb) {
    this.#db = db;
    db.db.exec(SQLITE_HOST_POLITENESS);
    this.#upsert = db.prepareWrite(
      `INSERT INTO host_politeness(host, delay_ms, waited_ms, next_at, budget) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(host) DO UPDATE SET delay_ms = excluded.delay_ms, waited_ms = waited_ms + excluded.waited_ms,
         next_at = max(next_at, excluded.next_at), budget = excluded.budget`,
    );
    this.#budget = db.prepareWrite('UPDATE host_politeness SET budget = ?');
  }

  async setBudget(budget: number | null): Promise<void> {
    this.#db.write(this.#budget, [budget]);
  }

  async record(rows: HostPoliteness[]): Promise<void> {
    for (const r of rows) this.#db.write(this.#upsert, [r.host, r.delayMs, r.waitedMs, r.nextAt, r.budget]);
  }
}
