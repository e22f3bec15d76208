import type Database from 'better-sqlite3';
import { anchorPaths } from './anchor-path.js';
import { numberShapes, pageTerms, shapeSimilarity, withoutBoilerplate } from './page-vectors.js';
import { cosineOf, TfIdfSpace } from '../relevance/tfidf-space.js';

/** A fetched page with its anchor path and the vector the rankings compare. */
export interface RankedDoc {
  urlId: number;
  url: string;
  host: string;
  path: string[];
  terms: Map<string, number>;
  vector: ReturnType<TfIdfSpace['vector']>;
  /** Its numbers' shapes (page-vectors.ts), for comparing pages across languages. */
  shape: Map<string, number>;
}

/**
 * Every stored HTML page of the crawl (status below 400, text kept), as vectors in one TF-IDF
 * space over all of them, site boilerplate removed. Rankings are computed from the repository
 * after each round, so a resumed group crawl ranks exactly as an uninterrupted one.
 */
export function rankableDocs(db: Database.Database): { docs: RankedDoc[]; space: TfIdfSpace } {
  const rows = db
    .prepare(`SELECT p.url_id AS urlId, p.url, u.host, p.title, p.text FROM pages p JOIN urls u ON u.id = p.url_id
              WHERE p.status < 400 AND p.text IS NOT NULL ORDER BY p.url_id`)
    .all() as { urlId: number; url: string; host: string; title: string | null; text: string }[];
  const paths = anchorPaths(db);
  const docs = rows.map((r) => ({ urlId: r.urlId, url: r.url, host: r.host, path: paths.get(r.urlId) ?? [], terms: pageTerms(r.title ?? '', r.text) }));
  withoutBoilerplate(docs);
  const space = new TfIdfSpace();
  for (const d of docs) space.observe(d.terms);
  return { docs: docs.map((d) => ({ ...d, vector: space.vector(d.terms), shape: numberShapes(d.terms) })), space };
}

export type SampleView = Pick<RankedDoc, 'vector' | 'shape'>;

/**
 * How much a number-shape match can count against a word match when it is switched on
 * (`shapeWeight`, off by default). A page of another language shares no word with the samples,
 * so English examples never find a Chinese target; with it, a Chinese page whose table has the
 * samples' shape scores up to this. Measured on the generated group (docs/group.md): it ranks
 * the Chinese targets first on their sites, but also lifts number-heavy pages of real sites, and
 * the selection did not carry it into the library; so it stays off.
 */
export const SHAPE_WEIGHT = 0.7;

/**
 * Method D's target ranking: similarity to the nearest sample, the TF-IDF cosine of the words or,
 * when higher, SHAPE_WEIGHT times the likeness of the numbers (samples with a table of numbers only).
 */
export function nearestSampleScore(doc: Pick<RankedDoc, 'vector' | 'shape'>, samples: readonly SampleView[], shapeWeight = SHAPE_WEIGHT): number {
  let best = 0;
  for (const s of samples) {
    best = Math.max(best, cosineOf(doc.vector, s.vector));
    if (shapeWeight > 0 && best < shapeWeight) best = Math.max(best, shapeWeight * shapeSimilarity(doc.shape, s.shape));
  }
  return best;
}
