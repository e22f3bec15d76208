import type { Page } from '../types.js';
import { positionTerms, weightedTerms, type PositionTerms } from '../text/position-terms.js';
import { explainedCosine, type Scored } from './scored.js';
import type { Topic } from './topic.js';

/**
 * Position-weighted VSM relevance (method C, step 1): tf_i = sum over positions of
 * w_position * count, rel(p) = cos(tf vector of p, T). The page vector holds every term of the
 * page, so a long page that mentions a keyword once scores low.
 */
export function vsmScore(topic: Topic, terms: PositionTerms): Scored {
  return explainedCosine(weightedTerms(terms, topic.positions), topic.vector);
}

/** rel(p) of a parsed page under the topic: the relevance the crawl records and best-first uses. */
export function pageRelevance(topic: Topic, page: Pick<Page, 'url' | 'title' | 'headings' | 'text' | 'links'>): number {
  return vsmScore(topic, positionTerms(page, topic.tokenizeOptions)).score;
}
