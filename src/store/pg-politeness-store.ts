import type pg from 'pg';
import type { HostPoliteness } from '../frontier/politeness-watch.js';
import type { PolitenessStore } from './politeness-store.js';
import { pgQuery, RETRY_DELAYS_MS } from './pg-connect.js';

export const pgHostPolitenessTable = (schema: string) =>
  `CREATE TABLE IF NOT EXISTS ${schema}.host_politeness (host text PRIMARY KEY, delay_ms integer NOT NULL, waited_ms bigint NOT NULL, next_at bigint NOT NULL, budget integer)`;

/** A shared crawl's politeness rows, in its schema (pgSchemaSql makes the table): every worker adds its waits to the same row. */
export class PgPolitenessStore implements PolitenessStore {
  readonly #pool: pg.Pool;
  readonly #s: string;

  readonly #delays: readonly number[];

  /** `delays`: the waits before each new attempt after a lost connection (PgStore's). */
  constructor(pool: pg.Pool, schema: string, delays: readonly number[] = RETRY_DELAYS_MS) {
    this.#pool = pool;
    this.#s = schema;
    this.#delays = delays;
  }

  async setBudget(budget: number | null): Promise<void> {
    // pgQuery tries again after a lost connection, and after a deadlock with another worker's upsert.
    await pgQuery(this.#pool, `UPDATE ${this.#s}.host_politeness SET budget = $1 WHERE budget IS DISTINCT FROM $1`, [budget], this.#delays);
  }

  async record(rows: HostPoliteness[]): Promise<void> {
    if (!rows.length) return;
    // One statement for the batch; sorted so that two workers lock shared rows in the same order.
    // Tried again after a lost connection: should the lost attempt have committed, its waits
    // count twice in waited_ms, a figure for readers, which is worth less than the worker.
    const sorted = [...rows].sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
    await pgQuery(
      this.#pool,
      `INSERT INTO ${this.#s}.host_politeness AS t (host, delay_ms, waited_ms, next_at, budget)
       SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::bigint[], $5::int[])
       ON CONFLICT (host) DO UPDATE SET delay_ms = excluded.delay_ms, waited_ms = t.waited_ms + excluded.waited_ms,
         next_at = greatest(t.next_at, excluded.next_at), budget = excluded.budget`,
      [sorted.map((r) => r.host), sorted.map((r) => r.delayMs), sorted.map((r) => r.waitedMs), sorted.map((r) => r.nextAt), sorted.map((r) => r.budget)],
      this.#delays,
    );
  }
}
