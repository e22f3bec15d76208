import { urlKey } from '../../src/seen/fingerprint.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TwoStepStrategy, twoStepScore } from '../../src/strategies/two-step.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import { startCrawl } from '../../src/crawl.js';
import type { CarriedState, CrawlRequest, Link, Page } from '../../src/types.js';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);

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

// Relevance from the title only, so every rel below is a cosine computed by hand:
// "solar" 1, "solar news" 1/sqrt(2), "solar alpha beta gamma" 1/2, "news" or "end" 0.
const TOPIC = { name: 'solar', keywords: { solar: 1 }, threshold: 0.2, positions: { title: 1, headings: 0, anchor: 0, body: 0, url: 0 } };
const R2 = Math.SQRT1_2;

const page = (url: string, links: Link[] = []): Page => ({ url, title: '', text: '', headings: '', links, canonical: null, noindex: false, nofollow: false, encoding: 'UTF-8' });
const req = (id: number, url: string, data: CarriedState | null = null, depth = 1): CrawlRequest => ({ key: urlKey(url), id, url, host: 'a', depth, parent: null, anchor: '', priority: 0, data, attempts: 0 });
const link = (url: string, anchor: string): Link => ({ url, anchor, nofollow: false });

test('a page waits for its look-ahead, then its other links are offered again at score(u); the state survives a snapshot', () => {
  const s = new TwoStepStrategy(topicFromFile(TOPIC), { lookahead: 2 });
  const xl = [link('http://a/x1', 'solar'), link('http://a/x2', 'solar'), link('http://a/x3', 'more')];
  const d = s.scoreLinks({ request: req(1, 'http://a/X'), page: page('http://a/X', xl), relevance: R2 }, xl);
  // The two best anchors go ahead (band 10 + rel); x3 waits at alpha * rel(X), the least score(X) can be.
  close(d[0]!.priority, 10 + R2);
  assert.deepEqual(d[1]!.data, { la: urlKey('http://a/X') });
  close(d[2]!.priority, 0.7 * R2);
  const restored = new TwoStepStrategy(topicFromFile(TOPIC), { lookahead: 2 });
  restored.restore(JSON.parse(JSON.stringify(s.snapshot())));
  for (const t of [s, restored]) {
    t.scoreLinks({ request: req(2, 'http://a/x1', { la: urlKey('http://a/X') }, 2), page: page('http://a/x1'), relevance: 1 }, []);
    assert.deepEqual(t.reoffers(), [], 'one of two look-ahead pages is not enough');
    t.scoreLinks({ request: req(3, 'http://a/x2', { la: urlKey('http://a/X') }, 2), page: page('http://a/x2'), relevance: 1 }, []);
    const again = t.reoffers();
    assert.equal(again.length, 1);
    assert.equal(again[0]!.url, 'http://a/x3');
    assert.equal(again[0]!.parent, urlKey('http://a/X'));
    close(again[0]!.priority, 0.7 * R2 + 0.3 * 1);
  }
  // A page whose out-link pages are already known needs no look-ahead.
  const zl = [link('http://a/x1', 'solar'), link('http://a/x2', 'solar'), link('http://a/z1', 'more')];
  const z = s.scoreLinks({ request: req(4, 'http://a/Z'), page: page('http://a/Z', zl), relevance: 0.5 }, [zl[2]!]);
  close(z[0]!.priority, 0.7 * 0.5 + 0.3 * 1);
});

