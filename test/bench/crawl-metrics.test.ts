import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlMetrics } from '../../src/bench/crawl-metrics.js';

test('harvest, recall, F1 and time-to-targets from a fetch order, computed by hand', () => {
  const labels = new Set(['t1', 't2', 't3', 't4']);
  // 10 fetches, budget 10: targets at positions 2, 5 and 6.
  const order = ['a', 't1', 'b', 'c', 't2', 't3', 'd', 'e', 'f', 'g'];
  const m = crawlMetrics('x', order, labels, 10, 2);
  assert.deepEqual(m.found, [0, 1, 1, 1, 2, 3, 3, 3, 3, 3]);
  assert.equal(m.harvestAt['10%'], 0); // 1 fetch: a
  assert.equal(m.harvestAt['25%'], 1 / 3); // round(2.5) = 3 fetches: a t1 b
  assert.equal(m.harvestAt['50%'], 2 / 5);
  assert.equal(m.harvestAt['100%'], 3 / 10);
  assert.equal(m.recallAt['100%'], 3 / 4);
  assert.ok(Math.abs(m.f1 - (2 * 0.3 * 0.75) / (0.3 + 0.75)) < 1e-12);
  assert.equal(m.toFirst, 2);
  assert.equal(m.toHalf, 5);
  assert.equal(m.pagesPerSecond, 5);
  assert.equal(crawlMetrics('y', ['a', 'b'], labels, 10, 1).toFirst, null);
});
