/** A URL's state in the frontier, as the discovery tree reports it. */
export type DiscoveredState = 'waiting' | 'fetching' | 'done' | 'error' | 'discarded';

/** A URL of the discovery tree: the page it was first found on (null for a seed), the anchor of that link, its state. */
export interface DiscoveredUrl {
  url: string;
  parent: string | null;
  anchor: string;
  state: DiscoveredState;
}

/** A stored HTML page with its text and the links found on it, as [url, anchor]. */
export interface StoredText {
  url: string;
  host: string;
  title: string | null;
  text: string;
  outlinks: [string, string][];
}

/**
 * The crawl as a graph, for the readers that compute over all of it (the group crawler's anchor
 * paths, page names, dead ends and ranking), on every backend: the group crawler holds no SQL.
 */
export interface CrawlGraphReader {
  /** Every URL the crawl has seen, each after the page it was found on (seeds first). */
  discoveryTree(): Promise<DiscoveredUrl[]>;
  /** Stored pages below status 400 that kept their text, in the discovery tree's order. */
  storedTexts(): Promise<StoredText[]>;
}

/** State codes of the urls tables (SQLite and PostgreSQL alike; PostgreSQL's leases live in Redis). */
export const STATE_NAMES: readonly DiscoveredState[] = ['waiting', 'fetching', 'done', 'error', 'discarded'];

/**
 * Rows of a discovery tree put parents first, for a backend whose rows have no discovery order
 * (PostgreSQL's urls are keyed by fingerprint): a URL whose parent is unknown counts as a root.
 */
export function parentsFirst<T extends { key: string; parent: string | null }>(rows: readonly T[]): T[] {
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const children = new Map<string, T[]>();
  const roots: T[] = [];
  for (const r of rows) {
    if (r.parent !== null && byKey.has(r.parent) && r.parent !== r.key) (children.get(r.parent) ?? children.set(r.parent, []).get(r.parent)!).push(r);
    else roots.push(r);
  }
  const out: T[] = [];
  const stack = [...roots].reverse();
  const seen = new Set<string>();
  while (stack.length) {
    const r = stack.pop()!;
    if (seen.has(r.key)) continue;
    seen.add(r.key);
    out.push(r);
    const kids = children.get(r.key);
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  // A cycle (impossible for a discovery tree, but not worth losing rows over) is appended as is.
  if (out.length < rows.length) for (const r of rows) if (!seen.has(r.key)) out.push(r);
  return out;
}
