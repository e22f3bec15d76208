import type { Link } from '../types.js';
import { pageTerms } from '../group/page-vectors.js';
import { cosineOf, type TfIdfSpace } from '../relevance/tfidf-space.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

/** k-nearest-neighbours relevance over positive examples: the mean of the k best cosines. */
export class KnnClassifier {
  readonly k: number;
  readonly #space: TfIdfSpace;
  readonly #examples: ReturnType<TfIdfSpace['vector']>[];

  constructor(space: TfIdfSpace, examples: Map<string, number>[], k = 3) {
    this.k = k;
    this.#space = space;
    this.#examples = examples.map((e) => space.vector(e));
  }

  score(terms: ReadonlyMap<string, number>): number {
    const v = this.#space.vector(terms);
    const sims = this.#examples.map((e) => cosineOf(v, e)).sort((a, b) => b - a);
    const top = sims.slice(0, Math.min(this.k, sims.length));
    return top.length ? top.reduce((a, b) => a + b, 0) / top.length : 0;
  }
}

/**
 * The baseline of method D's source ("FC"): a classic focused crawler whose classifier is
 * k-nearest-neighbours over the same few example pages. Every link of a page gets the page's
 * classifier score (Chakrabarti's soft focus); roots come first; nothing is discarded.
 */
export class KnnFocusedStrategy implements Strategy {
  readonly name = 'knn-focused';
  readonly topic = null;
  readonly #classifier: KnnClassifier;

  constructor(classifier: KnnClassifier) {
    this.#classifier = classifier;
  }

  seed(): LinkDecision {
    return { priority: 2 };
  }

  scoreLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    const priority = this.#classifier.score(pageTerms(view.page.title, view.page.text));
    return links.map(() => ({ priority }));
  }
}
