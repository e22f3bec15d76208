import type Database from 'better-sqlite3';
import { termCounts, type TokenizeOptions } from '../text/tokenize.js';

/** How an anchor path is written in output: the anchor texts from the root, in order. */
export const PATH_SEPARATOR = ' > ';

/** Text pipeline for anchors and pages of the group crawler: stemmed English, CJK bigrams. */
export const GROUP_TOKENS: TokenizeOptions = { stem: true, cjk: 'bigrams' };

/**
 * The anchor path of every URL the crawl has seen: the anchor texts of the links from its site
 * root down to it, along the discovery tree the frontier records (each URL's parent is the page
 * it was first found on). A root's path is empty.
 */
export function anchorPaths(db: Database.Database): Map<number, string[]> {
  const rows = db.prepare('SELECT u.id, pu.id AS parent, u.anchor FROM urls u LEFT JOIN urls pu ON pu.fp = u.parent ORDER BY u.id').all() as { id: number; parent: number | null; anchor: string }[];
  const paths = new Map<number, string[]>();
  // Parents have smaller ids than their children (ids are assigned in discovery order).
  for (const r of rows) {
    const up = r.parent === null ? null : paths.get(r.parent);
    paths.set(r.id, up ? [...up, r.anchor] : r.parent === null ? [] : [r.anchor]);
  }
  return paths;
}

/** The bag of terms of an anchor path (every step's anchor text). */
export function pathTerms(path: readonly string[]): Map<string, number> {
  return termCounts(path.join(' \n '), GROUP_TOKENS);
}
