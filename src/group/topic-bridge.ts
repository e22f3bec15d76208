import { cosine } from '../relevance/cosine.js';
import { cosineOf, type TfIdfSpace } from '../relevance/tfidf-space.js';
import { termCounts } from '../text/tokenize.js';
import { GROUP_TOKENS, pathTerms } from './anchor-path.js';

type TfIdfVector = ReturnType<TfIdfSpace['vector']>;

/**
 * The user's topic keywords as a second way to recognise the kind, beside the samples: a bridge
 * across languages. Examples in English share no word with a Chinese target, and nothing the
 * rounds learn from English samples reaches one; keywords written in both languages ("admission
 * scores", "录取分数线") do. The bridge scores links (their anchor path against the keywords) and
 * pages (their words against the keywords, in the ranking's TF-IDF space), each at most `weight`,
 * and the crawler takes the better of the bridge and the samples. Once a page found through the
 * bridge is selected, it joins the sample library like any other, and the samples of its language
 * take over: the bridge only has to find the first.
 */
export class TopicBridge {
  /** The keywords as the group crawler tokenizes (stemmed English, CJK bigrams), weighted. */
  readonly terms: Map<string, number>;
  readonly weight: number;
  readonly #pathCache = new Map<string, number>();

  constructor(keywords: Readonly<Record<string, number>>, weight: number) {
    this.weight = weight;
    this.terms = new Map();
    for (const [phrase, w] of Object.entries(keywords)) {
      for (const t of termCounts(phrase, GROUP_TOKENS).keys()) this.terms.set(t, Math.max(this.terms.get(t) ?? 0, w));
    }
  }

  /**
   * A link's anchor path against the keywords: the better of the whole path's terms and the link's
   * own anchor (a menu step such as "Admissions" carries less than the last step "Score lines").
   */
  pathScore(path: readonly string[]): number {
    if (!path.length || !this.terms.size || this.weight === 0) return 0;
    const key = path.join('\u0000');
    const cached = this.#pathCache.get(key);
    if (cached !== undefined) return cached;
    const score = this.weight * Math.max(cosine(pathTerms(path), this.terms), cosine(pathTerms(path.slice(-1)), this.terms));
    if (this.#pathCache.size > 100_000) this.#pathCache.clear();
    this.#pathCache.set(key, score);
    return score;
  }

  /** The keywords as a vector of the ranking's space (IDF: a keyword on every page counts little); once per ranking. */
  keywordVector(space: TfIdfSpace): TfIdfVector {
    return space.vector(this.terms);
  }

  /**
   * A page's words against the keywords, as a share of how the examples themselves score against
   * them (`exampleLevel`: their best cosine), at most `weight`. Raw cosines to a handful of
   * keywords are small (a target in Chinese reached 0.25) and the selection compares scores with
   * cosines to whole samples; "as topical as the examples" is on that scale.
   */
  pageScore(vector: TfIdfVector, keywords: TfIdfVector, exampleLevel: number): number {
    if (this.weight === 0 || exampleLevel <= 0) return 0;
    return this.weight * Math.min(1, cosineOf(vector, keywords) / exampleLevel);
  }
}
