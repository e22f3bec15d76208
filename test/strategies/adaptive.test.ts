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

test('the site name in every page title stops deciding: an anchor with the subject outranks one with the product name', async () => {
  const { topicProfile } = await import('../../src/relevance/vsm-scorer.js');
  // A user's topic names the product beside the subject's words, as users write them.
  const cm = topicFromFile({ name: 'policies', keywords: { cmake_policy: 3, compatibility: 2 }, threshold: 0.15 });
  const sitePage = (i: number, title: string): Page => ({ ...page(`http://a.test/p${i}`), title: `${title} — CMake 3.25.1 Documentation`, text: 'cmake reference' });
  const links = [link('http://a.test/v', 'CMAKE_BUILD_TYPE'), link('http://a.test/c', 'CMP0002: names must be unique under the policy')];
  const scored = (siteTerm: number) => {
    const s = new AdaptiveStrategy(cm, { learn: 0, siteTerm });
    for (let i = 0; i < 5; i++) {
      const p = sitePage(i, `page ${i}`);
      s.scoreLinks({ request: request(p.url), page: p, relevance: 0.3, profile: topicProfile(cm, p) }, []);
    }
    const hub = sitePage(99, 'cmake-policies(7)');
    const view = { request: request(hub.url), page: hub, relevance: 0.3, profile: topicProfile(cm, hub) };
    return links.map((l) => s.explain(view, l));
  };
  const [off, on] = [scored(1), scored(0.2)];
  // Without the discount "cmake" alone makes an anchor strong evidence: cos = 3 / (sqrt(2) * sqrt(22)) over twice the threshold, capped.
  assert.equal(off[0]!.anchor, 1, JSON.stringify(off[0]));
  // Every title ends in "— CMake 3.25.1 Documentation": on this host "cmake" keeps a fifth of its weight.
  assert.ok(on[0]!.anchor < 0.5, JSON.stringify(on[0]));
  assert.ok(on[1]!.anchor > on[0]!.anchor);
  assert.ok(on[0]!.relevance < off[0]!.relevance, 'the parent is read with the same weights');
});

