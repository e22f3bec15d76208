/**
 * Method D's selection step: which ranked pages are returned as targets. Scores are cosines to
 * the sample library, and their scale changes with everything but the page's kind: the language,
 * how alike the examples are, how much a site's template leaves after boilerplate removal. On a
 * generated group targets scored 0.5-1.0; on real documentation sites 0.2-0.45, while a site
 * with no target still had a best page at 0.18-0.28. So no absolute threshold is used: a page is
 * selected when it stands out from the scores around it, on two scales.
 *
 * - The group's noise level: the `noiseQuantile` quantile of every ranked page's score (library
 *   samples left out). Nearly every page of a group is not a target, so this is what an ordinary
 *   page scores; a target must reach `overGroup` times it. A site with no target has nothing
 *   that far above the group's pages, and returns nothing.
 * - The site's own level: the same quantile of the site's pages. A target must reach `overSite`
 *   times it, so a site on which every page resembles the samples (a template the boilerplate
 *   filter missed) does not return them all.
 *
 * Library samples are always selected: they are targets of their sites by construction.
 *
 * - A site's clear best (`siteBest`): on a site with no sample, the best page (not the start page)
 *   is selected when it reaches `siteBest.overSite` times its site's noise level and
 *   `siteBest.overGroup` times the group's, lower multiples than the two cuts above. Where the
 *   kind shares most of its words with every page of a manual (release notes: version, fixed,
 *   added, deprecated), the group's noise level is high and the two cuts left out targets that
 *   were their sites' best pages by far (bench/group-real's change logs: recall 0.27, the best
 *   page a target on 15 of 17 sites). A site whose best page does not stand out still returns
 *   nothing; one whose best is selected also returns its runners-up within `siteNext` of it.
 *
 * Two bounds keep the relative cuts sane on small or sharply split groups:
 * - a floor, `floor` times the library's coherence (how alike its samples are): when nearly every
 *   page shares no word with the samples (news pages beside score tables), the noise level is 0
 *   and any page sharing one word (a home page at 0.05) would stand out;
 * - near copies: a page scoring at least `nearCopy` (a sample's sister page, the same table for
 *   another year) is a target even where targets are so many that they set the noise level (three
 *   sites of three score pages each), unless more than half of its site's pages score that high, a
 *   template the boilerplate filter missed rather than a kind of page.
 */
export interface SelectionRule {
  /** Quantile (0-1) of the scores taken as the noise level. */
  noiseQuantile: number;
  /** A target scores at least this multiple of the group's noise level. */
  overGroup: number;
  /** ...and at least this multiple of its own site's noise level. */
  overSite: number;
  /**
   * The parts of a sample that is a section index (section-parts.ts) are selected from this
   * multiple of the group's noise level; absent, they are not added.
   */
  sectionParts?: number;
  /** No cut below this multiple of the library's coherence (selectTargets' `coherence`); absent, no floor. */
  floor?: number;
  /** A page scoring at least this is selected whatever the noise levels, unless more than half its site does; absent, none is. */
  nearCopy?: number;
  /** A site's clear best (a site without samples): the multiples of its site's and the group's noise levels it must reach; absent, no such rule. */
  siteBest?: { overSite: number; overGroup: number };
  /**
   * A selected page's runners-up: on a site without samples, another page scoring at least this
   * fraction of the site's best selected page, and the siteBest cuts, is selected too; absent, none is.
   */
  siteNext?: number;
}

/**
 * Chosen on bench/group-real's licence pages and the generated group of web seed 11; sectionParts
 * on the licence and FAQ pages and seed 11; siteBest and siteNext on the licence, FAQ and change
 * log pages and seed 11 (docs/benchmarks.md).
 */
export const DEFAULT_SELECTION: SelectionRule = { noiseQuantile: 0.9, overGroup: 2.5, overSite: 2, sectionParts: 0.75, floor: 0.25, nearCopy: 0.9, siteBest: { overSite: 1.75, overGroup: 1.25 }, siteNext: 0.8 };

