import type { Topic } from '../relevance/topic.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

/**
 * Breadth-first: priority = -depth, ties in discovery order. The baseline every source compares
 * against. Politeness can let a deeper URL of an idle host go before a shallower one of a busy host.
 */
export class BfsStrategy implements Strategy {
  readonly name = 'bfs';
  readonly topic: Topic | null;
  constructor(topic: Topic | null) {
    this.topic = topic;
  }
  seed(): LinkDecision {
    return { priority: 0 };
  }
  scoreLinks(view: PageView, links: readonly unknown[]): LinkDecision[] {
    const d = { priority: -(view.request.depth + 1) };
    return links.map(() => d);
  }
}
