import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SiblingFamilies } from '../../src/strategies/sibling-families.js';

const links = (parent: string, n: number) => Array.from({ length: n }, (_, i) => ({ url: `${parent}/${i}`, anchor: `entry ${i}`, priority: 0.2, data: null }));

/** A crawl of `others` off-topic pages, then `onTopic` children of page `index` (of `size` links) fetched on topic. */
function crawl(size: number, onTopic: number, others: number): SiblingFamilies {
  const s = new SiblingFamilies({ prior: 2, maxLift: 4, track: 10_000 });
  s.add('index', 1, links('index', size));
  for (let i = 0; i < others; i++) s.fetched(`off/${i}`, null, 0);
  for (let i = 0; i < onTopic; i++) s.fetched(`index/${i}`, 'index', 1);
  return s;
}

test('a chapter index is compared with the crawl without its own children: its entries keep rising once the crawl is inside it', () => {
  // 10 of a 20-entry index on topic, 2 pages off topic elsewhere: the crawl's mean with the
  // index's children is about 0.8, without them 0.17.
  const s = crawl(20, 10, 2);
  assert.ok(s.liftOf('index') > 3, `lift ${s.liftOf('index')}`);
  const reoffers = s.reoffers();
  assert.ok(reoffers.length > 0 && reoffers.every((r) => r.url.startsWith('index/')));
  assert.ok(Math.max(...reoffers.map((r) => r.priority)) > 0.2 * 3);
});

test('a table of contents of more than 64 links is compared with the whole crawl: its first children do not raise the rest', () => {
  const s = crawl(600, 10, 2);
  assert.ok(s.liftOf('index') < 1.5, `lift ${s.liftOf('index')}`);
  // The bound is on the family's size when it was made, also after a resume: 100 links, 40 fetched,
  // 60 waiting, is still a large family.
  const big = crawl(100, 40, 2);
  const copy = new SiblingFamilies({ prior: 2, maxLift: 4, track: 10_000 });
  copy.restore(JSON.parse(JSON.stringify(big.snapshot())));
  assert.equal(copy.liftOf('index'), big.liftOf('index'));
  assert.ok(big.liftOf('index') < 1.5);
});
