import type { CrawlGraphReader } from '../store/crawl-graph-reader.js';
import { anchorPaths } from './anchor-path.js';
import { inLinkAnchors } from './page-names.js';
import { nameTerms, numberShapes, pageTerms, shapeSimilarity, withoutBoilerplate } from './page-vectors.js';
import { cosineOf, TfIdfSpace } from '../relevance/tfidf-space.js';

/** A fetched page with its anchor path and the vector the rankings compare. */
export interface RankedDoc {
  url: string;
  /** The host of its site (the sites file's), which may be its own host's www. twin. */
  host: string;
  path: string[];
  terms: Map<string, number>;
  vector: ReturnType<TfIdfSpace['vector']>;
  /** Its name: its title and the anchors of the links to it (page-names.ts), boilerplate removed. */
  name: Map<string, number>;
  nameVector: ReturnType<TfIdfSpace['vector']>;
  /** Its numbers' shapes (page-vectors.ts), for comparing pages across languages. */
  shape: Map<string, number>;
}

/**
 * Every stored HTML page of the crawl (status below 400, text kept), as vectors in one TF-IDF
 * space over all of them, site boilerplate removed. Rankings are computed from the repository
 * after each round, so a resumed group crawl ranks exactly as an uninterrupted one.
 */
export async function rankableDocs(graph: CrawlGraphReader, siteOf: (host: string) => string = (h) => h): Promise<{ docs: RankedDoc[]; space: TfIdfSpace; names: TfIdfSpace }> {
  const rows = await graph.storedTexts();
  const paths = anchorPaths(await graph.discoveryTree());
  const anchors = inLinkAnchors(rows);
  // `host` is the site's (siteOf): a root that redirects to its www. twin has its pages there.
  const docs = rows.map((r) => ({ url: r.url, host: siteOf(r.host), path: paths.get(r.url) ?? [], terms: pageTerms(r.title ?? '', r.text) }));
  withoutBoilerplate(docs);
  const named = docs.map((d, i) => ({ host: d.host, terms: nameTerms(rows[i]!.title ?? '', anchors.get(d.url) ?? []) }));
  withoutBoilerplate(named);
  const space = new TfIdfSpace();
  for (const d of docs) space.observe(d.terms);
  const names = new TfIdfSpace();
  for (const n of named) names.observe(n.terms);
  return {
    docs: docs.map((d, i) => ({ ...d, vector: space.vector(d.terms), name: named[i]!.terms, nameVector: names.vector(named[i]!.terms), shape: numberShapes(d.terms) })),
    space, names,
  };
}

export type SampleView = Pick<RankedDoc, 'vector' | 'nameVector' | 'shape'>;

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
 * Method D's target ranking: similarity to the nearest sample. The TF-IDF cosine of the words to the
 * nearest sample, mixed at `nameWeight` with the cosine of the names (title and in-link anchors) to
 * the nearest of `namers`; or, when higher, SHAPE_WEIGHT times the likeness of the numbers
 * (samples with a table of numbers only).
 *
 * `namers` are the user's examples, not the pages the rounds added: a name is one short phrase, so
 * one wrong page in the library (a FAQ whose table of contents links "License") would make every
 * page of its name a perfect match and carry the library off to another kind of page. Words drift
 * far less: a wrong sample shares its words with few pages.
 */
export function nearestSampleScore(doc: SampleView, samples: readonly SampleView[], shapeWeight = SHAPE_WEIGHT, nameWeight = 0, namers: readonly SampleView[] = samples): number {
  let words = 0;
  for (const s of samples) {
    words = Math.max(words, cosineOf(doc.vector, s.vector));
    if (shapeWeight > 0 && words < shapeWeight) words = Math.max(words, shapeWeight * shapeSimilarity(doc.shape, s.shape));
  }
  if (nameWeight <= 0) return words;
  let name = 0;
  for (const s of namers) name = Math.max(name, cosineOf(doc.nameVector, s.nameVector));
  return (1 - nameWeight) * words + nameWeight * name;
}
