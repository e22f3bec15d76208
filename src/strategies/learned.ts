import { z } from 'zod';
import type { Link } from '../types.js';
import { anchorScore, contextScore } from '../relevance/link-scorers.js';
import type { Topic } from '../relevance/topic.js';
import { hashTerm, forEachTermHash } from '../text/term-hasher.js';
import { hostOf } from '../parse/normalize-url.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

export const learnedOptions = z.strictObject({
  /** log2 of the number of hashed feature weights. */
  bits: z.number().int().min(10).max(24).default(18),
  /** SGD learning rate. */
  rate: z.number().gt(0).max(10).default(0.3),
  /** Exploration: bonus c / sqrt(1 + pages fetched on the link's host). */
  explore: z.number().min(0).max(1).default(0.15),
});
export type LearnedOptions = z.output<typeof learnedOptions>;

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * `learned`: an online logistic-regression link classifier, updated after every fetched page.
 * A link's features are hashed words of its anchor text and URL, the parent page's relevance, the
 * anchor text's and the anchor context's cosine with the topic (each bucketed) and its depth; the link carries their indices, and when the page it leads to is
 * fetched, that page's relevance (at or above the topic threshold = 1) is the label of one SGD
 * step. priority = P(relevant | features) + explore / sqrt(1 + pages fetched on the host), so a
 * host the crawl has not tried yet is not starved.
 *
 * Going beyond ACHE: no batch retraining and no frontier rescans; each link is scored once, when
 * found, by the model as it is then. The model lives in memory: a resumed crawl learns again.
 */
export class LearnedStrategy implements Strategy {
  readonly name = 'learned';
  readonly topic: Topic;
  readonly options: LearnedOptions;
  /** Characters of context kept around each link (the context cosine is a feature). */
  readonly linkContext = 100;
  readonly #w: Float64Array;
  readonly #mask: number;
  readonly #hostFetches = new Map<string, number>();
  #bias = 0;

  constructor(topic: Topic, options: Partial<LearnedOptions> = {}) {
    this.topic = topic;
    this.options = learnedOptions.parse(options);
    this.#w = new Float64Array(2 ** this.options.bits);
    this.#mask = 2 ** this.options.bits - 1;
  }

  seed(): LinkDecision {
    return { priority: 2 };
  }

  /** Feature indices of a link (deduplicated). */
  features(link: Link, parentRelevance: number, depth: number): number[] {
    const out = new Set<number>();
    const add = (prefix: number, h: number) => out.add(((h ^ Math.imul(prefix, 0x9e3779b1)) >>> 0) & this.#mask);
    forEachTermHash(link.anchor, (h) => add(1, h));
    let path = link.url;
    try {
      path = decodeURI(new URL(link.url).pathname);
    } catch {
      /* keep the URL */
    }
    forEachTermHash(path, (h) => add(2, h));
    const bucket = (x: number) => Math.min(9, Math.floor(x * 10));
    add(3, hashTerm(`rel${bucket(parentRelevance)}`));
    add(6, hashTerm(`anchor${bucket(anchorScore(this.topic, link.anchor).score)}`));
    add(7, hashTerm(`context${bucket(contextScore(this.topic, link.context ?? '').score)}`));
    add(4, hashTerm(`depth${Math.min(10, depth)}`));
    if (!link.anchor.trim()) add(5, hashTerm('no-anchor'));
    return [...out];
  }

  probability(features: readonly number[]): number {
    let z = this.#bias;
    for (const i of features) z += this.#w[i]!;
    return sigmoid(z);
  }

  /** One SGD step of logistic loss on (features, label). */
  learn(features: readonly number[], label: 0 | 1): void {
    const g = this.options.rate * (label - this.probability(features));
    for (const i of features) this.#w[i]! += g;
    this.#bias += g * 0.1;
  }

  scoreLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    const relevance = view.relevance ?? 0;
    const f = view.request.data?.f;
    if (Array.isArray(f)) this.learn(f as number[], relevance >= this.topic.threshold ? 1 : 0);
    const host = view.request.host;
    this.#hostFetches.set(host, (this.#hostFetches.get(host) ?? 0) + 1);
    return links.map((l) => {
      const features = this.features(l, relevance, view.request.depth + 1);
      const tried = this.#hostFetches.get(hostOf(l.url)) ?? 0;
      const priority = this.probability(features) + this.options.explore / Math.sqrt(1 + tried);
      return { priority, data: { f: features } };
    });
  }
}
