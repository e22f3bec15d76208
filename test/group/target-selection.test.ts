import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quantile, selectionCuts, selectTargets, type ScoredPage, type SelectionRule } from '../../src/group/target-selection.js';

const RULE: SelectionRule = { noiseQuantile: 0.9, overGroup: 2.5, overSite: 2 };

/** A site's pages: `n` ordinary pages with scores spread evenly from lo to hi, then the given extra scores. */
function site(name: string, n: number, lo: number, hi: number, extra: number[] = []): ScoredPage[] {
  const pages = Array.from({ length: n }, (_x, i) => ({ site: name, score: lo + ((hi - lo) * i) / Math.max(1, n - 1) }));
  return [...pages, ...extra.map((score) => ({ site: name, score }))];
}
const selected = (pages: ScoredPage[], rule = RULE) => {
  const t = selectTargets(pages, rule);
  return pages.filter((_p, i) => t[i]).map((p) => `${p.site}:${p.score}`);
};

test('quantile interpolates between order statistics', () => {
  assert.equal(quantile([], 0.9), 0);
  assert.equal(quantile([3, 1, 2], 0.5), 2);
  assert.ok(Math.abs(quantile([0, 10], 0.9) - 9) < 1e-12);
});

test('a page clearly above the group is selected; a site with no target returns nothing', () => {
  // Real documentation sites: ordinary pages 0-0.12, targets 0.2-0.45 (issue 16's figures).
  const pages = [...site('a', 30, 0, 0.12, [0.42]), ...site('b', 30, 0, 0.1, [0.31]), ...site('c', 30, 0, 0.12), ...site('d', 30, 0, 0.11, [0.18])];
  const { group } = selectionCuts(pages, RULE);
  assert.ok(group > 0.25 && group < 0.3, `group cut ${group}`);
  // c has no target: its best ordinary page (0.12) is nowhere near the cut. d's best (0.18)
  // stands out on its site but not from the group: a site with no target at 0.18-0.28 returns nothing.
  assert.deepEqual(selected(pages), ['a:0.42', 'b:0.31']);
});

test('the cut follows the scale of the scores, not an absolute value', () => {
  // The same group with every score halved (another language, less alike examples): the same pages.
  const pages = [...site('a', 30, 0, 0.12, [0.42]), ...site('b', 30, 0, 0.1, [0.31]), ...site('c', 30, 0, 0.12)];
  const half = pages.map((p) => ({ ...p, score: p.score / 2 }));
  assert.deepEqual(selected(half).map((s) => s.split(':')[0]), selected(pages).map((s) => s.split(':')[0]));
  assert.deepEqual(selected(half), ['a:0.21', 'b:0.155']);
});

test('a site whose every page resembles the samples does not return them all', () => {
  // Site t: a template the boilerplate filter missed, every page at 0.3-0.4; the group's cut is lower.
  const pages = [...site('a', 30, 0, 0.1, [0.5]), ...site('b', 30, 0, 0.1, [0.45]), ...site('c', 30, 0, 0.1), ...site('t', 10, 0.3, 0.4)];
  const { group, sites } = selectionCuts(pages, RULE);
  assert.ok(sites.get('t')! > group);
  assert.deepEqual(selected(pages).filter((s) => s.startsWith('t:')), []);
});

test('several targets on one site are all selected; samples always; a zero never', () => {
  const pages: ScoredPage[] = [...site('a', 40, 0, 0.1, [0.41, 0.33, 0.3]), ...site('b', 40, 0, 0.1, [0.5]), { site: 'c', score: 0.05, sample: true }];
  assert.deepEqual(selected(pages), ['a:0.41', 'a:0.33', 'a:0.3', 'b:0.5', 'c:0.05']);
  // Nothing but zeros: nothing is selected, though every score reaches a cut of 0.
  assert.deepEqual(selected(site('z', 10, 0, 0)), []);
});
