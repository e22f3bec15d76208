import type Database from 'better-sqlite3';
import { parseStored } from './stored-json.js';
import { STATE_NAMES, type CrawlGraphReader, type DiscoveredUrl, type StoredText } from './crawl-graph-reader.js';

/** The embedded repository as a graph: URL ids follow discovery, so id order puts parents first. */
export class SqliteCrawlGraphReader implements CrawlGraphReader {
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  async discoveryTree(): Promise<DiscoveredUrl[]> {
    const rows = this.#db
      .prepare('SELECT u.url, pu.url AS parent, u.anchor, u.state FROM urls u LEFT JOIN urls pu ON pu.fp = u.parent ORDER BY u.id')
      .all() as { url: string; parent: string | null; anchor: string; state: number }[];
    return rows.map((r) => ({ url: r.url, parent: r.parent, anchor: r.anchor, state: STATE_NAMES[r.state] ?? 'error' }));
  }

  async storedTexts(): Promise<StoredText[]> {
    const rows = this.#db
      .prepare(`SELECT p.url, u.host, p.title, p.text, p.outlinks FROM pages p JOIN urls u ON u.id = p.url_id
                WHERE p.status < 400 AND p.text IS NOT NULL ORDER BY p.url_id`)
      .all() as { url: string; host: string; title: string | null; text: string; outlinks: string | null }[];
    return rows.map((r) => ({ url: r.url, host: r.host, title: r.title, text: r.text, outlinks: outlinkPairs(r.outlinks) }));
  }
}

/** The stored outlinks ([url, anchor] or [url, anchor, 1] for nofollow) as [url, anchor]. */
export function outlinkPairs(json: string | null | unknown[]): [string, string][] {
  const list = (typeof json === 'string' ? parseStored(json, 'outlinks', 'the crawl database') : (json ?? [])) as [string, string, number?][];
  return list.map(([url, anchor]) => [url, anchor]);
}
