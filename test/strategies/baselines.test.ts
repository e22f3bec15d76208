import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BestFirstStrategy } from '../../src/strategies/best-first.js';
import { BfsStrategy } from '../../src/strategies/bfs.js';
import { createStrategy } from '../../src/strategies/registry.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import type { CrawlRequest, Page } from '../../src/types.js';

const topic = topicFromFile({ name: 't', keywords: { solar: 1 }, threshold: 0.2 });
const request = (depth: number): CrawlRequest => ({ key: '0000000000000001', id: 1, url: 'http://a/', host: 'a', depth, parent: null, anchor: '', priority: 0, data: null, attempts: 0 });
const page = { url: 'http://a/', title: '', text: '', headings: '', links: [], canonical: null, noindex: false, nofollow: false, encoding: 'UTF-8' } as Page;
const links = [{ url: 'http://a/1', anchor: 'x', nofollow: false }, { url: 'http://a/2', anchor: 'y', nofollow: false }];

test('bfs: children get -(depth + 1), seeds 0', () => {
  const s = new BfsStrategy(null);
  assert.equal(s.seed().priority, 0);
  assert.deepEqual(s.scoreLinks({ request: request(2), page, relevance: null }, links).map((d) => d.priority), [-3, -3]);
});

test("best-first: children get the parent page's relevance, seeds 1", () => {
  const s = new BestFirstStrategy(topic);
  assert.equal(s.seed().priority, 1);
  assert.deepEqual(s.scoreLinks({ request: request(0), page, relevance: 0.42 }, links).map((d) => d.priority), [0.42, 0.42]);
});

test('the registry names strategies and checks that a topic is given', () => {
  assert.equal(createStrategy('bfs', null).name, 'bfs');
  assert.equal(createStrategy('best-first', topic).name, 'best-first');
  assert.throws(() => createStrategy('best-first', null), /needs a topic/);
  assert.throws(() => createStrategy('nope', null), /unknown strategy 'nope' \(known: bfs, best-first, shark, inherit-recover, weighted-levels, two-step, threshold, adaptive, learned\)/);
});
