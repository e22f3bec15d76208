import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BestFirstStrategy } from '../../src/strategies/best-first.js';
import { InheritRecoverStrategy } from '../../src/strategies/inherit-recover.js';
import { createStrategy } from '../../src/strategies/registry.js';
import { SharkStrategy } from '../../src/strategies/shark.js';
import { WeightedLevelsStrategy, stopFiltered } from '../../src/strategies/weighted-levels.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import type { CarriedState, CrawlRequest, Link, Page } from '../../src/types.js';

const topic = topicFromFile({
  name: 'solar',
  keywords: { solar: 1, panel: 1 },
  links: { keywords: ['solar'], abbreviations: ['pv'] },
});
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);
const request = (data: CarriedState | null, depth = 1): CrawlRequest => ({ key: '0000000000000001', id: 1, url: 'http://a.test/p', host: 'a.test', depth, parent: null, anchor: '', priority: 0, data, attempts: 0 });
const page = (title: string, text: string): Page => ({ url: 'http://a.test/p', title, text, headings: '', links: [], canonical: null, noindex: false, nofollow: false, encoding: 'UTF-8' });
const link = (url: string, anchor: string, context?: string): Link => ({ url, anchor, nofollow: false, context });

test('method A: the A -> C -> F tunnel keeps a decaying priority and recovers to m0', () => {
  const s = new InheritRecoverStrategy(topic);
  assert.deepEqual(s.seed().data, { m: 100, r: 1 });
  // A (a seed, m = m0) links to C with an irrelevant anchor: decay, m(C) = 100 * 0.8.
  const [toC] = s.scoreLinks({ request: request({ m: 100, r: 1 }), page: page('A', 'solar'), relevance: 0.9 }, [link('http://a.test/c', 'more news')]);
  assert.deepEqual(toC!.data, { m: 80, r: 0 });
  // C (irrelevant, m = 80) links to F with a relevant anchor (r = 1 > f): recovery, m(F) = m0.
  const [toF, toG] = s.scoreLinks({ request: request({ m: 80, r: 0 }), page: page('C', 'football'), relevance: 0 }, [link('http://a.test/f', 'solar panel'), link('http://a.test/g', 'sports')]);
  assert.equal(toF!.data!.m, 100);
  close(toF!.priority, 100_000 + 1);
  assert.deepEqual(toG!.data, { m: 64, r: 0 });
  // Best-first gives F nothing: C's own relevance is 0.
  const bf = new BestFirstStrategy(topic).scoreLinks({ request: request(null), page: page('C', 'football'), relevance: 0 }, [link('http://a.test/f', 'solar panel')]);
  assert.equal(bf[0]!.priority, 0);
  assert.ok(toF!.priority > toC!.priority && toC!.priority > toG!.priority, 'order: m, then r');
});

test('method A: order by m, ties broken by the link relevance r', () => {
  const s = new InheritRecoverStrategy(topic, { f: 0.9 });
  const [a, b] = s.scoreLinks({ request: request({ m: 100 }), page: page('', ''), relevance: 0 }, [link('http://x/1', 'solar panel'), link('http://x/2', 'solar news today')]);
  // Both anchors are below f = 0.9 except the first (cosine 1): m 100 vs 80.
  assert.equal(a!.data!.m, 100);
  assert.equal(b!.data!.m, 80);
  const [c, d] = new InheritRecoverStrategy(topic, { f: 0.99 }).scoreLinks({ request: request({ m: 80 }), page: page('', ''), relevance: 0 }, [link('http://x/3', 'solar news'), link('http://x/4', 'news')]);
  assert.equal(c!.data!.m, d!.data!.m);
  assert.ok(c!.priority > d!.priority, 'equal m: the more relevant anchor first');
});

test('method B: lambda-weighted levels, priority 0 discarded, relevant links on irrelevant pages kept, stop filter', () => {
  const s = new WeightedLevelsStrategy(topic);
  const irrelevant = { request: request(null), page: page('Football', 'match report'), relevance: 0 };
  const [plain, keyword, abbreviation, image, social] = s.scoreLinks(irrelevant, [
    link('http://a.test/news', 'news'),
    link('http://a.test/solar-list', 'services'),
    link('http://a.test/pv/', 'maps'),
    link('http://a.test/solar.jpg', 'solar photo'),
    link('https://www.facebook.com/solar', 'solar'),
  ]);
  assert.equal(plain, null, 'irrelevant link on an irrelevant page');
  close(keyword!.priority, 0.7 * 2);
  close(abbreviation!.priority, 0.7 * 1);
  assert.equal(image, null);
  assert.equal(social, null);
  // A highly relevant page (level 2): even a plain link is kept, at (1 - lambda) * 2.
  const [onRelevant] = s.scoreLinks({ request: request(null), page: page('Solar panel', 'solar panel solar panel'), relevance: 1 }, [link('http://a.test/x', 'next')]);
  close(onRelevant!.priority, 0.3 * 2);
  assert.equal(stopFiltered('http://a.test/page.html'), false);
});

test('shark-search: inherited, anchor and anchor-context scores with d = 0.5, beta = gamma = 0.8', () => {
  const s = new SharkStrategy(topic);
  // sim(p) = 0.6: inherited = 0.3. Anchor 'solar news': cosine 1/sqrt(2 * 2) = 0.5, so context = 1.
  const [a] = s.scoreLinks({ request: request({ inherited: 1 }), page: page('', ''), relevance: 0.6 }, [link('http://x/1', 'solar news')]);
  close(a!.priority, 0.8 * 0.3 + 0.2 * (0.8 * 0.5 + 0.2 * 1));
  // sim(p) = 0, inherited(p) = 0.4: inherited = 0.2. Anchor 0; context 'solar panel news' cosine 2/sqrt(3 * 2).
  const [b] = s.scoreLinks({ request: request({ inherited: 0.4 }), page: page('', ''), relevance: 0 }, [link('http://x/2', 'click', 'solar panel news')]);
  close(b!.priority, 0.8 * 0.2 + 0.2 * (0.2 * (2 / Math.sqrt(6))));
  assert.equal(s.linkContext, 100);
});

test('strategy options are checked by name', () => {
  assert.equal((createStrategy('inherit-recover', topic, { b: 0.5 }) as InheritRecoverStrategy).options.b, 0.5);
  assert.throws(() => createStrategy('inherit-recover', topic, { b: 1.5 }), /strategy 'inherit-recover' option 'b': must be below 1$/);
  assert.throws(() => createStrategy('shark', topic, { speed: 1 }), /strategy 'shark' option 'speed': unknown \(shark takes d, beta, gamma, context\)$/);
  assert.throws(() => createStrategy('shark', topic, { dd: 1 }), /strategy 'shark' option 'dd': unknown \(did you mean 'd'\?\)$/);
  assert.throws(() => createStrategy('bfs', null, { zzz: 1 }), /strategy 'bfs' option 'zzz': unknown \(bfs takes none\)$/);
});
