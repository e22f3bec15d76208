import type { DiscoveredUrl } from '../store/crawl-graph-reader.js';
import { termCounts, type TokenizeOptions } from '../text/tokenize.js';

/** How an anchor path is written in output: the anchor texts from the root, in order. */
export const PATH_SEPARATOR = ' > ';

/** Text pipeline for anchors and pages of the group crawler: stemmed English, CJK bigrams. */
export const GROUP_TOKENS: TokenizeOptions = { stem: true, cjk: 'bigrams' };

/**
 * The anchor path of every URL the crawl has seen: the anchor texts of the links from its site
 * root down to it, along the discovery tree (each URL's parent is the page it was first found
 * on; parents come before their children). A root's path is empty.
 */
export function anchorPaths(tree: readonly DiscoveredUrl[]): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  for (const r of tree) {
    const up = r.parent === null ? null : paths.get(r.parent);
    paths.set(r.url, up ? [...up, r.anchor] : r.parent === null ? [] : [r.anchor]);
  }
  return paths;
}

/** The bag of terms of an anchor path (every step's anchor text). */
export function pathTerms(path: readonly string[]): Map<string, number> {
  return termCounts(path.join(' \n '), GROUP_TOKENS);
}
