import type { ServiceEntry, ServiceRegistry } from '../services/service-registry.js';
import { parseStored } from './stored-json.js';
import type { ServiceLayer, ServiceRecord, ServiceStatus, ServiceType } from '../services/service-record.js';
import type { SqliteDb, WriteStatement } from './sqlite-db.js';

interface Row {
  endpoint: string;
  type: ServiceType;
  status: ServiceStatus;
  reason: string | null;
  version: string | null;
  versions: string;
  title: string | null;
  abstract: string | null;
  keywords: string;
  provider: string | null;
  layers: string;
  conformance: string;
  probed_url: string;
  checked_at: string;
  found_on: string | null;
}

/** The service registry in the crawl database (tables `services` and `service_sources`). */
export class SqliteServiceRegistry implements ServiceRegistry {
  readonly #sql: SqliteDb;
  readonly #upsert: WriteStatement;
  readonly #conformance: WriteStatement;
  readonly #layers: WriteStatement;
  readonly #invalidate: WriteStatement;
  readonly #source: WriteStatement;
  readonly #addLayers: WriteStatement;
  readonly #copySources: WriteStatement;
  readonly #dropSources: WriteStatement;

  constructor(sql: SqliteDb) {
    this.#sql = sql;
    this.#upsert = sql.prepareWrite(`INSERT INTO services(endpoint, type, status, reason, version, versions, title, abstract, keywords,
      provider, layers, conformance, probed_url, checked_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)
      ON CONFLICT(endpoint, type) DO UPDATE SET status=excluded.status, reason=excluded.reason, version=excluded.version,
        versions=excluded.versions, title=excluded.title, abstract=excluded.abstract, keywords=excluded.keywords,
        provider=excluded.provider, layers=excluded.layers, conformance=excluded.conformance,
        probed_url=excluded.probed_url, checked_at=excluded.checked_at`);
    this.#conformance = sql.prepareWrite('UPDATE services SET conformance = ? WHERE endpoint = ? AND type = ?');
    this.#invalidate = sql.prepareWrite("UPDATE services SET status = 'invalid', reason = ? WHERE endpoint = ? AND type = ?");
    this.#layers = sql.prepareWrite('UPDATE services SET layers = ? WHERE endpoint = ? AND type = ?');
    this.#source = sql.prepareWrite('INSERT OR IGNORE INTO service_sources(endpoint, type, page) VALUES (?,?,?)');
    // The new layers after the old, in order, leaving out names already listed (a `next` link
    // that leads back to a page under another URL). The writer's queue may hold the earlier
    // page's update, so the append is done in SQL rather than read, changed and written back here.
    // The old names come from a subquery on the parameters, not on the row being updated: SQLite
    // then reads them once into an index, where a correlated one was read again for every new
    // layer (20 pages of 1,000 collections did not finish in two minutes). Unnamed layers are
    // always added, and never block a name.
    this.#addLayers = sql.prepareWrite(`UPDATE services SET layers = (SELECT json_group_array(json(value)) FROM (
        SELECT 0 AS part, key, value FROM json_each(services.layers)
        UNION ALL SELECT 1, key, value FROM json_each(?) AS n
          WHERE json_extract(n.value, '$.name') IS NULL OR json_extract(n.value, '$.name') NOT IN (
            SELECT json_extract(o.value, '$.name') FROM services AS s, json_each(s.layers) AS o
            WHERE s.endpoint = ? AND s.type = ? AND json_extract(o.value, '$.name') IS NOT NULL)
        ORDER BY part, key))
      WHERE endpoint = ? AND type = ?`);
    this.#copySources = sql.prepareWrite('INSERT OR IGNORE INTO service_sources(endpoint, type, page) SELECT endpoint, ?, page FROM service_sources WHERE endpoint = ? AND type = ?');
    this.#dropSources = sql.prepareWrite('DELETE FROM service_sources WHERE endpoint = ? AND type = ?');
  }

  async save(r: ServiceRecord): Promise<void> {
    this.#sql.write(this.#upsert, [
      r.endpoint, r.type, r.status, r.reason, r.version, JSON.stringify(r.versions), r.title, r.abstract, JSON.stringify(r.keywords),
      r.provider, JSON.stringify(r.layers), JSON.stringify(r.conformance), r.probedUrl, r.checkedAt,
    ]);
  }

  async setConformance(endpoint: string, type: ServiceType, classes: string[]): Promise<void> {
    this.#sql.write(this.#conformance, [JSON.stringify(classes), endpoint, type]);
  }

  async invalidate(endpoint: string, type: ServiceType, reason: string): Promise<void> {
    this.#sql.write(this.#invalidate, [reason, endpoint, type]);
  }

  async setLayers(endpoint: string, type: ServiceType, layers: ServiceLayer[]): Promise<void> {
    this.#sql.write(this.#layers, [JSON.stringify(layers), endpoint, type]);
  }

  async addLayers(endpoint: string, type: ServiceType, layers: ServiceLayer[]): Promise<void> {
    this.#sql.write(this.#addLayers, [JSON.stringify(layers), endpoint, type, endpoint, type]);
  }

  async moveSources(endpoint: string, from: ServiceType, to: ServiceType): Promise<void> {
    this.#sql.write(this.#copySources, [to, endpoint, from]);
    this.#sql.write(this.#dropSources, [endpoint, from]);
  }

  async addSource(endpoint: string, type: ServiceType, page: string): Promise<void> {
    this.#sql.write(this.#source, [endpoint, type, page]);
  }

  async entries(limit?: number): Promise<ServiceEntry[]> {
    await this.#sql.settle();
    const rows = this.#sql.db
      .prepare(
        `SELECT s.*, (SELECT json_group_array(page) FROM (SELECT page FROM service_sources x
            WHERE x.endpoint = s.endpoint AND x.type = s.type ORDER BY page)) AS found_on
         FROM services s ORDER BY CASE s.status WHEN 'valid' THEN 0 WHEN 'exception' THEN 1 ELSE 2 END, s.type, s.endpoint LIMIT ?`,
      )
      .all(limit ?? -1) as Row[];
    const json = <T>(v: string, column: string): T => parseStored<T>(v, () => `${column} of a service`, this.#sql.path);
    return rows.map((r) => ({
      endpoint: r.endpoint,
      type: r.type,
      status: r.status,
      reason: r.reason,
      version: r.version,
      versions: json<string[]>(r.versions, 'versions'),
      title: r.title,
      abstract: r.abstract,
      keywords: json<string[]>(r.keywords, 'keywords'),
      provider: r.provider,
      layers: json<ServiceRecord['layers']>(r.layers, 'layers'),
      conformance: json<string[]>(r.conformance, 'conformance'),
      probedUrl: r.probed_url,
      checkedAt: r.checked_at,
      foundOn: json<string[]>(r.found_on ?? '[]', 'found_on'),
    }));
  }

  async counts(): Promise<Record<ServiceStatus, number>> {
    await this.#sql.settle();
    const out: Record<ServiceStatus, number> = { valid: 0, exception: 0, invalid: 0 };
    for (const r of this.#sql.db.prepare('SELECT status, count(*) AS n FROM services GROUP BY status').all() as { status: ServiceStatus; n: number }[]) {
      out[r.status] = r.n;
    }
    return out;
  }
}