/** The q-quantile of `xs` (linear interpolation between order statistics); 0 for none. */
export function quantile(xs: readonly number[], q: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const at = q * (s.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(s.length - 1, lo + 1);
  return s[lo]! + (s[hi]! - s[lo]!) * (at - lo);
}

export interface ScoredPage {
  site: string;
  score: number;
  /** A sample of the library (always selected, left out of the noise levels). */
  sample?: boolean;
  /**
   * A site's start page (its crawl's seed): never selected unless it is a sample. It links and
   * summarises its whole site, so it can score high against any kind, yet it is never a page of
   * one (on bench/group-real's tuning runs 12 start pages were returned, none a target).
   */
  entry?: boolean;
}

/**
 * The cut each site's pages must reach under `rule`, from the scores alone (and the floor from
 * the library's `coherence`, when given).
 */
export function selectionCuts(pages: readonly ScoredPage[], rule: SelectionRule, coherence?: number): { noise: number; group: number; sites: Map<string, number>; siteNoise: Map<string, number>; floor: number } {
  const others = pages.filter((p) => !p.sample);
  const noise = quantile(others.map((p) => p.score), rule.noiseQuantile);
  const floor = rule.floor !== undefined && coherence !== undefined ? rule.floor * coherence : 0;
  const group = Math.max(floor, rule.overGroup * noise);
  const bySite = new Map<string, number[]>();
  for (const p of others) (bySite.get(p.site) ?? bySite.set(p.site, []).get(p.site)!).push(p.score);
  const sites = new Map<string, number>();
  const siteNoise = new Map<string, number>();
  for (const [site, scores] of bySite) {
    const own = quantile(scores, rule.noiseQuantile);
    siteNoise.set(site, own);
    sites.set(site, Math.max(group, rule.overSite * own));
  }
  return { noise, group, sites, siteNoise, floor };
}

/** Per site without samples, the index in `pages` of its best page that is not a start page (ties: the first). */
function bestOfSites(pages: readonly ScoredPage[]): Map<string, number> {
  const withSamples = new Set(pages.filter((p) => p.sample).map((p) => p.site));
  const best = new Map<string, number>();
  pages.forEach((p, i) => {
    if (p.entry || withSamples.has(p.site)) return;
    const at = best.get(p.site);
    if (at === undefined || p.score > pages[at]!.score) best.set(p.site, i);
  });
  return best;
}

/** Sites on which more than half the pages score `nearCopy` or more: a template, not a kind of page. */
function templateSites(pages: readonly ScoredPage[], nearCopy: number): Set<string> {
  const counts = new Map<string, { high: number; all: number }>();
  for (const p of pages) {
    if (p.sample) continue;
    const c = counts.get(p.site) ?? counts.set(p.site, { high: 0, all: 0 }).get(p.site)!;
    c.all++;
    if (p.score >= nearCopy) c.high++;
  }
  return new Set([...counts].filter(([, c]) => c.high * 2 > c.all).map(([site]) => site));
}

/**
 * Which pages are targets, in the order given. A score of 0 is never selected (a page sharing
 * no term with any sample), whatever the noise levels, nor is a start page that is not a sample.
 */
export function selectTargets(pages: readonly ScoredPage[], rule: SelectionRule, coherence?: number): boolean[] {
  const { noise, group, sites, siteNoise, floor } = selectionCuts(pages, rule, coherence);
  const near = rule.nearCopy;
  const templates = near === undefined ? new Set<string>() : templateSites(pages, near);
  const out = pages.map((p) => p.sample === true || (!p.entry && p.score > 0 && (p.score >= (sites.get(p.site) ?? group) || (near !== undefined && p.score >= near && !templates.has(p.site)))));
  const sb = rule.siteBest;
  if (sb) {
    const bar = (site: string) => Math.max(floor, sb.overGroup * noise, sb.overSite * (siteNoise.get(site) ?? 0));
    for (const [site, i] of bestOfSites(pages)) {
      const p = pages[i]!;
      if (p.score > 0 && p.score >= bar(site)) out[i] = true;
    }
    if (rule.siteNext !== undefined) selectRunnersUp(pages, out, rule.siteNext, bar);
  }
  return out;
}

/**
 * Where a kind comes as several pages of a site (a change log split by version, release notes
 * beside a history page), they score close to each other and the site's best alone left the
 * others out: on a site without samples, a page within `fraction` of the site's best selected
 * page, over the site's bar, joins it.
 */
function selectRunnersUp(pages: readonly ScoredPage[], out: boolean[], fraction: number, bar: (site: string) => number): void {
  const withSamples = new Set(pages.filter((p) => p.sample).map((p) => p.site));
  const top = new Map<string, number>();
  pages.forEach((p, i) => {
    if (out[i] && !withSamples.has(p.site)) top.set(p.site, Math.max(top.get(p.site) ?? 0, p.score));
  });
  pages.forEach((p, i) => {
    const best = top.get(p.site);
    if (best === undefined || out[i] || p.entry || p.score <= 0) return;
    if (p.score >= fraction * best && p.score >= bar(p.site)) out[i] = true;
  });
}
