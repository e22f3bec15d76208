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
  normSq: number;
  scratch: TermAccumulator;
}
const hashed = new WeakMap<Topic, HashedTopic>();

function hashedTopic(topic: Topic): HashedTopic {
  let h = hashed.get(topic);
  if (!h) {
    const terms = [...topic.vector].map(([t, w]) => [hashTerm(t), w] as [number, number]);
    h = { terms, normSq: terms.reduce((s, [, w]) => s + w * w, 0), scratch: new TermAccumulator() };
    hashed.set(topic, h);
  }
  return h;
}

function urlText(url: string): string {
  let decoded = url;
  try {
    decoded = decodeURI(url);
  } catch {
    /* keep it encoded */
  }
  return decoded.replace(/^https?:\/\//i, '');
}

/**
 * rel(p) of a parsed page under the topic: the relevance the crawl records and best-first uses.
 * The same number as vsmScore(topic, positionTerms(page)).score, computed over term hashes
 * without building strings (see term-hasher.ts) when the topic uses bigrams and no stemming.
 */
export function pageRelevance(topic: Topic, page: PageText): number {
  if (topic.tokenizeOptions.stem || topic.tokenizeOptions.cjk === 'words') {
    return vsmScore(topic, positionTerms(page, topic.tokenizeOptions)).score;
  }
  const h = hashedTopic(topic);
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
  let dot = 0;
  for (const [t, weight] of h.terms) dot += acc.get(t) * weight;
  const normSq = acc.sumOfSquares();
  if (dot === 0 || normSq === 0) return 0;
  return Math.min(1, dot / Math.sqrt(normSq * h.normSq));
}