test('restorePages: the relevance of pages an earlier run stored counts at once, and settles a restored parent waiting for them', () => {
  const s = new TwoStepStrategy(topicFromFile(TOPIC), { lookahead: 2 });
  const xl = [link('http://a/x1', 'solar'), link('http://a/x2', 'solar'), link('http://a/x3', 'more')];
  s.scoreLinks({ request: req(1, 'http://a/X'), page: page('http://a/X', xl), relevance: R2 }, xl);
  // Killed after the checkpoint, with x1 and x2 fetched since: the resume hands their stored relevance back.
  const resumed = new TwoStepStrategy(topicFromFile(TOPIC), { lookahead: 2 });
  resumed.restore(JSON.parse(JSON.stringify(s.snapshot())));
  resumed.restorePages([{ url: 'http://a/x1', finalUrl: 'http://a/x1', relevance: 1 }, { url: 'http://a/x2', finalUrl: 'http://a/x2', relevance: 1 }]);
  const again = resumed.reoffers();
  assert.deepEqual(again.map((r) => r.url), ['http://a/x3']);
  close(again[0]!.priority, 0.7 * R2 + 0.3 * 1);
  // A page of the resumed run linking to them needs no look-ahead.
  const zl = [link('http://a/x1', 'solar'), link('http://a/x2', 'solar'), link('http://a/z1', 'more')];
  const z = resumed.scoreLinks({ request: req(4, 'http://a/Z'), page: page('http://a/Z', zl), relevance: 0.5 }, [zl[2]!]);
  close(z[0]!.priority, 0.7 * 0.5 + 0.3 * 1);
});

test('a look-ahead page that ends with no page to score (a 404) is one fewer to wait for: the parent scores from the others', () => {
  const s = new TwoStepStrategy(topicFromFile(TOPIC), { lookahead: 2 });
  const xl = [link('http://a/x1', 'solar'), link('http://a/x2', 'solar'), link('http://a/x3', 'more')];
  s.scoreLinks({ request: req(1, 'http://a/X'), page: page('http://a/X', xl), relevance: R2 }, xl);
  s.unscored(req(2, 'http://a/x1', { la: urlKey('http://a/X') }, 2));
  assert.deepEqual(s.reoffers(), [], 'still waiting for x2');
  s.scoreLinks({ request: req(3, 'http://a/x2', { la: urlKey('http://a/X') }, 2), page: page('http://a/x2'), relevance: 1 }, []);
  const again = s.reoffers();
  assert.deepEqual(again.map((r) => r.url), ['http://a/x3'], 'before, X waited for x1 for good and x3 stayed at alpha * rel(X)');
  close(again[0]!.priority, 0.7 * R2 + 0.3 * 1);
});

const PAGES: Record<string, string> = {
  '/X': '<title>solar news</title><a href="/x1">solar</a> <a href="/x2">solar</a> <a href="/x3">more</a>',
  '/x1': '<title>solar</title>',
  '/x2': '<title>solar</title>',
  '/x3': '<title>end</title>',
  '/Y': '<title>solar</title><a href="/y1">solar</a> <a href="/y2">solar</a> <a href="/y3">more</a>',
  '/y1': '<title>solar alpha beta gamma</title>',
  '/y2': '<title>news</title>',
  '/y3': '<title>end</title>',
  '/Z': '<title>solar alpha beta gamma</title><a href="/x1">solar</a> <a href="/x2">solar</a> <a href="/z1">more</a>',
  '/z1': '<title>end</title>',
};