test('the site name inside a compound keyword the topic names keeps its weight: "sphinx.ext.autodoc" on Sphinx\'s own site', async () => {
  const { topicProfile, pageRelevance } = await import('../../src/relevance/vsm-scorer.js');
  const sx = topicFromFile({ name: 'extensions', keywords: { extension: 3, 'sphinx.ext': 3, autodoc: 2 }, threshold: 0.5 });
  assert.deepEqual(sx.compounds, ['sphinx.ext']);
  const named = topicFromFile({ name: 'x', keywords: { 'Python/C API': 1, 'std::sync': 1, mod_ssl: 1, 'git-config': 1, 'event loop': 1, 'c++': 1, 'python 3.12': 1, 'x86-64': 1 } });
  assert.deepEqual(named.compounds, ['python/c api', 'std::sync', 'mod_ssl', 'git-config'], 'a version or a number is no identifier');
  const sitePage = (i: number, title: string, text = 'sphinx documentation'): Page => ({ ...page(`http://a.test/p${i}`), title: `${title} — Sphinx documentation`, text });
  const s = new AdaptiveStrategy(sx, { learn: 0 });
  for (let i = 0; i < 5; i++) {
    const p = sitePage(i, `page ${i}`);
    s.scoreLinks({ request: request(p.url), page: p, relevance: 0.3, profile: topicProfile(sx, p) }, []);
  }
  assert.deepEqual([...s.siteTermsOf('a.test')].sort(), ['documentation', 'sphinx']);
  const hub = sitePage(99, 'Using Sphinx');
  const view = { request: request(hub.url), page: hub, relevance: 0.3, profile: topicProfile(sx, hub) };
  const [product, compound, spaced] = [
    link('http://a.test/a', 'Sphinx authors'),
    link('http://a.test/b', 'sphinx.ext.todo – Support for todo items'),
    link('http://a.test/c', 'sphinx ext todo – Support for todo items'),
  ].map((l) => s.explain(view, l));
  // The anchor score is its cosine over twice the threshold (1 here). Discounted "sphinx" alone: 0.6 / (sqrt(2) * sqrt(0.36 + 9 + 9 + 4)).
  assert.ok(Math.abs(product!.anchor - 0.6 / Math.sqrt(2 * 22.36)) < 1e-9, JSON.stringify(product));
  // Written as the compound, "sphinx" is the user's identifier and counts at its full weight (3, not 0.6) in the dot
  // product (1 sphinx, 1 ext, 2 todo, 1 support, 1 item): 6 / sqrt(8 * 22.36), bounded by the anchor's cosine with no
  // discount at all, 6 / sqrt(8 * 31).
  assert.ok(Math.abs(compound!.anchor - 6 / Math.sqrt(8 * 31)) < 1e-9, JSON.stringify(compound));
  assert.ok(spaced!.anchor < compound!.anchor, 'the same words apart are the site name again');
  // A page that writes the compound is read with the full weight too.
  const ext = sitePage(7, 'sphinx.ext.todo', 'sphinx.ext.todo extension');
  const rel = (p: Page) => s.explain({ request: request(p.url), page: p, relevance: 0.3, profile: topicProfile(sx, p) }, link('http://a.test/z', 'z')).relevance;
  const same = sitePage(8, 'sphinx ext todo', 'sphinx ext todo extension');
  assert.ok(rel(ext) > rel(same), `${rel(ext)} > ${rel(same)}`);
  // ...but never above its score with no discount at all.
  const undiscounted = new AdaptiveStrategy(sx, { learn: 0, siteTerm: 1 });
  const relFull = (p: Page) => undiscounted.explain({ request: request(p.url), page: p, relevance: topicProfile(sx, p) && pageRelevance(sx, p), profile: topicProfile(sx, p) }, link('http://a.test/z', 'z')).relevance;
  assert.ok(rel(ext) <= relFull(ext) + 1e-12, `${rel(ext)} <= ${relFull(ext)}`);
  // A compound is a whole word: "mysphinx.ext" is not "sphinx.ext", and "sphinx.extension" neither.
  assert.equal(s.explain(view, link('http://a.test/d', 'mysphinx.ext todo')).anchor, s.explain(view, link('http://a.test/e', 'mysphinx ext todo')).anchor);
  assert.equal(s.explain(view, link('http://a.test/f', 'sphinx.extension')).anchor, s.explain(view, link('http://a.test/g', 'sphinx extension')).anchor);
});

test('nested compound keywords lift a written span once, the longest first', async () => {
  const { CompoundLifts } = await import('../../src/strategies/compound-lifts.js');
  const sx = topicFromFile({ name: 'x', keywords: { 'sphinx.ext': 3, 'sphinx.ext.autodoc': 2, extension: 1 } });
  const lifts = CompoundLifts.forHost(sx, new Set(['sphinx']), 0.2)!;
  // "sphinx" weighs 3 (its largest keyword weight): each written compound adds 3 * 0.8.
  assert.equal(lifts.extraIn('sphinx.ext.autodoc'), 3 * 0.8);
  assert.equal(lifts.extraIn('Sphinx.ext.todo and sphinx.ext.autodoc, not mysphinx.ext'), 2 * 3 * 0.8);
  assert.equal(CompoundLifts.forHost(sx, new Set(['cmake']), 0.2), null, 'no compound names this site');
  assert.equal(CompoundLifts.forHost(sx, new Set(['sphinx']), 1), null, 'no discount, nothing to lift');
});

