import { z } from 'zod';
import type { Link } from '../types.js';
import { anchorScore, contextScore } from '../relevance/link-scorers.js';
import type { Topic } from '../relevance/topic.js';
import { hashTerm, forEachTermHash } from '../text/term-hasher.js';
import { hostOf } from '../parse/normalize-url.js';
import { EvidenceLog } from './evidence-log.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

export const learnedOptions = z.strictObject({
  /** log2 of the number of hashed feature weights. */
  bits: z.number().int().min(10).max(24).default(18),
  /** SGD learning rate. */
  rate: z.number().gt(0).max(10).default(0.3),
  /** Exploration: bonus c / sqrt(1 + pages fetched on the link's host). */
  explore: z.number().min(0).max(1).default(0.05),
});
export type LearnedOptions = z.output<typeof learnedOptions>;

/** SGD steps per human label (a computed relevance gets one). */
const LABEL_STEPS = 5;

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * Dense features and their starting weights: the parent's relevance and the anchor's and the
 * context's topic cosines, each over twice the topic threshold and capped at 1. The starting
 * weights make the untrained model rank like a content-based crawler (a bias of -2 and +2 per
 * piece of evidence) instead of giving every link 0.5; SGD then moves them like any weight.
 */
const DENSE_START = { bias: -2, parent: 2, anchor: 2, context: 1 };

/** A link's features: hashed sparse indices (weight 1 each) and the dense values. */
export interface LinkFeatures {
  sparse: number[];
  dense: [parent: number, anchor: number, context: number];
}

/**
 * `learned`: an online logistic-regression link classifier, updated after every fetched page.
 * A link's features are hashed words of its anchor text and URL directories and its depth
 * (sparse), and the parent page's relevance and the anchor's and the context's topic cosines
 * (dense, with starting weights that rank like a content-based crawler: see DENSE_START). The
 * link carries them, and when the page it leads to is fetched, that page's relevance (at or
 * above the topic threshold = 1) is the label of one SGD step. priority = P(relevant | features)
 * + explore / sqrt(1 + pages fetched on the host), so a host the crawl has not tried yet is not
 * starved.
 *
 * The first version started every weight at 0, so every link scored 0.5 until the model had
 * learned, and hashed whole URL paths (one page's file name never generalises): on real sites it
 * crawled nearly breadth-first and came last (bench/realweb).
 *
 * Going beyond ACHE: no batch retraining and no frontier rescans; a link is scored when found (and
 * again when a page rediscovers it while it waits). The model lives in memory: a resumed crawl
 * learns again. In a shared crawl each worker's copy hears every other's pages (evidence/hear).
 */
/** Hosts whose fetch counts are kept (about 80 bytes each). */
const MAX_HOSTS = 100_000;

/** What one fetched page teaches another worker's copy (Strategy.evidence): its host, the features of the link that led to it, its label. */
interface Told {
  h: string;
  f: LinkFeatures | null;
  y: 0 | 1;
}

/** Features a link of this crawl carries; with `slots`, sparse indices within the model (another worker's record). */
function isFeatures(f: unknown, slots = Infinity): f is LinkFeatures {
  const x = f as LinkFeatures | undefined;
  return (
    typeof x === 'object' && x !== null && Array.isArray(x.sparse) && Array.isArray(x.dense) &&
    (slots === Infinity || (x.sparse.every((i) => Number.isInteger(i) && i >= 0 && i < slots) && x.dense.length === 3 && x.dense.every((v) => Number.isFinite(v) && Math.abs(v) <= 1)))
  );
}

export class LearnedStrategy implements Strategy {
  readonly name = 'learned';
  readonly topic: Topic;
  readonly options: LearnedOptions;
  /** Characters of context kept around each link (the context cosine is a feature). */
  readonly linkContext = 100;
  readonly #w: Float64Array;
  readonly #mask: number;
  readonly #hostFetches = new Map<string, number>();
  /** Pages fetched since the last evidence() call, once a caller asked for them. */
  readonly #said = new EvidenceLog<Told>();
  #bias = DENSE_START.bias;
  readonly #dense = [DENSE_START.parent, DENSE_START.anchor, DENSE_START.context];

  constructor(topic: Topic, options: Partial<LearnedOptions> = {}) {
    this.topic = topic;
    this.options = learnedOptions.parse(options);
    this.#w = new Float64Array(2 ** this.options.bits);
    this.#mask = 2 ** this.options.bits - 1;
  }

