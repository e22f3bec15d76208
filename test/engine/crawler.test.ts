import { collect } from '../helpers/collect.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCrawl } from '../../src/crawl.js';
import type { LogEntry } from '../../src/store/store.js';
import { GBK_TEXT, BIG5_TEXT, startTestServer, type TestServer } from '../helpers/misbehaving-server.js';

const HUB_LINKS = [
  '/html/a', '/html/a#fragment', '/private/secret', '/redirect/1', '/loop/a', '/status/404', '/status/500',
  '/flaky/ok', '/reset-once', '/gzip', '/br', '/bomb', '/gbk', '/big5', '/pdf', '/trap', '/endless', '/hang',
  'http://elsewhere.test/', 'mailto:someone@example.com', '/nofollowed',
];

let srv: TestServer;
let log: Map<string, LogEntry>;
let entries: LogEntry[];
let searchGbk: string[];
let pagesStored: number;

before(async () => {
  srv = await startTestServer([
    [/^\/hub$/, (_q, res) => {
      const links = HUB_LINKS.map((h) => `<a href="${h}"${h === '/nofollowed' ? ' rel="nofollow"' : ''}>${h}</a>`).join(' ');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Hub</title><body>${links}</body>`);
    }],
  ]);
  const crawl = await startCrawl({
    seeds: [srv.origin + '/hub'],
    db: join(mkdtempSync(join(tmpdir(), 'fc-engine-')), 'crawl.db'),
    maxDepth: 4,
    concurrency: 8,
    perHost: 4,
    delayMs: 0,
    retryBaseMs: 10,
    headersTimeoutMs: 2000,
    bodyTimeoutMs: 2000,
    totalTimeoutMs: 10000,
    maxBytes: 1024 * 1024,
    maxDecompressedBytes: 8 * 1024 * 1024,
  });
  await crawl.run();
  await crawl.db.settle();
  entries = await collect(crawl.store.logEntries());
  log = new Map(entries.map((e) => [e.url.slice(srv.origin.length) || e.url, e]));
  searchGbk = (await crawl.store.search('光伏', 10)).map((h) => h.url);
  pagesStored = crawl.db.db.prepare('SELECT count(*) FROM pages').pluck().get() as number;
  await crawl.close();
});
after(() => srv.close());

const get = (path: string) => {
  const e = log.get(path);
  assert.ok(e, `${path} is in the crawl log`);
  return e;
};

test('every URL reaches exactly one final state, once', () => {
  const urls = entries.map((e) => e.url);
  assert.equal(new Set(urls).size, urls.length);
  assert.deepEqual(entries.map((e) => e.seq), entries.map((_e, i) => i + 1));
});

test('plain, compressed and recovered pages are done', () => {
  for (const p of ['/hub', '/html/a', '/gzip', '/br', '/flaky/ok', '/reset-once']) assert.equal(get(p).state, 'done', p);
  assert.equal(get('/html/a').title, 'Page a');
  assert.equal(get('/flaky/ok').status, 200);
  assert.equal(srv.hits.get('/flaky/ok'), 3, 'two 503s, then success');
});

test('robots.txt disallow, out of scope, nofollow', () => {
  assert.equal(get('/private/secret').state, 'discarded');
  assert.equal(get('/private/secret').error, 'disallowed by robots.txt');
  assert.equal(srv.hits.get('/private/secret'), undefined, 'a disallowed URL is never requested');
  assert.equal(get('http://elsewhere.test/').error, 'out of scope (host)');
  assert.equal(log.has('/nofollowed'), false);
  assert.equal(srv.hits.get('/nofollowed'), undefined);
});

test('redirects: the page is stored under the first URL, the target recorded once', () => {
  const r = get('/redirect/1');
  assert.equal(r.state, 'done');
  assert.equal(r.final_url, srv.origin + '/html/landed');
  assert.equal(get('/html/landed').state, 'discarded');
  assert.match(get('/html/landed').error!, /fetched through a redirect from/);
  assert.equal(srv.hits.get('/html/landed'), 1);
  assert.equal(get('/loop/a').state, 'error');
  assert.match(get('/loop/a').error!, /redirect loop/);
});

test('HTTP errors, retries exhausted, bombs, endless bodies and hanging servers end as errors', () => {
  assert.deepEqual([get('/status/404').state, get('/status/404').error, get('/status/404').status], ['error', 'HTTP 404', 404]);
  const e500 = get('/status/500');
  assert.equal(e500.state, 'error');
  assert.equal(e500.status, 500);
  assert.match(e500.error!, /after 3 attempts/);
  assert.equal(srv.hits.get('/status/500'), 3);
  assert.match(get('/bomb').error!, /decompressed body exceeds/);
  assert.match(get('/endless').error!, /exceeds the limit/);
  assert.match(get('/hang').error!, /after 3 attempts/);
});

test('non-HTML is recorded, not parsed', () => {
  const pdf = get('/pdf');
  assert.equal(pdf.state, 'done');
  assert.equal(pdf.status, 200);
  assert.equal(pdf.title, null);
});

test('GBK and Big5 pages are decoded and searchable', () => {
  assert.equal(get('/gbk').title, GBK_TEXT);
  assert.equal(get('/big5').title, BIG5_TEXT);
  assert.ok(searchGbk.includes(srv.origin + '/gbk'), 'the GBK page is found by a Chinese word');
});

test('a spider trap is bounded by max depth', () => {
  const trap = entries.filter((e) => e.url.includes('/trap'));
  const fetched = trap.filter((e) => e.state === 'done');
  assert.equal(Math.max(...fetched.map((e) => e.depth)), 4);
  assert.equal(fetched.length, 1 + 2 + 4 + 8); // depths 1..4, two links per page
  assert.ok(trap.some((e) => e.state === 'discarded' && /deeper than max depth 4/.test(e.error!)));
  assert.ok(pagesStored >= 20);
});