test('site terms: a title affix on most of a host\'s pages and the host name are the site\'s; a snapshot keeps them', async () => {
  const { SiteTerms } = await import('../../src/strategies/site-terms.js');
  const t = new SiteTerms({});
  assert.deepEqual([...t.of('docs.celeryq.dev')], ['celeryq']);
  assert.deepEqual([...t.of('127.0.0.1:8080')], []);
  t.observe('h.test', 'Tasks — Celery 5.2.6 documentation');
  t.observe('h.test', 'Workers Guide — Celery 5.2.6 documentation');
  assert.ok(!t.of('h.test').has('celery'), 'two pages are not enough');
  assert.equal(t.observe('h.test', 'Routing — Celery 5.2.6 documentation'), true);
  assert.ok(t.of('h.test').has('celery') && t.of('h.test').has('documentation'));
  assert.ok(!t.of('h.test').has('tasks'), 'a page\'s own part of its title is not the site\'s');
  // A colon as prose writes it: gtk-doc's "Hash Tables: GLib Reference Manual".
  for (const x of ['Hash Tables: GLib Reference Manual', 'Arrays: GLib Reference Manual', 'Threads: GLib Reference Manual']) t.observe('127.0.0.8', x);
  assert.deepEqual([...t.of('127.0.0.8')].sort(), ['glib', 'manual', 'reference']);
  // A time, a path and a prefix on few pages name nothing.
  for (const x of ['Meeting at 10:30 today', 'std::sync::atomic', 'Note: read this', 'Timers', 'Clocks']) t.observe('127.0.0.7', x);
  assert.equal(t.of('127.0.0.7').size, 0);
  for (const x of ['第3章：滤镜', '第4章：画笔', '滤镜：GIMP 帮助', '画笔：GIMP 帮助', '图层：GIMP 帮助']) t.observe('127.0.0.6', x);
  assert.ok(t.of('127.0.0.6').has('gimp'), 'a full-width colon separates without a space');
  // Titles without a separator ("Componentdef Task") name no site, however many share a word.
  for (const x of ['Copy Task', 'Jar Task', 'Exec Task', 'Javac Task']) t.observe('127.0.0.9', x);
  assert.equal(t.of('127.0.0.9').size, 0);
  const copy = new SiteTerms({});
  copy.restore(JSON.parse(JSON.stringify(t.snapshot())));
  assert.deepEqual([...copy.of('h.test')].sort(), [...t.of('h.test')].sort());
});

test('anchors meet the topic across English plurals (S-stemmer), and other scripts are left alone', async () => {
  const { foldPlural } = await import('../../src/text/plural-fold.js');
  assert.deepEqual(['tasks', 'policies', 'filters', 'class', 'status', 'bus', 'ab', '任务'].map(foldPlural), ['task', 'policy', 'filter', 'class', 'status', 'bus', 'ab', '任务']);
  const s = new AdaptiveStrategy(topicFromFile({ name: 'celery', keywords: { task: 3, worker: 2 }, threshold: 0.15 }), { learn: 0 });
  const view = { request: request('http://a.test/'), page: page('http://a.test/'), relevance: 0 };
  assert.ok(s.explain(view, link('http://a.test/c', 'Calling Tasks')).anchor > 0);
  assert.equal(s.explain(view, link('http://a.test/d', 'Daemonization')).anchor, 0);
});

test('labels teach adaptive: a page labelled relevant lifts links like the one that led to it, one labelled not relevant lowers them', () => {
  const s = new AdaptiveStrategy(topic, { learn: 1 });
  const home = { request: request('http://a.test/', { i: 1 }, 0), page: page('http://a.test/'), relevance: 0 };
  const [good, bad] = s.scoreLinks(home, [link('http://a.test/g', 'datasheet'), link('http://a.test/b', 'news')]);
  const before = [s.explain(home, link('http://a.test/g2', 'datasheet')).lift, s.explain(home, link('http://a.test/b2', 'news')).lift];
  assert.deepEqual(before, [1, 1], 'nothing learned yet');
  const used = s.learnFromLabels([
    { relevant: true, linkData: good!.data as Record<string, unknown> },
    { relevant: false, linkData: bad!.data as Record<string, unknown> },
    { relevant: true, linkData: null },
  ]);
  assert.equal(used, 2, 'a label without the link\'s features (a seed) teaches nothing');
  assert.ok(s.explain(home, link('http://a.test/g2', 'datasheet')).lift > 1);
  assert.ok(s.explain(home, link('http://a.test/b2', 'news')).lift < 1);
});