  seed(): LinkDecision {
    return { priority: 2 };
  }

  /** Features of a link: hashed words (deduplicated) and the dense evidence. */
  features(link: Link, parentRelevance: number, depth: number): LinkFeatures {
    const out = new Set<number>();
    const t = this.topic.threshold > 0 ? this.topic.threshold : 0.2;
    const cap = (x: number) => Math.min(1, x / (2 * t));
    const add = (prefix: number, h: number) => out.add(((h ^ Math.imul(prefix, 0x9e3779b1)) >>> 0) & this.#mask);
    forEachTermHash(link.anchor, (h) => add(1, h));
    let path = link.url;
    try {
      // Directories, not the file name: a file name is one page's and never generalises.
      path = decodeURI(new URL(link.url).pathname.replace(/[^/]*$/, ''));
    } catch {
      /* keep the URL */
    }
    forEachTermHash(path, (h) => add(2, h));
    add(4, hashTerm(`depth${Math.min(10, depth)}`));
    if (!link.anchor.trim()) add(5, hashTerm('no-anchor'));
    const dense: LinkFeatures['dense'] = [cap(parentRelevance), cap(anchorScore(this.topic, link.anchor).score), cap(contextScore(this.topic, link.context ?? '').score)];
    return { sparse: [...out], dense };
  }

  probability(f: LinkFeatures): number {
    let z = this.#bias;
    for (const i of f.sparse) z += this.#w[i]!;
    for (let k = 0; k < 3; k++) z += this.#dense[k]! * f.dense[k]!;
    return sigmoid(z);
  }

  /** One SGD step of logistic loss on (features, label). */
  learn(f: LinkFeatures, label: 0 | 1): void {
    const g = this.options.rate * (label - this.probability(f));
    for (const i of f.sparse) this.#w[i]! += g;
    for (let k = 0; k < 3; k++) this.#dense[k]! += g * f.dense[k]!;
    this.#bias += g * 0.1;
  }

  /** What a fetched page teaches, here or in another worker's copy: its link's features and label, and its host's fetch count. */
  #learnFrom(t: Told): void {
    if (t.f) this.learn(t.f, t.y);
    const n = (this.#hostFetches.get(t.h) ?? 0) + 1;
    // Most recently fetched last; past the bound the host fetched longest ago is forgotten and earns the exploration bonus again.
    this.#hostFetches.delete(t.h);
    if (this.#hostFetches.size >= MAX_HOSTS) this.#hostFetches.delete(this.#hostFetches.keys().next().value!);
    this.#hostFetches.set(t.h, n);
  }

  evidence(): unknown[] {
    return this.#said.drain();
  }

  hear(records: readonly unknown[]): void {
    for (const r of records) {
      const t = r as Told;
      if (typeof t !== 'object' || t === null || typeof t.h !== 'string' || (t.y !== 0 && t.y !== 1) || !(t.f === null || isFeatures(t.f, this.#w.length))) continue;
      this.#learnFrom(t);
    }
  }

  /**
   * A person's label outweighs one computed relevance: each labelled link's features take
   * LABEL_STEPS SGD steps towards the label. Returns the labels it could use (those whose link
   * carries features: seeds and links scored by another strategy carry none).
   */
  learnFromLabels(labels: readonly { relevant: boolean; linkData: Record<string, unknown> | null }[]): number {
    let used = 0;
    for (const l of labels) {
      const f = l.linkData?.f as LinkFeatures | undefined;
      if (!isFeatures(f)) continue;
      for (let i = 0; i < LABEL_STEPS; i++) this.learn(f, l.relevant ? 1 : 0);
      used++;
    }
    return used;
  }

  scoreLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    const relevance = view.relevance ?? 0;
    const f = view.request.data?.f as LinkFeatures | undefined;
    const told: Told = { h: view.request.host, f: isFeatures(f) ? f : null, y: relevance >= this.topic.threshold ? 1 : 0 };
    this.#said.push(told);
    this.#learnFrom(told);
    return links.map((l) => {
      const features = this.features(l, relevance, view.request.depth + 1);
      const tried = this.#hostFetches.get(hostOf(l.url)) ?? 0;
      const priority = this.probability(features) + this.options.explore / Math.sqrt(1 + tried);
      return { priority, data: { f: features } };
    });
  }
}
