import type pg from 'pg';
import type { LabelStore } from './label-store.js';

export const pgLabelsTable = (schema: string) =>
  `CREATE TABLE IF NOT EXISTS ${schema}.labels (url text PRIMARY KEY, relevant boolean NOT NULL, labelled_at text NOT NULL)`;

/** Labels of a shared crawl, in its PostgreSQL schema (created on the first label). */
export class PgLabelStore implements LabelStore {
  readonly #pool: pg.Pool;
  readonly #s: string;

  constructor(pool: pg.Pool, schema: string) {
    this.#pool = pool;
    this.#s = schema;
  }

  async label(url: string, relevant: boolean): Promise<void> {
    await this.#pool.query(pgLabelsTable(this.#s));
    await this.#pool.query(
      `INSERT INTO ${this.#s}.labels(url, relevant, labelled_at) VALUES ($1, $2, $3) ON CONFLICT (url) DO UPDATE SET relevant = excluded.relevant, labelled_at = excluded.labelled_at`,
      [url, relevant, new Date().toISOString()],
    );
  }

  /** The pool belongs to the reader it was opened with. */
  async close(): Promise<void> {}
}