test('sibling evidence: when the first pages reached through an index are on topic, its other links are offered again, raised; navigation is no family', () => {
  // stall 0: the menu's hubs (the next test) would be offered after these off-topic pages.
  const s = new AdaptiveStrategy(topic, { learn: 0, stall: 0 });
  // Ten off-topic pages carrying the sidebar: the sidebar links are navigation by now.
  for (let i = 0; i < 10; i++) s.scoreLinks({ request: { ...request(`http://a.test/o${i}`), key: `o${i}` }, page: page(`http://a.test/o${i}`), relevance: 0 }, SIDEBAR);
  assert.deepEqual(s.reoffers(), [], 'off-topic pages fetched through no family raise nothing');
  // A chapter index whose entries are module names: no topic word in any anchor.
  const index = { request: { ...request('http://a.test/index'), key: 'index' }, page: page('http://a.test/index'), relevance: 0.1 };
  const entries = Array.from({ length: 6 }, (_x, i) => link(`http://a.test/m${i}`, `module_${i}`));
  const decisions = s.scoreLinks(index, [...entries, SIDEBAR[0]!]);
  assert.equal(s.explain(index, entries[0]!).siblings, 1, 'nothing fetched through the index yet');
  // Its first two entries turn out on topic.
  const fetch = (i: number) => {
    s.scoreLinks({ request: { ...request(`http://a.test/m${i}`, decisions[i]!.data ?? null), key: `m${i}`, parent: 'index' }, page: page(`http://a.test/m${i}`), relevance: 0.6 }, []);
    return s.reoffers();
  };
  fetch(0);
  const raised = fetch(1);
  const urls = new Set(raised.map((r) => r.url));
  assert.deepEqual([...urls].sort(), ['m2', 'm3', 'm4', 'm5'].map((m) => `http://a.test/${m}`), 'the waiting entries, not the fetched ones nor the sidebar');
  const m2 = raised.find((r) => r.url === 'http://a.test/m2')!;
  assert.ok(m2.priority > decisions[2]!.priority, `${m2.priority} > ${decisions[2]!.priority}`);
  assert.equal(m2.parent, 'index');
  assert.ok(s.explain(index, entries[2]!).siblings > 1);
  // The family survives a snapshot: a resumed crawl raises the rest as the original would.
  const copy = new AdaptiveStrategy(topic, { learn: 0 });
  copy.restore(JSON.parse(JSON.stringify(s.snapshot())));
  assert.equal(copy.explain(index, entries[2]!).siblings, s.explain(index, entries[2]!).siblings);
});

test("a stall: when a host's pages stop being on topic, its menu's unfetched targets are offered just above the page that ended it, one per stall, each once", () => {
  const make = () => new AdaptiveStrategy(topic, { learn: 0, stall: 3, stallHubs: 1 });
  const s = make();
  // The menu, last in every page's HTML: About (the first page fetched), Docs, Download.
  // A menu link to another site (its code host) is no section of this one: never offered.
  const MENU = [link('http://a.test/about', 'About'), link('http://git.test/a', 'Source'), link('http://a.test/docs', 'Docs'), link('http://a.test/download', 'Download')];
  const visit = (st: AdaptiveStrategy, path: string, relevance: number) => {
    const r = { ...request(`http://a.test/${path}`), key: path, priority: 0.2 };
    st.scoreLinks({ request: r, page: page(r.url), relevance }, [link(`http://a.test/body-${path}`, 'Wind turbines'), ...MENU]);
    return st.reoffers();
  };
  assert.deepEqual(visit(s, 'about', 0), []);
  assert.deepEqual(visit(s, 'p1', 0), []);
  // Three off-topic pages, but the menu is on 3 of (3 + 4) pages: not navigation yet.
  assert.deepEqual(visit(s, 'p2', 0), []);
  // On 4 of 8 now: Docs, the first unfetched hub, is offered just above this page's priority.
  const [docs, ...more] = visit(s, 'p3', 0);
  assert.equal(more.length, 0, 'one hub per stall');
  assert.equal(docs!.url, 'http://a.test/docs', 'About was fetched: never offered');
  assert.equal(docs!.anchor, 'Docs');
  assert.equal(docs!.parent, 'p3');
  assert.ok(Math.abs(docs!.priority - 0.2 * 1.05) < 1e-12);
  // A resumed crawl goes on as the original.
  const copy = make();
  copy.restore(JSON.parse(JSON.stringify(s.snapshot())));
  for (const st of [s, copy]) {
    // A relevant page ends the stall: the next hub waits for three more off-topic pages.
    assert.deepEqual(visit(st, 'p4', 0.6), []);
    assert.deepEqual(visit(st, 'p5', 0), []);
    assert.deepEqual(visit(st, 'p6', 0), []);
    assert.deepEqual(visit(st, 'p7', 0).map((r) => r.url), ['http://a.test/download']);
    // Every hub offered once: a longer stall offers nothing more.
    for (let i = 8; i < 20; i++) assert.deepEqual(visit(st, `p${i}`, 0), []);
  }
});

