import type Database from 'better-sqlite3';
import { anchorPaths } from './anchor-path.js';
import { pageTerms, withoutBoilerplate } from './page-vectors.js';
import { cosineOf, TfIdfSpace } from '../relevance/tfidf-space.js';

/** A fetched page with its anchor path and the vector the rankings compare. */
export interface RankedDoc {
  urlId: number;
  url: string;
  host: string;
  path: string[];
  terms: Map<string, number>;
  vector: ReturnType<TfIdfSpace['vector']>;
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
  return { docs: docs.map((d) => ({ ...d, vector: space.vector(d.terms) })), space };
}

/** Method D's target ranking: the cosine to the nearest sample. */
export function nearestSampleScore(doc: RankedDoc, samples: RankedDoc['vector'][]): number {
  let best = 0;
  for (const s of samples) best = Math.max(best, cosineOf(doc.vector, s));
  return best;
}
