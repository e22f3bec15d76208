import type { RankedPage } from '../../src/group/group-crawl.js';

export interface GroupGrade {
  precision: number;
  recall: number;
  f1: number;
  /** Pages returned as targets. */
  returned: number;
  /** Targets fetched (whether returned or not). */
  reached: number;
  /** Sites with a target, and how many of them have a target as their best-ranked page. */
  sitesWithTarget: number;
  bestIsTarget: number;
  /** Sites without a target, and how many of them return nothing. */
  sitesWithout: number;
  emptyRight: number;
}

/**
 * Precision, recall and F1 of the pages returned as targets against the labels (recall over
 * every labelled target reachable from a start page, fetched or not), and two per-site views:
 * whether the ranking puts a target first, and whether sites without one return nothing.
 * `pages` is ranked per site, best first (runGroupCrawl's order).
 */
/**
 * The examples are left out of every figure (pages and targets): they were given, so finding them
 * is no result; each run had three hits for free, and the examples' sites their best page right.
 */
export function gradeGroup(allPages: readonly RankedPage[], allTargets: ReadonlySet<string>, sites: readonly { name: string; root: string }[], examples: ReadonlySet<string> = new Set()): GroupGrade {
  const pages = examples.size ? allPages.filter((p) => !examples.has(p.url)) : allPages;
  const targets = examples.size ? new Set([...allTargets].filter((t) => !examples.has(t))) : allTargets;
  const returned = pages.filter((p) => p.target);
  const hits = returned.filter((p) => targets.has(p.url)).length;
  const precision = returned.length ? hits / returned.length : 0;
  const recall = targets.size ? hits / targets.size : 0;
  const bySite = new Map<string, RankedPage[]>(sites.map((s) => [s.name, []]));
  for (const p of pages) bySite.get(p.site)?.push(p);
  const g = { sitesWithTarget: 0, bestIsTarget: 0, sitesWithout: 0, emptyRight: 0 };
  for (const s of sites) {
    const list = bySite.get(s.name)!;
    if ([...targets].some((t) => t.startsWith(s.root))) {
      g.sitesWithTarget++;
      if (list[0] && targets.has(list[0].url)) g.bestIsTarget++;
    } else {
      g.sitesWithout++;
      if (!list.some((p) => p.target)) g.emptyRight++;
    }
  }
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, returned: returned.length, reached: pages.filter((p) => targets.has(p.url)).length, ...g };
}
