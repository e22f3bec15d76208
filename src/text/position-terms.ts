import type { Page } from '../types.js';
import { termCounts, tokenize, urlTokens, type TokenizeOptions } from './tokenize.js';

/** Where a term occurs on a page. */
export const POSITIONS = ['title', 'headings', 'anchor', 'body', 'url'] as const;
export type Position = (typeof POSITIONS)[number];

/** Term frequencies per position. `body` is all visible text, so it includes headings and anchors. */
export type PositionTerms = Record<Position, Map<string, number>>;

function counts(words: string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
  return tf;
}

/** Term frequencies of a page by position. `anchor` is the text of the page's own links. */
export function positionTerms(page: Pick<Page, 'url' | 'title' | 'headings' | 'text' | 'links'>, opts: TokenizeOptions = {}): PositionTerms {
  return {
    title: termCounts(page.title, opts),
    headings: termCounts(page.headings, opts),
    anchor: counts(page.links.flatMap((l) => tokenize(l.anchor, opts))),
    body: termCounts(page.text, opts),
    url: counts(urlTokens(page.url, opts)),
  };
}

/** tf_i = sum over positions of w_position * count_i,position (method C). */
export function weightedTerms(terms: PositionTerms, weights: Record<Position, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const pos of POSITIONS) {
    const w = weights[pos];
    if (!w) continue;
    for (const [t, n] of terms[pos]) out.set(t, (out.get(t) ?? 0) + w * n);
  }
  return out;
}
