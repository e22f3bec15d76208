import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdaptiveStrategy } from '../../src/strategies/adaptive.js';
import { defaultStrategyName } from '../../src/strategies/registry.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import type { CrawlRequest, Link, Page } from '../../src/types.js';

const topic = topicFromFile({ name: 'solar', keywords: { solar: 3, inverter: 2, photovoltaic: 3 }, threshold: 0.2 });
const request = (url: string, data: CrawlRequest['data'] = null, depth = 1): CrawlRequest => ({ key: '0000000000000001', id: 1, url, host: 'a.test', depth, parent: null, anchor: '', priority: 0, data, attempts: 0 });
const page = (url: string): Page => ({ url, title: '', text: '', headings: '', links: [], canonical: null, noindex: false, nofollow: false, encoding: 'UTF-8' });
const link = (url: string, anchor: string): Link => ({ url, anchor, nofollow: false });

// A documentation site: every page carries the same sidebar of 5 links.
const SIDEBAR = ['Introduction', 'Solar inverters', 'Installation', 'FAQ', 'Glossary'].map((a, i) => link(`http://a.test/nav/${i}`, a));

test('the default strategy with a topic is adaptive; without one, bfs', () => {
  assert.equal(defaultStrategyName(true), 'adaptive');
  assert.equal(defaultStrategyName(false), 'bfs');
});

test('a sidebar link gets less from its parent than a body link with the same anchor', () => {
  const s = new AdaptiveStrategy(topic, { learn: 0 });
  // Ten pages of the host scored, each with the sidebar: the sidebar links are navigation now.
  for (let i = 0; i < 10; i++) s.scoreLinks({ request: request(`http://a.test/p${i}`), page: page(`http://a.test/p${i}`), relevance: 0.1 }, SIDEBAR);
  const view = { request: request('http://a.test/solar'), page: page('http://a.test/solar'), relevance: 0.6 };
  const [sidebar, body] = s.scoreLinks(view, [SIDEBAR[1]!, link('http://a.test/body/7', 'Solar inverters')]);
  const eSide = s.explain(view, SIDEBAR[1]!);
  const eBody = s.explain(view, link('http://a.test/body/7', 'Solar inverters'));
  // navigation = count / (pages + 4): 11 / 15 for the sidebar, 1 / 15 for the body link.
  assert.ok(Math.abs(eSide.navigation - 11 / 15) < 1e-9, String(eSide.navigation));
  assert.ok(Math.abs(eBody.navigation - 1 / 15) < 1e-9, String(eBody.navigation));
  assert.equal(eSide.anchor, eBody.anchor, 'the anchor counts the same wherever the link is');
  // parent = min(1, 0.6 / 0.2) = 1; base = (1 * (1 - 0.8 * nav) + anchor) / 2.
  assert.ok(Math.abs(sidebar!.priority - (1 - 0.8 * (11 / 15) + eSide.anchor) / 2) < 1e-9);
  assert.ok(Math.abs(body!.priority - (1 - 0.8 * (1 / 15) + eBody.anchor) / 2) < 1e-9);
  assert.ok(body!.priority > sidebar!.priority);
  // An off-topic sidebar entry on the same relevant page ranks below both.
  const [glossary] = s.scoreLinks(view, [SIDEBAR[4]!]);
  assert.ok(glossary!.priority < sidebar!.priority);
});

test('a tunnel through an off-topic page keeps a decaying score, and an on-topic anchor recovers it', () => {
  const s = new AdaptiveStrategy(topic, { learn: 0 });
  // Relevant page A links to off-topic page C ("More"): C inherits 1 (A's parent score).
  const [toC] = s.scoreLinks({ request: request('http://a.test/A', { i: 1 }), page: page('http://a.test/A'), relevance: 0.5 }, [link('http://a.test/C', 'More')]);
  assert.equal(toC!.data?.i, 1);
  // C is off-topic; its vague link to F keeps decay * 1 = 0.5 from the tunnel.
  const viewC = { request: request('http://a.test/C', toC!.data ?? null), page: page('http://a.test/C'), relevance: 0 };
  const [toF, toG] = s.scoreLinks(viewC, [link('http://a.test/F', 'Next'), link('http://a.test/G', 'Photovoltaic inverter guide')]);
  assert.equal(toF!.data?.i, 0.5);
  // base = (0.5 * (1 - 0.8 * nav) + 0) / 2 with nav = 1 / (2 pages + 4).
  assert.ok(Math.abs(toF!.priority - (0.5 * (1 - 0.8 / 6)) / 2) < 1e-9, String(toF!.priority));
  // The same off-topic page reached without a tunnel gives its vague links nothing.
  const [cold] = s.scoreLinks({ request: request('http://a.test/D', { i: 0 }), page: page('http://a.test/D'), relevance: 0 }, [link('http://a.test/H', 'Next')]);
  assert.equal(cold!.priority, 0);
  // An on-topic anchor on the off-topic page outranks the tunnel (method A's recovery).
  assert.ok(toG!.priority > toF!.priority);
});

test('what the crawl learned moves links with the same anchor words, and survives a snapshot', () => {
  const s = new AdaptiveStrategy(topic, { learn: 1 });
  const home = { request: request('http://a.test/', { i: 1 }, 0), page: page('http://a.test/'), relevance: 0 };
  // Links with the word "datasheet" led to relevant pages 6 times; "news" led to 6 irrelevant ones.
  const decisions = s.scoreLinks(home, [...Array.from({ length: 6 }, (_x, i) => link(`http://a.test/d${i}`, `datasheet ${i}`)), ...Array.from({ length: 6 }, (_x, i) => link(`http://a.test/n${i}`, `news ${i}`))]);
  decisions.forEach((d, i) => s.scoreLinks({ request: request(`http://a.test/x${i}`, d.data ?? null), page: page('x'), relevance: i < 6 ? 0.5 : 0 }, []));
  const probe = [link('http://a.test/new1', 'datasheet'), link('http://a.test/new2', 'news')];
  const e = probe.map((l) => s.explain(home, l));
  assert.ok(e[0]!.lift > 1 && e[1]!.lift < 1, JSON.stringify(e));
  const copy = new AdaptiveStrategy(topic, { learn: 1 });
  copy.restore(JSON.parse(JSON.stringify(s.snapshot())));
  assert.deepEqual(probe.map((l) => copy.explain(home, l).lift), e.map((x) => x.lift));
});