test('what adaptive keeps per host stays bounded on a crawl of many hosts: at most 1,000 host topics and 50,000 anchor scores in all, 100,000 hosts counted, stall hubs for 1,000 hosts', () => {
  const s = new AdaptiveStrategy(topic);
  const req = (host: string, i: number): CrawlRequest => ({ ...request(`http://${host}/p${i}`), host });
  for (let h = 0; h < 2_000; h++) {
    const host = `h${h}.test`;
    const links = Array.from({ length: 100 }, (_, i) => link(`http://${host}/l${i}`, `solar part ${h} ${i}`));
    s.scoreLinks({ request: req(host, 0), page: page(`http://${host}/p0`), relevance: 0.3 }, links);
    const size = s.cacheSizes();
    assert.ok(size.anchors <= 50_000 && size.hosts <= 1_000, `after ${h + 1} hosts: ${JSON.stringify(size)}`);
  }
  for (let h = 2_000; h < 120_000; h++) s.scoreLinks({ request: req(`h${h}.test`, 0), page: page(`http://h${h}.test/p0`), relevance: 0 }, []);
  assert.equal(s.cacheSizes().countedHosts, 100_000);
  // Stall hubs: 1,000 hosts with a stall count and 100,000 URLs marked (the hubs' own bound is
  // pinned in stall-hubs.test.ts).
  const { hubHosts, hubsDone } = s.cacheSizes();
  assert.equal(hubHosts, 1_000);
  assert.ok(hubsDone > 0 && hubsDone <= 100_000, String(hubsDone));
  // Scores stay right after the caches were cleared: the same anchor scores the same.
  const again = s.explain({ request: req('h1.test', 1), page: page('http://h1.test/p1'), relevance: 0.3 }, link('http://h1.test/x', 'solar inverter'));
  const fresh = new AdaptiveStrategy(topic).explain({ request: req('h1.test', 1), page: page('http://h1.test/p1'), relevance: 0.3 }, link('http://h1.test/x', 'solar inverter'));
  assert.equal(again.anchor, fresh.anchor);
});

test('a sitemap of 200,000 URLs is scored (the newest <lastmod> was found by spreading them as arguments)', () => {
  const s = new AdaptiveStrategy(topic, {});
  const sitemap = { ...request('http://a.test/sitemap.xml'), sitemap: { level: 1, guessed: false } } as CrawlRequest;
  const links: Link[] = Array.from({ length: 200_000 }, (_x, i) => ({ url: `http://a.test/solar-inverter/${i}`, anchor: '', nofollow: false, sitemap: { lastmod: i === 7 ? '2026-11-20' : '2020-01-01' } }));
  const decisions = s.scoreLinks({ request: sitemap, page: page('http://a.test/sitemap.xml'), relevance: 0 }, links);
  assert.equal(decisions.length, 200_000);
  assert.ok(decisions.every((d) => Number.isFinite(d.priority)));
});
