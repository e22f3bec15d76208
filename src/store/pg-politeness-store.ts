import type pg from 'pg';
import type { HostPoliteness } from '../frontier/politeness-watch.js';
import type { PolitenessStore } from './politeness-store.js';

export const pgHostPolitenessTable = (schema: string) =>
  `CREATE TABLE IF NOT EXISTS ${schema}.host_politeness (host text PRIMARY KEY, delay_ms integer NOT NULL, waited_ms bigint NOT NULL, next_at bigint NOT NULL, budget integer)`;

/** A shared crawl's politeness rows, in its schema (pgSchemaSql makes the table): every worker adds its waits to the same row. */
export class PgPolitenessStore implements PolitenessStore {
  readonly #pool: pg.Pool;
  readonly #s: string;

  constructor(pool: pg.Pool, schema: string) {
    this.#pool = pool;
    this.#s = schema;
  }

  async setBudget(budget: number | null): Promise<void> {
    // Another worker's upsert locks rows in host order: a deadlock ends one side, which tries again.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#pool.query(`UPDATE ${this.#s}.host_politeness SET budget = $1 WHERE budget IS DISTINCT FROM $1`, [budget]);
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== '40P01' || attempt >= 3) throw err;
      }
    }
  }

  async record(rows: HostPoliteness[]): Promise<void> {
    if (!rows.length) return;
    // One statement for the batch; sorted so that two workers lock shared rows in the same order.
    const sorted = [...rows].sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
    await this.#pool.query(
      `INSERT INTO ${this.#s}.host_politeness AS t (host, delay_ms, waited_ms, next_at, budget)
       SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::bigint[], $5::int[])
       ON CONFLICT (host) DO UPDATE SET delay_ms = excluded.delay_ms, waited_ms = t.waited_ms + excluded.waited_ms,
         next_at = greatest(t.next_at, excluded.next_at), budget = excluded.budget`,
      [sorted.map((r) => r.host), sorted.map((r) => r.delayMs), sorted.map((r) => r.waitedMs), sorted.map((r) => r.nextAt), sorted.map((r) => r.budget)],
    );
  }
}
