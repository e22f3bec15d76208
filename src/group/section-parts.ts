import type { StoredText } from '../store/crawl-graph-reader.js';

/**
 * Sections split into pages. Some sites split one page of a kind into a section: a FAQ whose
 * index lists one page a question, a licence appendix with a page per licence. The parts share
 * little text with the library's samples (each question is about its own subject), so on
 * scores alone they sit near the group's noise level and are never selected; on bench/group-real
 * PySNMP's FAQ index and 12 question pages are 13 of the FAQ kind's 31 targets, and the
 * questions were all missed. What marks them
 * is structure, which the ranking does not see: much of the index's text is the list of its
 * parts, and every part links back to it.
 *
 * A page is a section index when at least MIN_PARTS pages of its site that it links to outside
 * the site's navigation link back to it, and the anchors of those links are at least
 * MIN_ANCHOR_SHARE of its text outside the navigation (characters, not words, so that Chinese
 * and English pages are measured alike). Navigation is a link found on at least half of the
 * site's stored pages, as in the sidebars of every documentation generator.
 */
export const MIN_PARTS = 3;
export const MIN_ANCHOR_SHARE = 0.15;

const chars = (s: string) => s.replace(/\s+/gu, '').length;

/** Does `url` lie on `host` (the crawl's URLs are normalized: scheme, host, path)? A prefix test: parsing every link of a large crawl would cost more than the rest. */
const onHost = (url: string, host: string) => url.startsWith(`http://${host}/`) || url.startsWith(`https://${host}/`);

/** Every section index among the stored pages, with its parts (URLs, in link order). */
export function sectionIndexes(rows: readonly StoredText[]): Map<string, string[]> {
  const stored = new Map(rows.map((r) => [r.url, r]));
  const pagesOfSite = new Map<string, number>();
  // Pages of its own site linking to each URL: links to other sites are never a site's navigation.
  const linkedFrom = new Map<string, number>();
  for (const r of rows) {
    pagesOfSite.set(r.host, (pagesOfSite.get(r.host) ?? 0) + 1);
    for (const u of new Set(r.outlinks.map((l) => l[0]))) if (u !== r.url && onHost(u, r.host)) linkedFrom.set(u, (linkedFrom.get(u) ?? 0) + 1);
  }
  const targetsOf = new Map<string, Set<string>>();
  const linksBack = (part: string, index: string) => {
    let out = targetsOf.get(part);
    if (!out) targetsOf.set(part, (out = new Set(stored.get(part)!.outlinks.map((l) => l[0]))));
    return out.has(index);
  };
  const anchorChars = (parts: Map<string, string>) => [...parts.values()].reduce((a, x) => a + chars(x), 0);
  const sections = new Map<string, string[]>();
  for (const r of rows) {
    const navigation = (u: string) => (linkedFrom.get(u) ?? 0) >= 0.5 * pagesOfSite.get(r.host)!;
    // Each part by its longest anchor: an image link before the title link says nothing.
    const candidates = new Map<string, string>();
    let navChars = 0;
    for (const [u, anchor] of r.outlinks) {
      if (navigation(u)) navChars += chars(anchor);
      else if (u !== r.url && stored.get(u)?.host === r.host && anchor.length >= (candidates.get(u)?.length ?? 0)) candidates.set(u, anchor);
    }
    if (candidates.size < MIN_PARTS) continue;
    const least = MIN_ANCHOR_SHARE * Math.max(1, chars(r.text) - navChars);
    // Most pages fail on their text before any part is read: the back-links are the costly test.
    if (anchorChars(candidates) < least) continue;
    const parts = new Map([...candidates].filter(([u]) => linksBack(u, r.url)));
    if (parts.size >= MIN_PARTS && anchorChars(parts) >= least) sections.set(r.url, [...parts.keys()]);
  }
  return sections;
}

export interface PartCandidate {
  url: string;
  score: number;
  sample: boolean;
  target: boolean;
  /** A site's start page: it lists the whole site, not a section, and passes nothing on. */
  entry: boolean;
  /** How alike its name (title, in-link anchors) is to the nearest example's name (0-1). */
  nameLikeness: number;
  /** One of the user's examples (absent: no). */
  example?: boolean;
  /**
   * The largest share of its name that one example's name holds (0-1; absent: nameLikeness):
   * an index named "FAQ" is covered by an example named "FAQ, Frequently Asked Questions",
   * though the cosine of the two names is low.
   */
  nameCoverage?: number;
}

/**
 * An index passes its kind on only when it is named like an example (a FAQ index titled "FAQ"):
 * a sample that joined the library by mistake is usually named for its own subject ("Crypto.IO
 * package"), and its parts would multiply the mistake.
 */
export const MIN_NAME_LIKENESS = 0.8;

/** Parts an example's enclosing section may have (PySNMP's FAQ has 12). */
export const MAX_ENCLOSING_PARTS = 64;

/**
 * The selection with the parts of each library sample that is a section index added: a part is
 * selected when it scores at least `overNoise` times the group's noise level (what an ordinary
 * page of the group scores against the samples), so a part that shares nothing with the kind is
 * still left out. Only samples pass their kind on: a page selected by its score alone may be a
 * near miss, and its parts would multiply the miss. A start page that became a sample (a wrong
 * one: no kind is a whole site) would pass it to every chapter, so entry pages pass nothing, and
 * neither does a sample not named like an example (MIN_NAME_LIKENESS).
 *
 * The other way round, an example may be one part of its kind's section: a user who gives one
 * question of a FAQ split a page a question gives a part, and the section's index, named like
 * another example ("FAQ"), and its other parts are the same kind (bench/group-real's FAQ set 2:
 * PySNMP's index and 11 questions missed). So an index that lists an example among its parts and
 * whose name an example's name covers (nameCoverage) is selected (it is named like the kind), and
 * its parts under the same cut as above. Only examples count here: a sample the rounds added by
 * mistake would pull in its section. And only a section of at most MAX_ENCLOSING_PARTS parts: a
 * page that lists the whole site (a general index every page links back to through its sidebar)
 * is no section of one kind, whatever its name.
 */
export function withSectionParts<T extends PartCandidate>(pages: readonly T[], sections: ReadonlyMap<string, readonly string[]>, noiseLevel: number, overNoise: number): boolean[] {
  const at = new Map(pages.map((p, i) => [p.url, i]));
  const picked = pages.map((p) => p.target);
  const passOn = (parts: readonly string[]) => {
    for (const u of parts) {
      const i = at.get(u);
      if (i !== undefined && pages[i]!.score > 0 && pages[i]!.score >= overNoise * noiseLevel) picked[i] = true;
    }
  };
  for (const p of pages) {
    if (!p.sample || p.entry || p.nameLikeness < MIN_NAME_LIKENESS) continue;
    passOn(sections.get(p.url) ?? []);
  }
  for (const [index, parts] of sections) {
    const i = at.get(index);
    const p = i === undefined ? undefined : pages[i]!;
    if (!p || p.entry || p.score <= 0 || parts.length > MAX_ENCLOSING_PARTS || (p.nameCoverage ?? p.nameLikeness) < MIN_NAME_LIKENESS) continue;
    if (!parts.some((u) => pages[at.get(u) ?? -1]?.example === true)) continue;
    picked[i!] = true;
    passOn(parts);
  }
  return picked;
}
