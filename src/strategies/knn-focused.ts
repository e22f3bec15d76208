import type { Link } from '../types.js';
import { pageTerms } from '../group/page-vectors.js';
import { cosineOf, TfIdfSpace } from '../relevance/tfidf-space.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

type Vec = ReturnType<TfIdfSpace['vector']>;

/**
 * k-nearest-neighbours relevance over positive examples: the mean of the k best cosines, with
 * k = min(3, examples - 1), so that a page and an example left out of the examples are scored
 * alike. The TF-IDF space grows with every page it is shown (observe): three examples alone say
 * nothing of which words are common. Example vectors are recomputed as the space grows.
 */
export class KnnClassifier {
  readonly k: number;
  readonly #space: TfIdfSpace;
  readonly #terms: Map<string, number>[];
  #examples: Vec[] = [];
  #observedAt = -1;
  #observed = 0;

  constructor(space: TfIdfSpace, examples: Map<string, number>[], k = 3) {
    this.k = Math.max(1, Math.min(k, examples.length - 1));
    this.#space = space;
    this.#terms = examples;
  }

  /** Adds a page to the space's document frequencies. */
  observe(terms: ReadonlyMap<string, number>): void {
    this.#space.observe(terms);
    this.#observed++;
  }

  #vectors(): Vec[] {
    // Recomputed when the space grew by a tenth (or at first use), not for every page.
    if (this.#observedAt < 0 || this.#observed - this.#observedAt > Math.max(10, this.#observedAt / 10)) {
      this.#examples = this.#terms.map((e) => this.#space.vector(e));
      this.#observedAt = this.#observed;
    }
    return this.#examples;
  }

  #knn(v: Vec, skip = -1): number {
    const sims = this.#vectors().flatMap((e, i) => (i === skip ? [] : [cosineOf(v, e)])).sort((a, b) => b - a);
    const top = sims.slice(0, Math.min(this.k, sims.length));
    return top.length ? top.reduce((a, b) => a + b, 0) / top.length : 0;
  }

  score(terms: ReadonlyMap<string, number>): number {
    return this.#knn(this.#space.vector(terms));
  }

  /** How alike the examples are: the mean over examples of each one's score against the others. */
  coherence(): number {
    const vs = this.#vectors();
    if (vs.length < 2) return 1;
    return vs.reduce((a, v, i) => a + this.#knn(v, i), 0) / vs.length;
  }
}

/** FC's decision per page: relevant when its kNN score reaches `relevance` times the examples' coherence. */
export const FC_DEFAULTS = { relevance: 0.25 } as const;

export interface FcJudgement {
  score: number;
  relevant: boolean;
}

/**
 * The baseline of method D's source ("FC"): a classic focused crawler. Its k-nearest-neighbours
 * classifier over the example pages decides, per fetched page, whether the page is relevant,
 * and only the links of relevant pages are followed (best-first by the page's score); the links
 * of an irrelevant page are discarded. It therefore stops by itself once no relevant page is
 * left to expand, usually well before its page budget.
 *
 * Reading chosen where the source is silent: a page is relevant when its kNN score reaches
 * `relevance` (0.25, chosen on the tuning data of docs/benchmarks.md) times how alike the examples are to each other (KnnClassifier.coherence),
 * so the decision follows the examples' own scale instead of an absolute threshold. Seeds (the
 * site roots, and the examples, relevant by definition) are trusted: a root's links are followed
 * even when the root is judged irrelevant, since otherwise a site whose home page does not look
 * like the examples could never be entered. A URL discarded from an irrelevant page is queued
 * when a relevant page links it later (frontier.ts isRevivable).
 */
export class KnnFocusedStrategy implements Strategy {
  readonly name = 'knn-focused';
  readonly topic = null;
  readonly #classifier: KnnClassifier;
  readonly #relevance: number;
  /** Every page judged, by URL: what FC returns as targets are the pages it judged relevant. */
  readonly judged = new Map<string, FcJudgement>();
  readonly #examples: Set<string>;

  constructor(classifier: KnnClassifier, examples: Iterable<string>, relevance: number = FC_DEFAULTS.relevance) {
    this.#classifier = classifier;
    this.#examples = new Set(examples);
    this.#relevance = relevance;
  }

  seed(): LinkDecision {
    return { priority: 2 };
  }

  /** The score a page must reach to be relevant. */
  get cut(): number {
    return this.#relevance * this.#classifier.coherence();
  }

  scoreLinks(view: PageView, links: readonly Link[]): (LinkDecision | null)[] {
    const terms = pageTerms(view.page.title, view.page.text);
    this.#classifier.observe(terms);
    const example = this.#examples.has(view.request.url);
    const score = example ? 1 : this.#classifier.score(terms);
    const relevant = example || score >= this.cut;
    this.judged.set(view.request.url, { score, relevant });
    if (!relevant && view.request.depth > 0) return links.map(() => null);
    return links.map(() => ({ priority: score }));
  }
}