let server: Server;
let origin: string;
before(async () => {
  server = createServer((r, res) => {
    const body = PAGES[r.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

test("two-step's look-ahead order on a small web, computed by hand", async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'fc-two-step-')), 'c.db');
  const seeds = ['/X', '/Y', '/Z'].map((p) => origin + p);
  const crawl = await startCrawl({ seeds, topic: TOPIC, strategy: 'two-step', strategyOptions: { lookahead: 2 }, concurrency: 1, delayMs: 0, db });
  try {
    await crawl.run();
    const rows = crawl.db.db.prepare("SELECT url, priority FROM crawl_log WHERE state = 'done' AND url NOT LIKE '%/sitemap.xml' ORDER BY seq").all() as { url: string; priority: number }[];
    // X (seed): x1 and x2 (anchor "solar") go ahead at 10 + 0.707; x3 waits at 0.7 * 0.707.
    // Both come back with rel 1: score(X) = 0.7 * 0.707 + 0.3 * 1 = 0.795, and x3 is raised to it.
    // Y (seed, rel 1): y1 (0.5) and y2 (0) go ahead; one highly relevant child of two, so the mean
    // keeps both: score(Y) = 0.7 * 1 + 0.3 * 0.25 = 0.775 < 0.795, although rel(Y) > rel(X).
    // Z (seed, rel 0.5) links to x1 and x2, already fetched (rel 1, 1): no look-ahead,
    // z1 waits at 0.7 * 0.5 + 0.3 * 1 = 0.65.
    assert.deepEqual(rows.map((r) => r.url.slice(origin.length)), ['/X', '/x1', '/x2', '/Y', '/y1', '/y2', '/Z', '/x3', '/y3', '/z1']);
    const p = Object.fromEntries(rows.map((r) => [r.url.slice(origin.length), r.priority]));
    close(p['/x1']!, 10 + R2);
    close(p['/y1']!, 11);
    close(p['/x3']!, 0.7 * R2 + 0.3);
    close(p['/y3']!, 0.775);
    close(p['/z1']!, 0.65);
  } finally {
    await crawl.close();
  }
});

test("two-step's look-ahead state is stored with the crawl and restored by resume", async () => {
  const { resumeCrawl } = await import('../../src/crawl.js');
  const db = join(mkdtempSync(join(tmpdir(), 'fc-two-step-resume-')), 'c.db');
  const first = await startCrawl({ seeds: [origin + '/X'], topic: TOPIC, strategy: 'two-step', strategyOptions: { lookahead: 2 }, maxPages: 2, concurrency: 1, delayMs: 0, db });
  let state: string;
  try {
    await first.run();
    state = JSON.stringify(first.strategy.snapshot!());
    // X is fetched, and one of its two look-ahead pages: X waits for the other.
    assert.equal((JSON.parse(state) as { parents: unknown[] }).parents.length, 1);
    // Pages' relevance is read back from the store on resume: the snapshot does not grow with the crawl.
    assert.equal((JSON.parse(state) as { rels?: unknown }).rels, undefined);
  } finally {
    await first.close();
  }
  const again = await resumeCrawl(db, { maxPages: 10 });
  try {
    assert.equal(JSON.stringify(again.strategy.snapshot!()), state, 'restored as it was left');
    await again.run();
    const rows = again.db.db.prepare("SELECT url, priority FROM crawl_log WHERE state = 'done' AND url NOT LIKE '%/sitemap.xml' ORDER BY seq").all() as { url: string; priority: number }[];
    // After the resume, x2 comes back and raises x3 to score(X), as in one run.
    assert.deepEqual(rows.map((r) => r.url.slice(origin.length)), ['/X', '/x1', '/x2', '/x3']);
    close(rows[3]!.priority, 0.7 * R2 + 0.3);
  } finally {
    await again.close();
  }
});

test('in a crawl, a look-ahead link answering 404 no longer holds its parent at alpha * rel: the other links are raised', async () => {
  const kids = [1, 2, 3, 4, 5, 6, 7].map((i) => `<a href="/${i}">${i <= 5 ? `football ${i}` : `page ${i}`}</a>`).join(' ');
  const srv = createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Football</title><p>football club news</p>${kids}`);
    if (req.url === '/1' || !/^\/[2-7]$/.test(req.url ?? '')) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Football match</title><p>football football</p>');
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  try {
    const root = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/`;
    const crawl = await startCrawl({ db: join(mkdtempSync(join(tmpdir(), 'fc-2step-404-')), 'c.db'), seeds: [root], topic: { name: 'f', keywords: { football: 1 } }, strategy: 'two-step', delayMs: 0, concurrency: 1, perHost: 1, sitemaps: false, maxPages: 6 });
    await crawl.run();
    await crawl.db.settle();
    const rows = crawl.db.db.prepare('SELECT url, state, priority FROM urls').all() as { url: string; state: number; priority: number }[];
    const rootRel = (crawl.db.db.prepare('SELECT relevance FROM pages WHERE url = ?').pluck().get(root) as number);
    await crawl.close();
    const waiting = rows.filter((r) => r.state === 0);
    assert.deepEqual(waiting.map((r) => new URL(r.url).pathname).sort(), ['/6', '/7']);
    for (const r of waiting) assert.ok(r.priority > 0.7 * rootRel + 0.01, `${r.url} raised above alpha * rel(root) = ${0.7 * rootRel}: ${r.priority}`);
  } finally {
    srv.close();
  }
});
