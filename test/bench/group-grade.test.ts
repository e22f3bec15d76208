import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gradeGroup } from '../../bench/group-real/group-grade.js';
import { prf } from '../../bench/group/selection-sweep.js';
import type { RankedPage } from '../../src/group/group-crawl.js';

const page = (site: string, url: string, score: number, target: boolean): RankedPage => ({ site, root: site, url, path: [], score, target });

test('group grading leaves the given examples out of the pages found and of the targets', () => {
  const sites = [{ name: 'a', root: 'http://a/' }, { name: 'b', root: 'http://b/' }];
  // Site a: its example (returned, as BFC always returns its samples) and a second target, missed; site b: one target, found, and a wrong page.
  const pages = [page('a', 'http://a/example', 1, true), page('a', 'http://a/other', 0.2, false), page('a', 'http://a/t2', 0.1, false), page('b', 'http://b/t', 0.5, true), page('b', 'http://b/x', 0.4, true)];
  const targets = new Set(['http://a/example', 'http://a/t2', 'http://b/t']);
  const examples = new Set(['http://a/example']);
  const g = gradeGroup(pages, targets, sites, examples);
  assert.deepEqual([g.precision, g.recall, g.returned], [0.5, 0.5, 2], 'one of the two returned pages is right; one of the two targets to find is found');
  assert.deepEqual([g.bestIsTarget, g.sitesWithTarget], [1, 2], "site a's best page, its example left out, is not a target");
  const counted = gradeGroup(pages, targets, sites);
  assert.deepEqual([counted.precision, counted.recall], [2 / 3, 2 / 3], 'with the example counted, as before');
  const p = prf(pages, targets, examples);
  assert.deepEqual([p.precision, p.recall, p.returned], [0.5, 0.5, 2]);
});
