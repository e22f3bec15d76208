import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TwoStepStrategy, twoStepScore } from '../../src/strategies/two-step.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import type { CarriedState, CrawlRequest, Link, Page } from '../../src/types.js';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

test("the source's worked example: rel 0.9 with children 0.9, 0.8, 0.7 gives 0.87", () => {
  close(twoStepScore(0.9, [0.9, 0.8, 0.7], 0.2), 0.7 * 0.9 + 0.3 * 0.8);
});

test('noise rules: a few very low children among relevant ones are dropped; no highly relevant child, no out-link term', () => {
  // threshold 0.2: relevant >= 0.2, very low < 0.1, highly relevant >= 0.4.
  close(twoStepScore(0.5, [0.6, 0.5, 0.4, 0.05], 0.2), 0.7 * 0.5 + 0.3 * 0.5); // 0.05 dropped
  close(twoStepScore(0.5, [0.6, 0.05, 0.02], 0.2), 0.7 * 0.5 + 0.3 * (0.67 / 3)); // most are not relevant: all kept
  assert.equal(twoStepScore(0.5, [0.3, 0.25, 0.2], 0.2), 0.5); // none highly relevant
  assert.equal(twoStepScore(0.5, [], 0.2), 0.5);
});

test('a regular page sends its best-anchored links ahead; look-ahead pages report back and score the grandchildren', () => {
  const topic = topicFromFile({ name: 'solar', keywords: { solar: 1, panel: 1 }, threshold: 0.2 });
  const s = new TwoStepStrategy(topic, { lookahead: 2 });
  const page = { url: 'http://a/', title: '', text: '', headings: '', links: [], canonical: null, noindex: false, nofollow: false, encoding: 'UTF-8' } as Page;
  const req = (id: number, data: CarriedState | null): CrawlRequest => ({ id, url: `http://a/${id}`, host: 'a', depth: 1, parentId: null, anchor: '', priority: 0, data, attempts: 0 });
  const links: Link[] = ['news', 'solar panel', 'about', 'solar'].map((anchor, i) => ({ url: `http://a/x${i}`, anchor, nofollow: false }));
  const d = s.scoreLinks({ request: req(7, null), page, relevance: 0.9 }, links);
  assert.deepEqual(d.map((x) => x.priority), [0.9, 10.9, 0.9, 10.9]);
  assert.deepEqual(d[1]!.data, { lookaheadOf: 7 });
  // The look-ahead pages come back with 0.9 and 0.8: the grandchildren get score(u).
  s.scoreLinks({ request: req(8, { lookaheadOf: 7 }), page, relevance: 0.9 }, []);
  const g = s.scoreLinks({ request: req(9, { lookaheadOf: 7 }), page, relevance: 0.8 }, [links[0]!]);
  close(g[0]!.priority, 0.7 * 0.9 + 0.3 * 0.85);
});
