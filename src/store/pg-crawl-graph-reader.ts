import type pg from 'pg';
import { parentsFirst, STATE_NAMES, type CrawlGraphReader, type DiscoveredUrl, type StoredText } from './crawl-graph-reader.js';
import { outlinkPairs } from './sqlite-crawl-graph-reader.js';

/**
 * A shared crawl's PostgreSQL schema as a graph. Its urls are keyed by fingerprint, with no
 * discovery order, so the tree is ordered here (parents first); pages follow that order.
 */
export class PgCrawlGraphReader implements CrawlGraphReader {
  readonly #pool: pg.Pool;
  readonly #s: string;

  constructor(pool: pg.Pool, schema: string) {
    this.#pool = pool;
    this.#s = schema;
  }

  async discoveryTree(): Promise<DiscoveredUrl[]> {
    const r = await this.#pool.query(`SELECT fp::text AS key, parent::text AS parent, url, anchor, state FROM ${this.#s}.urls`);
    const rows = r.rows as { key: string; parent: string | null; url: string; anchor: string; state: number }[];
    const urlOf = new Map(rows.map((x) => [x.key, x.url]));
    return parentsFirst(rows).map((x) => ({ url: x.url, parent: x.parent === null ? null : (urlOf.get(x.parent) ?? null), anchor: x.anchor, state: STATE_NAMES[x.state] ?? 'error' }));
  }

  async storedTexts(): Promise<StoredText[]> {
    const r = await this.#pool.query(
      `SELECT p.fp::text AS key, p.url, u.host, p.title, p.text, p.outlinks FROM ${this.#s}.pages p JOIN ${this.#s}.urls u ON u.fp = p.fp
       WHERE p.status < 400 AND p.text IS NOT NULL`,
    );
    const rows = r.rows as { key: string; url: string; host: string; title: string | null; text: string; outlinks: unknown[] | null }[];
    const order = new Map((await this.discoveryTree()).map((d, i) => [d.url, i]));
    return rows
      .sort((a, b) => (order.get(a.url) ?? Infinity) - (order.get(b.url) ?? Infinity) || a.url.localeCompare(b.url))
      .map((x) => ({ url: x.url, host: x.host, title: x.title, text: x.text, outlinks: outlinkPairs(x.outlinks) }));
  }
}
