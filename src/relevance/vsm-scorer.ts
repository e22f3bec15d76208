import { readableUrl } from '../parse/readable-url.js';
import type { Page } from '../types.js';
import { positionTerms, weightedTerms, type PositionTerms } from '../text/position-terms.js';
import { forEachTermHash, hashTerm, TermAccumulator } from '../text/term-hasher.js';
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

type PageText = Pick<Page, 'url' | 'title' | 'headings' | 'text' | 'links'>;

interface HashedTopic {
  terms: [number, number][];
  /** The topic's terms and weights in Topic.vector's order (a TopicProfile's order). */
  names: string[];
  weights: Float64Array;
  scratch: TermAccumulator;
}
const hashed = new WeakMap<Topic, HashedTopic>();

function hashedTopic(topic: Topic): HashedTopic {
  let h = hashed.get(topic);
  if (!h) {
    const terms = [...topic.vector].map(([t, w]) => [hashTerm(t), w] as [number, number]);
    h = { terms, names: [...topic.vector.keys()], weights: Float64Array.from(topic.vector.values()), scratch: new TermAccumulator() };
    hashed.set(topic, h);
  }
  return h;
}

function urlText(url: string): string {
  return readableUrl(url).replace(/^https?:\/\//i, '');
}

/**
 * How much of each topic term a page holds: tf[i] is the position-weighted count of the topic's
 * i-th term (Topic.vector's order), normSq the squared norm of the page's whole term vector. The
 * page relevance is its cosine with the topic; a strategy that weighs the topic's terms its own
 * way (adaptive discounts the words every page of a site repeats) needs the parts, not the sum.
 */
export interface TopicProfile {
  tf: Float64Array;
  normSq: number;
}

/** The topic's terms and weights in a TopicProfile's order. */
export function topicTerms(topic: Topic): { names: readonly string[]; weights: ArrayLike<number> } {
  const h = hashedTopic(topic);
  return { names: h.names, weights: h.weights };
}

/** rel(p) from a profile, with the topic's weights or with `weights` (same order as tf). */
export function profileCosine(topic: Topic, profile: TopicProfile, weights?: ArrayLike<number>): number {
  const w = weights ?? hashedTopic(topic).weights;
  let dot = 0;
  let wSq = 0;
  for (let i = 0; i < profile.tf.length; i++) {
    dot += profile.tf[i]! * w[i]!;
    wSq += w[i]! * w[i]!;
  }
  if (dot === 0 || profile.normSq === 0 || wSq === 0) return 0;
  return Math.min(1, dot / Math.sqrt(profile.normSq * wSq));
}

/**
 * The page's profile under the topic (see TopicProfile), computed over term hashes without
 * building strings (see term-hasher.ts) when the topic uses bigrams and no stemming.
 */
export function topicProfile(topic: Topic, page: PageText): TopicProfile {
  const h = hashedTopic(topic);
  const tf = new Float64Array(h.terms.length);
  if (topic.tokenizeOptions.stem || topic.tokenizeOptions.cjk === 'words') {
    const v = weightedTerms(positionTerms(page, topic.tokenizeOptions), topic.positions);
    let normSq = 0;
    for (const x of v.values()) normSq += x * x;
    h.names.forEach((t, i) => (tf[i] = v.get(t) ?? 0));
    return { tf, normSq };
  }
  const acc = h.scratch;
  acc.clear();
  const w = topic.positions;
  const add = (text: string, weight: number) => {
    if (weight && text) forEachTermHash(text, (t) => acc.add(t, weight));
  };
  add(page.title, w.title);
  add(page.headings, w.headings);
  if (w.anchor) for (const l of page.links) add(l.anchor, w.anchor);
  add(page.text, w.body);
  add(urlText(page.url), w.url);
  h.terms.forEach(([t], i) => (tf[i] = acc.get(t)));
  return { tf, normSq: acc.sumOfSquares() };
}

/**
 * rel(p) of a parsed page under the topic: the relevance the crawl records and best-first uses.
 * The same number as vsmScore(topic, positionTerms(page)).score.
 */
export function pageRelevance(topic: Topic, page: PageText): number {
  return profileCosine(topic, topicProfile(topic, page));
}
