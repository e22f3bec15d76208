import { z } from 'zod';
import type { Link } from '../types.js';
import { anchorScore } from '../relevance/link-scorers.js';
import type { Topic } from '../relevance/topic.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

export const twoStepOptions = z.strictObject({
  /** Weight of the page's own relevance against its out-link pages' mean. */
  alpha: z.number().min(0).max(1).default(0.7),
  /** Out-links fetched as a look-ahead batch after each regular page. */
  lookahead: z.number().int().min(1).max(50).default(5),
});
export type TwoStepOptions = z.output<typeof twoStepOptions>;

/** Look-ahead priorities sit in a band above every ordinary priority (which are in [0, 1]). */
const LOOKAHEAD_BAND = 10;

/**
 * score(u) = alpha * rel(u) + (1 - alpha) * mean(rel(v) for v in out(u)), with the noise rules:
 * when most (two thirds or more) of the out-link pages are relevant, the very low ones (below
 * half the threshold) are dropped from the mean; when none is highly relevant (twice the
 * threshold or more), the out-link term is ignored and score(u) = rel(u).
 */
export function twoStepScore(rel: number, children: readonly number[], threshold: number, alpha = 0.7): number {
  if (!children.some((r) => r >= 2 * threshold)) return rel;
  let used = children;
  if (children.filter((r) => r >= threshold).length >= (2 / 3) * children.length) used = children.filter((r) => r >= threshold / 2);
  const mean = used.reduce((s, r) => s + r, 0) / used.length;
  return alpha * rel + (1 - alpha) * mean;
}

interface Parent {
  rel: number;
  children: number[];
}

/**
 * Method C, two-step VSM with out-link look-ahead. Our reading of the unspecified look-ahead
 * (docs/strategies.md): after a regular page u is fetched, its `lookahead` best-anchored links are
 * fetched next as a batch (a priority band above all others; every look-ahead fetch counts in the
 * budget); u's other links get rel(u). Each look-ahead page v reports rel(v) to u, and v's links
 * (u's grandchildren) get score(u) from u's children fetched so far.
 * The per-parent table lives in memory: a resumed crawl treats waiting look-ahead pages as regular.
 */
export class TwoStepStrategy implements Strategy {
  readonly name = 'two-step';
  readonly topic: Topic;
  readonly options: TwoStepOptions;
  readonly #parents = new Map<number, Parent>();

  constructor(topic: Topic, options: Partial<TwoStepOptions> = {}) {
    this.topic = topic;
    this.options = twoStepOptions.parse(options);
  }

  seed(): LinkDecision {
    return { priority: 1 };
  }

  scoreLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    const rel = view.relevance ?? 0;
    const parentId = view.request.data?.lookaheadOf;
    const parent = typeof parentId === 'number' ? this.#parents.get(parentId) : undefined;
    if (parent) {
      // A look-ahead page: it tells its parent its relevance; its links are the grandchildren.
      parent.children.push(rel);
      const score = twoStepScore(parent.rel, parent.children, this.topic.threshold, this.options.alpha);
      return links.map(() => ({ priority: score }));
    }
    // A regular page: its best-anchored links become the look-ahead batch.
    this.#parents.set(view.request.id, { rel, children: [] });
    const ranked = links.map((l, i) => ({ i, a: anchorScore(this.topic, l.anchor).score })).sort((x, y) => y.a - x.a || x.i - y.i);
    const batch = new Set(ranked.slice(0, this.options.lookahead).map((r) => r.i));
    return links.map((_l, i) =>
      batch.has(i) ? { priority: LOOKAHEAD_BAND + rel, data: { lookaheadOf: view.request.id } } : { priority: rel },
    );
  }
}
