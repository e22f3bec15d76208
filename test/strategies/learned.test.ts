import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LearnedStrategy } from '../../src/strategies/learned.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import type { CarriedState, CrawlRequest, Link, Page } from '../../src/types.js';

const topic = topicFromFile({ name: 'solar', keywords: { solar: 1, panel: 1 } });
const request = (host: string, data: CarriedState | null): CrawlRequest => ({ key: '0000000000000001', id: 1, url: `http://${host}/p`, host, depth: 1, parent: null, anchor: '', priority: 0, data, attempts: 0 });
const page = { url: 'http://a.test/p', title: '', text: '', headings: '', links: [], canonical: null, noindex: false, nofollow: false, encoding: 'UTF-8' } as Page;
const link = (url: string, anchor: string): Link => ({ url, anchor, nofollow: false });

test('each fetched page teaches the model about the link that led to it', () => {
  const s = new LearnedStrategy(topic, { explore: 0 });
  const good = s.features(link('http://a.test/reviews/1', 'inverter reviews'), 0.5, 2);
  const bad = s.features(link('http://a.test/sport/1', 'match report'), 0.5, 2);
  // Untrained, both rank as the starting weights say: same parent, no topic word in either anchor.
  assert.equal(s.probability(good), s.probability(bad));
  for (let i = 0; i < 20; i++) {
    // The page reached through the 'good' link was relevant, the other was not.
    s.scoreLinks({ request: request('a.test', { f: good }), page, relevance: 0.9 }, []);
    s.scoreLinks({ request: request('a.test', { f: bad }), page, relevance: 0 }, []);
  }
  assert.ok(s.probability(good) > 0.8, String(s.probability(good)));
  assert.ok(s.probability(bad) < 0.2, String(s.probability(bad)));
  // A new link sharing the learnt words ranks above one sharing the bad ones.
  const [a, b] = s.scoreLinks({ request: request('a.test', null), page, relevance: 0.5 }, [link('http://a.test/reviews/9', 'inverter reviews'), link('http://a.test/sport/9', 'match report')]);
  assert.ok(a!.priority > b!.priority);
  const carried = a!.data!.f as { sparse: unknown; dense: unknown };
  assert.ok(Array.isArray(carried.sparse) && Array.isArray(carried.dense), 'the link carries its features to the page it leads to');
});

test('untrained, the starting weights rank a topical anchor on a relevant page first', () => {
  const s = new LearnedStrategy(topic, { explore: 0 });
  const [topical, plain] = s.scoreLinks({ request: request('a.test', null), page, relevance: 0.5 }, [link('http://a.test/x', 'solar panel'), link('http://a.test/y', 'contact')]);
  // z = -2 + 2 * 1 (parent: 0.5 / 0.4 capped) + 2 * 1 (anchor) for the first, -2 + 2 for the second.
  assert.ok(Math.abs(topical!.priority - 1 / (1 + Math.exp(-2))) < 1e-9, String(topical!.priority));
  assert.ok(Math.abs(plain!.priority - 0.5) < 1e-9, String(plain!.priority));
});

test('exploration favours hosts the crawl has not fetched from yet', () => {
  const s = new LearnedStrategy(topic, { explore: 0.2 });
  for (let i = 0; i < 8; i++) s.scoreLinks({ request: request('busy.test', null), page, relevance: 0 }, []);
  const [busy, fresh] = s.scoreLinks({ request: request('busy.test', null), page, relevance: 0 }, [link('http://busy.test/x', 'news'), link('http://fresh.test/x', 'news')]);
  assert.ok(fresh!.priority - busy!.priority > 0.1, `${fresh!.priority} vs ${busy!.priority}`);
});

test('two copies of learned that hear each other score links as one copy that fetched every page', () => {
  const one = new LearnedStrategy(topic);
  const a = new LearnedStrategy(topic);
  const b = new LearnedStrategy(topic);
  a.evidence();
  b.evidence();
  const good = one.features(link('http://a.test/reviews/1', 'inverter reviews'), 0.5, 2);
  const bad = one.features(link('http://b.test/sport/1', 'match report'), 0.5, 2);
  for (let i = 0; i < 6; i++) {
    const view = { request: request(i % 2 ? 'b.test' : 'a.test', { f: i % 2 ? bad : good }), page, relevance: i % 2 ? 0 : 0.9 };
    one.scoreLinks(view, []);
    // Pages alternate between the copies, each hearing the other's right after.
    const [own, other] = i % 3 ? [a, b] : [b, a];
    own.scoreLinks(view, []);
    other.hear(own.evidence());
  }
  const links = [link('http://a.test/reviews/9', 'inverter reviews'), link('http://b.test/sport/9', 'match report'), link('http://c.test/x', 'solar')];
  const last = (s: LearnedStrategy) => s.scoreLinks({ request: request('c.test', null), page, relevance: 0.5 }, links);
  const want = last(one);
  assert.deepEqual(last(a), want);
  assert.deepEqual(last(b), want);
  // Records no copy of this version gives are not heard.
  const c = new LearnedStrategy(topic);
  c.hear([null, { h: 'a.test', y: 1, f: { sparse: [-1], dense: [0, 0, 0] } }, { h: 'a.test', y: 1, f: { sparse: [1], dense: [0, 0, 9] } }, { h: 'a.test', y: 3, f: null }]);
  assert.deepEqual(last(c), last(new LearnedStrategy(topic)));
  // Without hearing, a copy knows only its own pages.
  const d = new LearnedStrategy(topic);
  d.scoreLinks({ request: request('a.test', { f: good }), page, relevance: 0.9 }, []);
  assert.notDeepEqual(last(d), want);
});
