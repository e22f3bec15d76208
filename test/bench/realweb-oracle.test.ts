import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oracleFoundAt, oracleOrder, reachable } from '../../bench/realweb/oracle.js';
import { grade } from '../../bench/realweb/grade.js';

// 0 -> 1 -> 3(t)            Greedy, by targets per new page on the path:
// 0 -> 2 -> 4(t) -> 5(t)      from {0}: 3 costs 2 pages for 1 target (0.5); 5 costs 3 for 2 (0.67):
//                 -> 6(t)     take 2,4,5; then 6 costs 1 for 1; then 1,3. Page 7 (a target) has no
// 7(t), 8 -> 7                link from the reachable part, so it does not count.
const g = { root: 0, out: [[1, 2], [3], [4], [], [5, 6], [], [], [], [7]] };
const targets = new Set([3, 4, 5, 6, 7]);

test('reachable pages from the start page', () => {
  assert.deepEqual([...reachable(g)].sort(), [0, 1, 2, 3, 4, 5, 6]);
});

test('the oracle takes the path with the most targets per page first, and counts only reachable targets', () => {
  const o = oracleOrder(g, targets);
  assert.deepEqual(o.order, [0, 2, 4, 5, 6, 1, 3]);
  assert.equal(o.pages, 7);
  assert.equal(o.reachableTargets, 4);
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 20].map((k) => oracleFoundAt(o, targets, k)), [0, 0, 1, 2, 3, 3, 4, 4]);
});

test('every page of the oracle order is linked from a page before it', () => {
  const o = oracleOrder(g, targets);
  o.order.slice(1).forEach((v, i) => assert.ok(o.order.slice(0, i + 1).some((u) => g.out[u]!.includes(v)), `page ${v}`));
});

test('a root that is itself the only target needs one page', () => {
  assert.deepEqual(oracleOrder({ root: 0, out: [[1], []] }, new Set([0])), { order: [0], reachableTargets: 1, pages: 1 });
});

test('grade: recall and harvest at page budgets, over the pages fetched when a crawl stops early', () => {
  const t = new Set(['b', 'd']);
  const r = grade(['a', 'b', 'c', 'd'], t, { '10': 1, '20': 2, '50': 4, '100': 8 });
  assert.deepEqual(r.recall, { '10': 0, '20': 0.5, '50': 1, '100': 1 });
  assert.deepEqual(r.harvest, { '10': 0, '20': 0.5, '50': 0.5, '100': 0.5 });
  assert.deepEqual(r.found, [0, 1, 1, 2]);
});

test("grade: an ordering that is a bound (the oracle's) has its harvest over the whole budget, not over its own few pages", () => {
  const t = new Set(['b', 'd']);
  const r = grade(['a', 'b', 'c', 'd'], t, { '50': 4, '100': 8 }, 'budget');
  assert.deepEqual(r.harvest, { '50': 0.5, '100': 0.25 }, 'the oracle ends with every target in: 2 of 8, not 2 of 4');
  assert.deepEqual(r.recall, { '50': 1, '100': 1 });
});
