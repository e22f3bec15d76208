import { termCounts } from '../text/tokenize.js';
import { GROUP_TOKENS } from './anchor-path.js';

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
