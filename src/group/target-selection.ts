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
}

/**
 * Chosen on bench/group-real's licence pages and the generated group of web seed 11; sectionParts
 * on the licence and FAQ pages and seed 11 (docs/benchmarks.md).
 */
export const DEFAULT_SELECTION: SelectionRule = { noiseQuantile: 0.9, overGroup: 2.5, overSite: 2, sectionParts: 0.75 };

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
}

/** The cut each site's pages must reach under `rule`, from the scores alone. */
export function selectionCuts(pages: readonly ScoredPage[], rule: SelectionRule): { noise: number; group: number; sites: Map<string, number> } {
  const others = pages.filter((p) => !p.sample);
  const noise = quantile(others.map((p) => p.score), rule.noiseQuantile);
  const group = rule.overGroup * noise;
  const bySite = new Map<string, number[]>();
  for (const p of others) (bySite.get(p.site) ?? bySite.set(p.site, []).get(p.site)!).push(p.score);
  const sites = new Map<string, number>();
  for (const [site, scores] of bySite) sites.set(site, Math.max(group, rule.overSite * quantile(scores, rule.noiseQuantile)));
  return { noise, group, sites };
}

/**
 * Which pages are targets, in the order given. A score of 0 is never selected (a page sharing
 * no term with any sample), whatever the noise levels.
 */
export function selectTargets(pages: readonly ScoredPage[], rule: SelectionRule): boolean[] {
  const { group, sites } = selectionCuts(pages, rule);
  return pages.map((p) => p.sample === true || (p.score > 0 && p.score >= (sites.get(p.site) ?? group)));
}
