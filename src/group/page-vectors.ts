import { termCounts } from '../text/tokenize.js';
import { GROUP_TOKENS } from './anchor-path.js';

/**
 * The shape of a number, a term every language writes alike: '#year' for 1900-2099, else '#n'
 * and its digit count (a table of 3-digit scores reads '#n3 #n3 ...' in English and Chinese).
 * null for a term that is not a number.
 */
export function numberShape(term: string): string | null {
  if (!/^\d+$/.test(term)) return null;
  if (term.length === 4 && /^(19|20)/.test(term)) return '#year';
  return `#n${Math.min(term.length, 6)}`;
}

/** A page's terms; title terms count three times, as in the topic scorers' default position weights. */
export function pageTerms(title: string, text: string): Map<string, number> {
  const tf = termCounts(text, GROUP_TOKENS);
  for (const [t, n] of termCounts(title, GROUP_TOKENS)) tf.set(t, (tf.get(t) ?? 0) + 3 * n);
  return tf;
}

/**
 * A page's name as terms: its title and each distinct anchor text of the links to it, each counted
 * once, so a page linked from every page's menu is not named louder than one linked once.
 */
export function nameTerms(title: string, anchors: readonly string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const text of [title, ...anchors]) for (const t of termCounts(text, GROUP_TOKENS).keys()) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}

/**
 * The shapes of a page's numbers, counted: what pages of one kind share across languages when
 * they share no word (a table of scores by province reads '#n3' twenty times in English and in
 * Chinese; a list of years, '#year').
 */
export function numberShapes(terms: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [t, n] of terms) {
    const shape = numberShape(t);
    if (shape) out.set(shape, (out.get(shape) ?? 0) + n);
  }
  return out;
}

/** Numbers a sample must have for its shape to be compared: a table or a list, not a date in passing. */
export const MIN_SHAPE_NUMBERS = 10;

/**
 * How alike two pages' number shapes are, counts included (weighted Jaccard: the sum of the
 * smaller counts over the sum of the larger), so that a page with one 3-digit number is not
 * like a table of twenty. 0 unless both have MIN_SHAPE_NUMBERS numbers or more: most pages have a
 * few numbers (a page number, a date), and those would give every page a small likeness.
 */
export function shapeSimilarity(page: ReadonlyMap<string, number>, sample: ReadonlyMap<string, number>): number {
  const count = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  if (count(sample) < MIN_SHAPE_NUMBERS || count(page) < MIN_SHAPE_NUMBERS) return 0;
  let min = 0;
  let max = 0;
  for (const k of new Set([...page.keys(), ...sample.keys()])) {
    const a = page.get(k) ?? 0;
    const b = sample.get(k) ?? 0;
    min += Math.min(a, b);
    max += Math.max(a, b);
  }
  return max ? min / max : 0;
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
