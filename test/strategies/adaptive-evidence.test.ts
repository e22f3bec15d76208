import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdaptiveStrategy } from '../../src/strategies/adaptive.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import type { CrawlRequest, Link, Page } from '../../src/types.js';
import type { LinkDecision } from '../../src/strategies/strategy.js';

const topic = topicFromFile({ name: 'solar', keywords: { solar: 3, inverter: 2, photovoltaic: 3 }, threshold: 0.2 });
const url = (i: number) => `http://a.test/p${i}`;
const key = (i: number) => i.toString(16).padStart(16, '0');
const request = (i: number, parent: number | null, data: CrawlRequest['data']): CrawlRequest => ({
  key: key(i), id: i, url: url(i), host: 'a.test', depth: parent === null ? 0 : 1, parent: parent === null ? null : key(parent), anchor: '', priority: 0.5, data, attempts: 0,
});
const page = (i: number): Page => ({ url: url(i), title: `Page ${i} — Acme Solar Handbook`, text: '', headings: '', links: [], canonical: null, noindex: false, nofollow: false, encoding: 'UTF-8' });
const link = (i: number, anchor: string): Link => ({ url: url(i), anchor, nofollow: false });
const SIDEBAR = [link(90, 'Introduction'), link(91, 'Solar inverters'), link(92, 'Glossary')];
const BODY = ['Photovoltaic inverter sizing', 'Company history', 'Solar panel cleaning', 'Careers', 'Inverter faults', 'Press'].map((a, k) => link(k + 1, a));
// Pages 1-6 as the start page's body links lead to them; 1, 3 and 5 turn out on topic.
const RELEVANCE = [0.1, 0.5, 0.05, 0.4, 0, 0.6, 0.02];

/**
 * Scores the start page and its six children, each child by copy `who(i)`; after each page every
 * other copy hears the evidence of the copy that scored it (when `hear`). Returns each copy.
 */
function crawl(copies: AdaptiveStrategy[], who: (i: number) => number, hear: boolean): void {
  if (hear) for (const c of copies) c.evidence();
  const decisions = new Map<number, LinkDecision>();
  for (let i = 0; i <= 6; i++) {
    const own = copies[who(i)]!;
    const children = i === 0 ? BODY : [link(10 + i, `Solar topic ${i}`)];
    const d = own.scoreLinks({ request: request(i, i === 0 ? null : 0, i === 0 ? { i: 1 } : (decisions.get(i)!.data ?? null)), page: page(i), relevance: RELEVANCE[i]! }, [...SIDEBAR, ...children]);
    if (i === 0) BODY.forEach((_, k) => decisions.set(k + 1, d[SIDEBAR.length + k]!));
    if (hear) {
      const said = own.evidence();
      for (const c of copies) if (c !== own) c.hear(said);
    }
  }
}

// The page every copy scores last, a child of page 3, through the link page 0 gave it.
function last(s: AdaptiveStrategy): LinkDecision[] {
  const view = { request: request(20, 3, { i: 0.5 }), page: page(20), relevance: 0.3 };
  return s.scoreLinks(view, [...SIDEBAR, link(21, 'Solar inverter wiring'), link(22, 'Contact')]);
}

test('two copies of adaptive that hear each other score a page as one copy that scored every page', () => {
  const one = new AdaptiveStrategy(topic);
  crawl([one], () => 0, false);
  const a = new AdaptiveStrategy(topic);
  const b = new AdaptiveStrategy(topic);
  // Page 0 and the odd pages by a, the even ones by b.
  crawl([a, b], (i) => (i === 0 ? 0 : i % 2), true);
  const want = last(one);
  assert.deepEqual(last(a), want);
  assert.deepEqual(last(b), want);
  // Without hearing, a copy reads navigation, outcomes and families from its own pages only.
  const c = new AdaptiveStrategy(topic);
  const d = new AdaptiveStrategy(topic);
  crawl([c, d], (i) => (i === 0 ? 0 : i % 2), false);
  assert.notDeepEqual(last(d), want);
});

test('adaptive records nothing until asked, and hears malformed records as nothing', () => {
  const s = new AdaptiveStrategy(topic);
  s.scoreLinks({ request: request(0, null, { i: 1 }), page: page(0), relevance: 0.5 }, BODY);
  assert.deepEqual(s.evidence(), [], 'the first call starts the recording');
  s.scoreLinks({ request: request(1, 0, { i: 1 }), page: page(1), relevance: 0.5 }, SIDEBAR);
  const said = s.evidence() as { u: string; l: string }[];
  assert.equal(said.length, 1);
  assert.equal(said[0]!.u, url(1));
  assert.equal(Buffer.from(said[0]!.l, 'base64').byteLength, 8 * SIDEBAR.length);
  assert.deepEqual(s.evidence(), []);
  const fresh = new AdaptiveStrategy(topic);
  const before = last(new AdaptiveStrategy(topic));
  fresh.hear([
    null, 'x', 7, {}, { u: 1 }, { ...said[0], r: 2 }, { ...said[0], f: ['a'] }, { ...said[0], l: 5 },
    // Values no copy gives: an outcome past 1 would spoil the crawl's mean for every family.
    { ...said[0], o: 1e6 }, { ...said[0], o: -1 }, { ...said[0], d: -1 }, { ...said[0], q: -5 }, { ...said[0], f: [2 ** 30] }, { ...said[0], l: 'A'.repeat(30_000) },
  ]);
  assert.deepEqual(last(fresh), before);
});
