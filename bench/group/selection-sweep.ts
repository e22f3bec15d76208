import type { RankedPage } from '../../src/group/group-crawl.js';
import { DEFAULT_SELECTION, selectTargets, type SelectionRule } from '../../src/group/target-selection.js';

/** The settings of the selection rule a sweep tries: the median as noise level at several multiples, then other quantiles. */
export const SWEEP: SelectionRule[] = [
  ...[4, 6, 8, 10, 12].flatMap((overGroup) => [1, 3, 5].map((overSite) => ({ noiseQuantile: 0.5, overGroup, overSite }))),
  { noiseQuantile: 0.75, overGroup: 4, overSite: 2 },
  { noiseQuantile: 0.75, overGroup: 5, overSite: 2 },
  { noiseQuantile: 0.9, overGroup: 2.5, overSite: 2 },
  DEFAULT_SELECTION,
];

export const ruleName = (r: SelectionRule) => `q ${r.noiseQuantile}, group x${r.overGroup}, site x${r.overSite}${r.sectionParts !== undefined ? ', section parts (the default)' : ''}`;

/**
 * A finished run's pages re-selected under another rule (the crawl and the library as they were:
 * the rule also decided which pages joined the library between rounds, which this does not redo).
 * A rule with section parts adds the parts the run returned (the report's `parts`, found at the
 * run's own noise level).
 */
/**
 * The crawl's pages selected again under `rule`, as the crawl selects (start pages never, the
 * floor from the library's `coherence`): without those two the default rule's row did not give
 * the run's own figures.
 */
export function reselect(pages: readonly RankedPage[], samples: ReadonlySet<string>, rule: SelectionRule, parts: ReadonlySet<string> = new Set(), coherence?: number): RankedPage[] {
  const picked = selectTargets(pages.map((p) => ({ site: p.site, score: p.score, sample: samples.has(p.url), entry: p.path.length === 0 })), rule, coherence);
  return pages.map((p, i) => ({ ...p, target: picked[i]! || (rule.sectionParts !== undefined && parts.has(p.url)) }));
}

export interface Prf { precision: number; recall: number; f1: number; returned: number }
/**
 * Precision, recall and F1 of the pages selected as targets. The examples are left out of both
 * sides: they were given, so finding them is no result (each run had three hits for free).
 */
export function prf(pages: readonly RankedPage[], allTargets: ReadonlySet<string>, examples: ReadonlySet<string> = new Set()): Prf {
  const targets = examples.size ? new Set([...allTargets].filter((t) => !examples.has(t))) : allTargets;
  const returned = pages.filter((p) => p.target && !examples.has(p.url));
  const hits = returned.filter((p) => targets.has(p.url)).length;
  const precision = returned.length ? hits / returned.length : 0;
  const recall = targets.size ? hits / targets.size : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, returned: returned.length };
}
