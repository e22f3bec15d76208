import type { Topic } from '../relevance/topic.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

/**
 * Best-first (content-based): every link of page p gets priority rel(p), the cosine relevance of
 * its parent page to the topic. Seeds get 1, the highest relevance, since they are hand-picked.
 * A URL keeps the priority of the first page that linked to it.
 */
export class BestFirstStrategy implements Strategy {
  readonly name = 'best-first';
  readonly topic: Topic;
  constructor(topic: Topic) {
    this.topic = topic;
  }
  seed(): LinkDecision {
    return { priority: 1 };
  }
  scoreLinks(view: PageView, links: readonly unknown[]): LinkDecision[] {
    const d = { priority: view.relevance ?? 0 };
    return links.map(() => d);
  }
}
