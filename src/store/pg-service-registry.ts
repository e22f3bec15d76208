import type pg from 'pg';
import { pgQuery, RETRY_DELAYS_MS } from './pg-connect.js';
import type { ServiceEntry, ServiceRegistry } from '../services/service-registry.js';
import type { ServiceLayer, ServiceRecord, ServiceStatus, ServiceType } from '../services/service-record.js';

/** A services row as node-postgres returns it: the record's fields (jsonb already parsed), snake_case where the columns are. */
type Row = Omit<ServiceRecord, 'probedUrl' | 'checkedAt'> & { probed_url: string; checked_at: string; found_on: string[] | null };

/** The service registry of a shared crawl (tables `services` and `service_sources` of its schema). */
export class PgServiceRegistry implements ServiceRegistry {
  readonly #pool: pg.Pool;
  readonly #s: string;
  readonly #delays: readonly number[];

  /** `delays`: waits before retrying a statement that lost its connection (see pgQuery). */
  constructor(pool: pg.Pool, schema: string, delays: readonly number[] = RETRY_DELAYS_MS) {
    this.#pool = pool;
    this.#s = schema;
    this.#delays = delays;
  }

  #query(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    return pgQuery(this.#pool, sql, params, this.#delays);
  }

  async save(r: ServiceRecord): Promise<void> {
    await this.#query(
      `INSERT INTO ${this.#s}.services(endpoint, type, status, reason, version, versions, title, abstract, keywords, provider, layers, conformance, probed_url, checked_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9::jsonb, $10, $11::jsonb, $12::jsonb, $13, $14)
       ON CONFLICT (endpoint, type) DO UPDATE SET status = excluded.status, reason = excluded.reason, version = excluded.version, versions = excluded.versions,
         title = excluded.title, abstract = excluded.abstract, keywords = excluded.keywords, provider = excluded.provider, layers = excluded.layers,
         conformance = excluded.conformance, probed_url = excluded.probed_url, checked_at = excluded.checked_at`,
      [r.endpoint, r.type, r.status, r.reason, r.version, JSON.stringify(r.versions), r.title, r.abstract, JSON.stringify(r.keywords), r.provider,
        JSON.stringify(r.layers), JSON.stringify(r.conformance), r.probedUrl, r.checkedAt],
    );
  }

  async setConformance(endpoint: string, type: ServiceType, classes: string[]): Promise<void> {
    await this.#query(`UPDATE ${this.#s}.services SET conformance = $1::jsonb WHERE endpoint = $2 AND type = $3`, [JSON.stringify(classes), endpoint, type]);
  }

  async invalidate(endpoint: string, type: ServiceType, reason: string): Promise<void> {
    await this.#query(`UPDATE ${this.#s}.services SET status = 'invalid', reason = $1 WHERE endpoint = $2 AND type = $3`, [reason, endpoint, type]);
  }

  async setLayers(endpoint: string, type: ServiceType, layers: ServiceLayer[]): Promise<void> {
    await this.#query(`UPDATE ${this.#s}.services SET layers = $1::jsonb WHERE endpoint = $2 AND type = $3`, [JSON.stringify(layers), endpoint, type]);
  }

  /** Appends in one statement, leaving out names already listed (a `next` link back to a page under another URL). */
  async addLayers(endpoint: string, type: ServiceType, layers: ServiceLayer[]): Promise<void> {
    await this.#query(
      // The old names by a subquery on the parameters (a hashed subplan, read once), not one
      // correlated with each new layer: linear in the layers, as in SqliteServiceRegistry.
      `UPDATE ${this.#s}.services SET layers = layers || coalesce((SELECT jsonb_agg(n.value ORDER BY n.ord) FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS n(value, ord)
         WHERE n.value->>'name' IS NULL OR n.value->>'name' NOT IN (
           SELECT o->>'name' FROM ${this.#s}.services AS s, jsonb_array_elements(s.layers) AS o
           WHERE s.endpoint = $2 AND s.type = $3 AND o->>'name' IS NOT NULL)), '[]'::jsonb)
       WHERE endpoint = $2 AND type = $3`,
      [JSON.stringify(layers), endpoint, type],
    );
  }

  async moveSources(endpoint: string, from: ServiceType, to: ServiceType): Promise<void> {
    await this.#query(
      `WITH moved AS (DELETE FROM ${this.#s}.service_sources WHERE endpoint = $1 AND type = $2 RETURNING page)
       INSERT INTO ${this.#s}.service_sources(endpoint, type, page) SELECT $1, $3, page FROM moved ON CONFLICT DO NOTHING`,
      [endpoint, from, to],
    );
  }

  async addSource(endpoint: string, type: ServiceType, page: string): Promise<void> {
    await this.#query(`INSERT INTO ${this.#s}.service_sources(endpoint, type, page) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [endpoint, type, page]);
  }

  async entries(limit?: number): Promise<ServiceEntry[]> {
    const r = await this.#query(
      `SELECT s.*, (SELECT array_agg(page ORDER BY page) FROM ${this.#s}.service_sources x WHERE x.endpoint = s.endpoint AND x.type = s.type) AS found_on
       FROM ${this.#s}.services s ORDER BY CASE s.status WHEN 'valid' THEN 0 WHEN 'exception' THEN 1 ELSE 2 END, s.type, s.endpoint LIMIT $1`,
      [limit ?? null],
    );
    return (r.rows as Row[]).map((x) => ({
      endpoint: x.endpoint, type: x.type, status: x.status, reason: x.reason, version: x.version, versions: x.versions, title: x.title, abstract: x.abstract,
      keywords: x.keywords, provider: x.provider, layers: x.layers, conformance: x.conformance, probedUrl: x.probed_url, checkedAt: x.checked_at, foundOn: x.found_on ?? [],
    }));
  }

  async counts(): Promise<Record<ServiceStatus, number>> {
    const out: Record<ServiceStatus, number> = { valid: 0, exception: 0, invalid: 0 };
    const r = await this.#query(`SELECT status, count(*)::int AS n FROM ${this.#s}.services GROUP BY status`);
    for (const x of r.rows as { status: ServiceStatus; n: number }[]) out[x.status] = x.n;
    return out;
  }
}
