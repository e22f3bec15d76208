import type { Topic } from '../relevance/topic.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

/**
 * The thesis's topical crawler (method E's engine): a one-step VSM crawler that processes the
 * links of a page only when the page's relevance reaches the topic's threshold, and accepts
 * missing a few pages for precision. Links of a relevant page get its relevance as priority
 * (best-first among the pages that passed); the links of a page below the threshold are
 * discarded, counted as "discarded by strategy threshold".
 *
 * Reading for seed pages (the thesis is silent): seeds come from a configuration file, so they
 * are trusted as in methods A and B. A seed page below the threshold still has its links
 * followed, at its relevance; without this a portal's home page with no topic word ends the
 * crawl after one page.
 *
 * Method C's source compares against a one-step VSM crawler that "does not follow the links of
 * pages below the threshold": this is that crawler too.
 */
export class ThresholdStrategy implements Strategy {
  readonly name = 'threshold';
  readonly topic: Topic;

  constructor(topic: Topic) {
    this.topic = topic;
  }

  seed(): LinkDecision {
    return { priority: 1 };
  }

  scoreLinks(view: PageView, links: readonly unknown[]): (LinkDecision | null)[] {
    const rel = view.relevance ?? 0;
    const d = rel >= this.topic.threshold || view.request.depth === 0 ? { priority: rel } : null;
    return links.map(() => d);
  }
}
