import { z } from 'zod';
import type { Link } from '../types.js';
import { anchorScore, contextScore } from '../relevance/link-scorers.js';
import type { Topic } from '../relevance/topic.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

export const sharkOptions = z.strictObject({
  /** Decay of inherited scores per link (fish-search's d). */
  d: z.number().gt(0).lt(1).default(0.5),
  /** Weight of the anchor text against its context in the neighbourhood score. */
  beta: z.number().min(0).max(1).default(0.8),
  /** Weight of the inherited score against the neighbourhood score. */
  gamma: z.number().min(0).max(1).default(0.8),
  /** Characters of text on each side of a link that form its anchor context. */
  context: z.number().int().min(0).default(100),
});
export type SharkOptions = z.output<typeof sharkOptions>;

/**
 * Shark-search (Hersovici et al. 1998), with the paper's defaults d = 0.5, beta = gamma = 0.8.
 * For a child c of page p, with sim the cosine relevance to the topic:
 *   inherited(c)    = d * sim(p) if sim(p) > 0, else d * inherited(p)
 *   anchor          = sim(anchor text of the link)
 *   anchor_context  = 1 if anchor > 0, else sim(text around the link)
 *   neighbourhood   = beta * anchor + (1 - beta) * anchor_context
 *   potential(c)    = gamma * inherited(c) + (1 - gamma) * neighbourhood
 * The priority is the potential score. Seeds carry inherited = 1. sim is focuscrawl's cosine
 * (the paper allows any similarity in [0, 1]).
 */
export class SharkStrategy implements Strategy {
  readonly name = 'shark';
  readonly topic: Topic;
  readonly options: SharkOptions;
  readonly linkContext: number;

  constructor(topic: Topic, options: Partial<SharkOptions> = {}) {
    this.topic = topic;
    this.options = sharkOptions.parse(options);
    this.linkContext = this.options.context;
  }

  seed(): LinkDecision {
    return { priority: 1, data: { inherited: 1 } };
  }

  scoreLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    const { d, beta, gamma } = this.options;
    const simP = view.relevance ?? 0;
    const inheritedP = typeof view.request.data?.inherited === 'number' ? view.request.data.inherited : 0;
    const inherited = simP > 0 ? d * simP : d * inheritedP;
    return links.map((l) => {
      const anchor = anchorScore(this.topic, l.anchor).score;
      const context = anchor > 0 ? 1 : contextScore(this.topic, l.context ?? '').score;
      const potential = gamma * inherited + (1 - gamma) * (beta * anchor + (1 - beta) * context);
      return { priority: potential, data: { inherited } };
    });
  }
}
