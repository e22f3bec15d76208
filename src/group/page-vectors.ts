import { termCounts } from '../text/tokenize.js';
import { GROUP_TOKENS } from './anchor-path.js';

/** A stored page as the group crawler reads it back. */
export interface StoredPage {
  urlId: number;
  url: string;
  host: string;
  title: string;
  text: string;
}

/** Title terms count three times, as in the topic scorers' default position weights. */
export function pageTerms(title: string, text: string): Map<string, number> {
  const tf = termCounts(text, GROUP_TOKENS);
  for (const [t, n] of termCounts(title, GROUP_TOKENS)) tf.set(t, (tf.get(t) ?? 0) + 3 * n);
  return tf;
}

/**
 * Removes what makes pages of one site alike whatever they are about, so that similarity to a
 * sample means "the same kind of page" and not "the same site": terms found on one site only (once
 * 5 or more sites have pages), and site boilerplate, terms on more than 80% of a site's pages
 * (menus, footers; sites with fewer than 10 pages keep theirs: too few to tell a template).
 */
export function withoutBoilerplate(pages: { host: string; terms: Map<string, number> }[]): void {
  const bySite = new Map<string, Map<string, number>[]>();
  for (const p of pages) (bySite.get(p.host) ?? bySite.set(p.host, []).get(p.host)!).push(p.terms);
  if (bySite.size >= 5) {
    // A term used by one site only (its name, its street) cannot tell a target on another site.
    const sites = new Map<string, number>();
    for (const docs of bySite.values()) for (const t of new Set(docs.flatMap((d) => [...d.keys()]))) sites.set(t, (sites.get(t) ?? 0) + 1);
    for (const p of pages) for (const t of [...p.terms.keys()]) if (sites.get(t) === 1) p.terms.delete(t);
  }
  for (const docs of bySite.values()) {
    if (docs.length < 10) continue;
    const df = new Map<string, number>();
    for (const d of docs) for (const t of d.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    for (const d of docs) for (const t of [...d.keys()]) if (df.get(t)! > 0.8 * docs.length) d.delete(t);
  }
}

/** TF-IDF vectors with their norms, IDF = ln((1 + N) / (1 + df)) + 1 over the given documents. */
export class TfIdfSpace {
  readonly #df = new Map<string, number>();
  #n = 0;

  observe(terms: ReadonlyMap<string, number>): void {
    this.#n++;
    for (const t of terms.keys()) this.#df.set(t, (this.#df.get(t) ?? 0) + 1);
  }

  vector(terms: ReadonlyMap<string, number>): { v: Map<string, number>; norm: number } {
    const v = new Map<string, number>();
    let sq = 0;
    for (const [t, n] of terms) {
      const w = n * (Math.log((1 + this.#n) / (1 + (this.#df.get(t) ?? 0))) + 1);
      v.set(t, w);
      sq += w * w;
    }
    return { v, norm: Math.sqrt(sq) };
  }
}

export function cosineOf(a: { v: Map<string, number>; norm: number }, b: { v: Map<string, number>; norm: number }): number {
  if (!a.norm || !b.norm) return 0;
  const [small, large] = a.v.size <= b.v.size ? [a.v, b.v] : [b.v, a.v];
  let dot = 0;
  for (const [t, w] of small) {
    const x = large.get(t);
    if (x !== undefined) dot += w * x;
  }
  return Math.min(1, dot / (a.norm * b.norm));
}
