import { z } from 'zod';
import type { Link } from '../types.js';
import { anchorScore } from '../relevance/link-scorers.js';
import type { Topic } from '../relevance/topic.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

/** Method A's parameters, with the source's experiment values as defaults. */
export const inheritRecoverOptions = z.strictObject({
  /** Relevance message value of seeds and of recovered channels. */
  m0: z.number().positive().default(100),
  /** Decay factor for links that are not relevant, 0 < b < 1. */
  b: z.number().gt(0).lt(1).default(0.8),
  /** Link relevance threshold f on the anchor-text cosine. */
  f: z.number().min(0).max(1).default(0.2),
});
export type InheritRecoverOptions = z.output<typeof inheritRecoverOptions>;

/**
 * Method A, inherited relevance with recovery (the "tunnelling" crawler). Each URL carries m, its
 * relevance message value, and r, the anchor-text cosine of the link that found it. For a link L
 * on page P: r(L) > f and m(P) = m0 inherits m0; r(L) > f and m(P) < m0 recovers to m0; r(L) <= f
 * decays to m(P) * b. So a path through an irrelevant page keeps a decaying priority, and the
 * first relevant link after it restores full priority.
 *
 * Order: m descending, ties by r descending, encoded as priority = 1000 * m + r (r is in [0, 1],
 * so the order is lexicographic while neighbouring m values differ by more than 0.001, that is
 * for the first 44 decays at the defaults: 100 * 0.8^k * 0.2 > 0.001 up to k = 44). Seeds: m0 and r = 1 (hand-picked, trusted without scoring).
 */
export class InheritRecoverStrategy implements Strategy {
  readonly name = 'inherit-recover';
  readonly topic: Topic;
  readonly options: InheritRecoverOptions;

  constructor(topic: Topic, options: Partial<InheritRecoverOptions> = {}) {
    this.topic = topic;
    this.options = inheritRecoverOptions.parse(options);
  }

  seed(): LinkDecision {
    const { m0 } = this.options;
    return { priority: 1000 * m0 + 1, data: { m: m0, r: 1 } };
  }

  scoreLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    const { m0, b, f } = this.options;
    const mP = typeof view.request.data?.m === 'number' ? view.request.data.m : m0;
    return links.map((l) => {
      const r = anchorScore(this.topic, l.anchor).score;
      // Cases 1 and 2 both give m0: inherit when m(P) = m0, recover when it is lower.
      const m = r > f ? m0 : mP * b;
      return { priority: 1000 * m + r, data: { m, r } };
    });
  }
}
