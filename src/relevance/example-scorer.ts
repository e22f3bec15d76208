import { explainedCosine, type Scored } from './scored.js';
import { TfIdfSpace } from './tfidf-space.js';

/**
 * Similarity to example pages (method D's replacement for a target classifier): TF-IDF cosine
 * between a page and each example, IDF from every document the scorer has seen (examples,
 * negatives and the pages passed to observe()), so it sharpens as a crawl goes on.
 *
 * score = simPos * (1 - simNeg), simPos and simNeg the best cosine to an example and to a
 * negative example: close to an example raises it, close to a negative lowers it. (The product is
 * focuscrawl's choice; method D has no negatives. With none, score = simPos.)
 */
export class ExampleScorer {
  readonly #space = new TfIdfSpace();
  readonly #positives: { label: string; tf: Map<string, number> }[] = [];
  readonly #negatives: { label: string; tf: Map<string, number> }[] = [];

  get size(): number {
    return this.#positives.length;
  }

  /** Counts a document into the document frequencies (a background page). */
  observe(tf: ReadonlyMap<string, number>): void {
    this.#space.observe(tf);
  }

  addExample(label: string, tf: Map<string, number>, negative = false): void {
    this.observe(tf);
    (negative ? this.#negatives : this.#positives).push({ label, tf });
  }

  /** ln((1 + N) / (1 + df)) + 1: smoothed, so a term in every document keeps a positive weight. */
  idf(term: string): number {
    return this.#space.idf(term);
  }

  #tfidf(tf: ReadonlyMap<string, number>): Map<string, number> {
    const v = new Map<string, number>();
    for (const [t, n] of tf) v.set(t, n * this.idf(t));
    return v;
  }

  #best(v: Map<string, number>, set: { label: string; tf: Map<string, number> }[]): Scored & { label: string | null } {
    let best: Scored & { label: string | null } = { score: 0, terms: [], label: null };
    for (const e of set) {
      const s = explainedCosine(v, this.#tfidf(e.tf));
      if (s.score > best.score) best = { ...s, label: e.label };
    }
    return best;
  }

  score(tf: ReadonlyMap<string, number>): Scored {
    const v = this.#tfidf(tf);
    const pos = this.#best(v, this.#positives);
    const neg = this.#best(v, this.#negatives);
    return {
      score: pos.score * (1 - neg.score),
      terms: pos.terms,
      detail: { nearestExample: pos.label, exampleSimilarity: pos.score, nearestNegative: neg.label, negativeSimilarity: neg.score },
    };
  }
}
