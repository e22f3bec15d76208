import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { drip, startTestServer } from '../helpers/misbehaving-server.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crawlToEnd, deadOrigin, html, rawHost, silentHost } from '../helpers/hostile-web.js';

/**
 * Issue 13, parts 2 and 3: spider traps that depth does not bound, and slow or dead hosts. One
 * crawl of real servers on loopback addresses per case; each checks the end state, the reason
 * recorded, what the servers saw, and (in crawlToEnd) that every URL ended in exactly one state.
 */

const hex = () => randomBytes(16).toString('hex');
const paths = (hits: Map<string, number>, prefix: string) => [...hits.keys()].filter((k) => k.startsWith(prefix));
const count = (hits: Map<string, number>, prefix: string) => paths(hits, prefix).reduce((n, k) => n + hits.get(k)!, 0);

test('session ids: every link names a new session; each page is fetched once, under its name without one', async () => {
  const srv = await startTestServer([
    [/^\/s\/(\d)(?:;jsessionid=\w+)?$/, (_q, res, m) => {
      const links = [1, 2, 3, 4].flatMap((i) => [`/s/${i};jsessionid=${hex()}`, `/s/${i}?PHPSESSID=${hex()}`, `/s/${i}?sid=${hex()}`]);
      res.writeHead(200, { 'content-type': 'text/html' }).end(html(`session page ${m[1]}`, links));
    }],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [`${srv.origin}/s/1;jsessionid=${hex()}`], maxPages: 50 });
    assert.deepEqual(r.entries.map((e) => [e.url.slice(srv.origin.length), e.state]).sort(), [1, 2, 3, 4].map((i) => [`/s/${i}`, 'done']));
    assert.deepEqual(paths(srv.hits, '/s/').sort(), ['/s/1', '/s/2', '/s/3', '/s/4']);
    assert.equal(count(srv.hits, '/s/'), 4, 'one request per page');
    assert.equal(r.pages, 4);
  } finally {
    await srv.close();
  }
});

test('parameter explosion: a calendar whose days link to the next and previous day stops at maxParamValues', async () => {
  const day = (d: number) => new Date(Date.UTC(2026, 10, 23 + d)).toISOString().slice(0, 10);
  const srv = await startTestServer([
    [/^\/cal$/, (q, res) => {
      const d = Math.round((Date.parse(new URL(q.url!, 'http://x').searchParams.get('date')!) - Date.UTC(2026, 10, 23)) / 86_400_000);
      res.writeHead(200, { 'content-type': 'text/html' }).end(html(`day ${d}`, [`/cal?date=${day(d - 1)}`, `/cal?date=${day(d + 1)}`]));
    }],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [`${srv.origin}/cal?date=${day(0)}`], maxParamValues: 10, maxDepth: 1000 });
    const done = r.entries.filter((e) => e.state === 'done');
    const cut = r.entries.filter((e) => e.state === 'discarded');
    assert.equal(done.length, 11, 'the seed and 10 more values');
    assert.equal(count(srv.hits, '/cal'), 11);
    assert.equal(cut.length, 2, 'one value past each end');
    for (const e of cut) assert.equal(e.error, "trap: parameter 'date' of /cal has more than 10 values");
    assert.equal(r.summary.reason, 'exhausted');
  } finally {
    await srv.close();
  }
});

test('repeating path segments: a relative link that nests forever is cut at the third repetition', async () => {
  const srv = await startTestServer([
    // Each level says where it is: a copy of its parent would stop earlier (the mirror rule, below).
    [/^\/r\/(loop\/)*$/, (q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html(`nested at ${q.url}`, ['loop/']))],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [`${srv.origin}/r/`], maxDepth: 1000 });
    assert.deepEqual(paths(srv.hits, '/r/').sort(), ['/r/', '/r/loop/', '/r/loop/loop/']);
    assert.equal(count(srv.hits, '/r/'), 3);
    const cut = r.log.get(`${srv.origin}/r/loop/loop/loop/`);
    assert.equal(cut?.state, 'discarded');
    assert.equal(cut?.error, "trap: repeating path segment 'loop'");
  } finally {
    await srv.close();
  }
});

test('a soft 404 that answers every path with the same page of relative links: the links of a copy of its parent are not followed', async () => {
  const nav = ['css/', 'img/', 'about/', 'blog/', 'contact/'];
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('home', ['/news/']))],
    // Any other path: the same "page not found" page, answered 200, its navigation relative.
    [/^\/.+$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('Sorry, nothing here', nav))],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [`${srv.origin}/`], maxPages: 2000 });
    assert.equal(r.summary.reason, 'exhausted');
    // The home page, /news/ (the soft 404's first copy: its links are followed), and its five children, whose links are not.
    assert.equal(r.entries.filter((e) => e.state === 'done').length, 7);
    const cut = r.entries.filter((e) => e.state === 'discarded');
    assert.equal(cut.length, 25, 'five links of each of the five copies');
    for (const e of cut) assert.equal(e.error, 'trap: the page is a copy of the page that linked to it (a soft 404 answering every path?)');
    assert.equal(r.log.get(`${srv.origin}/news/about/blog/`)?.state, 'discarded');
  } finally {
    await srv.close();
  }
});

test('a token in every link under a parameter no session list knows: the query value counts as one pattern', async () => {
  const token = () => randomBytes(6).toString('base64url').replace(/[^A-Za-z0-9]/g, 'x') + '7a';
  const srv = await startTestServer([
    [/^\/page([a-e])$/, (_q, res, m) => res.writeHead(200, { 'content-type': 'text/html' }).end(html(`page ${m[1]} ${token()}`, ['a', 'b', 'c', 'd', 'e'].map((x) => `/page${x}?ref=${token()}`)))],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [`${srv.origin}/pagea`], maxUrlsPerPattern: 10, maxPages: 3000 });
    assert.equal(r.summary.reason, 'exhausted');
    // Each of the five paths: the seed's own and ten ?ref= URLs at most, not one fetch per token.
    assert.ok(count(srv.hits, '/page') <= 5 * 10 + 1, `fetched ${count(srv.hits, '/page')}`);
    const host = srv.origin.slice('http://'.length);
    assert.ok(r.entries.some((e) => e.error === `trap: more than 10 URLs like ${host}/pagea?ref=# (--max-urls-per-pattern)`));
  } finally {
    await srv.close();
  }
});

test('URLs per pattern: an endless day archive gets maxUrlsPerPattern fetches, the rest are discarded', async () => {
  const srv = await startTestServer([
    [/^\/day\/(\d+)$/, (_q, res, m) => {
      const n = Number(m[1]);
      res.writeHead(200, { 'content-type': 'text/html' }).end(html(`day ${n}`, [`/day/${n + 1}`, `/day/${n + 7}`, '/about']));
    }],
    [/^\/about$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('about', ['/day/1']))],
  ]);
  try {
    const db = join(mkdtempSync(join(tmpdir(), 'fc-pattern-')), 'crawl.db');
    const r = await crawlToEnd({ db, seeds: [`${srv.origin}/day/1`], maxUrlsPerPattern: 5, maxDepth: 1000 });
    assert.equal(count(srv.hits, '/day/'), 5, 'exactly the cap');
    assert.equal(r.log.get(`${srv.origin}/about`)?.state, 'done', 'other patterns of the host go on');
    const cut = r.entries.filter((e) => e.state === 'discarded');
    assert.ok(cut.length >= 1);
    const host = srv.origin.slice('http://'.length);
    for (const e of cut) assert.equal(e.error, `trap: more than 5 URLs like ${host}/day/# (--max-urls-per-pattern)`);
    assert.equal(r.entries.filter((e) => e.state === 'done').length, 6);
    // Another run on the same database counts the fetches of the first one.
    const again = await crawlToEnd({ db, seeds: [`${srv.origin}/day/100`], maxUrlsPerPattern: 5, maxDepth: 1000 });
    assert.equal(count(srv.hits, '/day/'), 5);
    assert.equal(again.log.get(`${srv.origin}/day/100`)?.error, `trap: more than 5 URLs like ${host}/day/# (--max-urls-per-pattern)`);
  } finally {
    await srv.close();
  }
});

test('a 1-byte/s response is abandoned by the low-speed rule and retried; the rest of the host is crawled', async () => {
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('home', ['/slow/a', '/html/1', '/html/2', '/html/3']))],
    [/^\/slow\/\w+$/, drip(1000)],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [srv.origin + '/'], lowSpeedTimeMs: 500, bodyTimeoutMs: 60_000 });
    const slow = r.log.get(srv.origin + '/slow/a')!;
    assert.equal(slow.state, 'error');
    assert.match(slow.error!, /^transfer slower than 500 bytes\/s .*\(after 3 attempts\)$/);
    assert.equal(slow.status, 200);
    assert.equal(srv.hits.get('/slow/a'), 3);
    for (const p of ['/', '/html/1', '/html/2', '/html/3']) assert.equal(r.log.get(srv.origin + p)?.state, 'done', p);
    assert.equal(r.summary.stats.fetched, 5, 'the slow page was fetched (three times), once in the budget');
  } finally {
    await srv.close();
  }
});

test('two slow responses on one host: each gives up its slot, the host is not marked unreachable', async () => {
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('home', ['/slow/a', '/slow/b', ...[1, 2, 3, 4, 5, 6].map((i) => `/html/${i}`)]))],
    [/^\/slow\/\w+$/, drip(1000)],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [srv.origin + '/'], lowSpeedTimeMs: 500, bodyTimeoutMs: 60_000 });
    for (const p of ['/slow/a', '/slow/b']) {
      assert.match(r.log.get(srv.origin + p)!.error!, /^transfer slower than .*\(after 3 attempts\)$/);
      assert.equal(srv.hits.get(p), 3, p);
    }
    assert.equal(r.entries.filter((e) => e.state === 'done').length, 7, 'home and the six fast pages');
    assert.ok(r.entries.every((e) => !e.error?.startsWith('host unreachable')));
  } finally {
    await srv.close();
  }
});

test('a dead host (connection refused): its pages and probes end as "host unreachable" without spending the budget', async () => {
  const dead = await deadOrigin('127.0.0.2');
  const deadLinks = [1, 2, 3, 4, 5].map((i) => `${dead}/x/${i}`);
  const probe = `${dead}/wms?service=WMS&request=GetCapabilities`;
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('portal', ['/html/1', '/html/2', '/html/3', ...deadLinks, probe]))],
  ]);
  try {
    // The default pause of an unreachable host is 5 minutes: finishing at all shows the crawl did not wait for it.
    const db = join(mkdtempSync(join(tmpdir(), 'fc-dead-')), 'crawl.db');
    const r = await crawlToEnd({ db, seeds: [srv.origin + '/'], hosts: ['127.0.0.2'], scope: 'any', detect: ['wms'], maxPages: 5 });
    assert.equal(r.summary.reason, 'exhausted');
    for (const p of ['/', '/html/1', '/html/2', '/html/3']) assert.equal(r.log.get(srv.origin + p)?.state, 'done', p);
    const ended = r.entries.filter((e) => e.url.startsWith(dead));
    assert.equal(ended.length, 6);
    for (const e of ended) {
      assert.equal(e.state, 'error');
      assert.match(e.error!, /^host unreachable: connection refused \[ECONNREFUSED 127\.0\.0\.\d+:\d+\] \(2 failures in a row\)$/);
      assert.equal(e.fetched_at, null, 'no request of its own');
    }
    assert.equal(r.summary.stats.fetched, 4, 'only the live pages count as fetches');
    assert.equal(r.summary.stats.notFetched, 6);
    const svc = r.services.find((s) => s.endpoint === `${dead}/wms`);
    assert.equal(svc?.status, 'invalid');
    assert.match(svc!.reason!, /^host unreachable: connection refused \[ECONNREFUSED/);
    // A later run on the same database: 4 fetches so far, so one of the 5 is left for a new seed.
    const again = await crawlToEnd({ db, seeds: [srv.origin + '/html/4', srv.origin + '/html/5'], hosts: ['127.0.0.2'], scope: 'any', detect: ['wms'], maxPages: 5 });
    assert.equal(again.summary.reason, 'max-pages');
    assert.equal(again.summary.stats.fetched, 1);
    assert.equal(again.entries.filter((e) => e.state === 'done').length, 5);
  } finally {
    await srv.close();
  }
});

test('a host that accepts connections and never answers: two robots.txt tries, then its URLs end as "host unreachable"', async () => {
  const silent = await silentHost('127.0.0.4');
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('portal', ['/html/1', ...[1, 2, 3, 4].map((i) => `${silent.origin}/y/${i}`)]))],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [srv.origin + '/'], hosts: ['127.0.0.4'], scope: 'any', headersTimeoutMs: 1500 });
    assert.equal(r.summary.reason, 'exhausted');
    assert.equal(silent.connections(), 2, 'two robots.txt requests (maxRobotsFailures), then nothing');
    const ended = r.entries.filter((e) => e.url.startsWith(silent.origin));
    assert.equal(ended.length, 4);
    for (const e of ended) assert.match(e.error!, /^host unreachable: no response headers within \d+ ms \[UND_ERR_HEADERS_TIMEOUT\]/);
    assert.equal(r.log.get(srv.origin + '/html/1')?.state, 'done');
    assert.equal(r.summary.stats.fetched, 2);
  } finally {
    await srv.close();
    await silent.close();
  }
});

test('malformed HTTP answers end their own URL once, with the parser\'s reason, and never mark the host down', async () => {
  const malformed = [
    // A chunk size that is no hex number.
    'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nhello\r\n0\r\n\r\n',
    // A status line of garbage.
    'HELLO THERE\r\n\r\n',
    // Content-Length twice, the copies equal.
    'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello',
    // A header block past undici's limit (about 320 KB of headers).
    `HTTP/1.1 200 OK\r\n${`X-Pad: ${'a'.repeat(100)}\r\n`.repeat(3000)}Content-Length: 5\r\n\r\nhello`,
  ];
  const ok = (body: string) => `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  const bad = [...Array(12).keys()].map((i) => `/bad/${i}`);
  const host = await rawHost('127.0.0.6', (path) => {
    if (path === '/') return ok(html('home', [...bad, '/last']));
    if (path === '/last') return ok(html('last', []));
    if (path === '/robots.txt') return 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';
    return malformed[Number(path.split('/')[2]) % malformed.length]!;
  });
  try {
    const r = await crawlToEnd({ seeds: [host.origin + '/'], concurrency: 1, perHost: 1 });
    assert.equal(r.summary.reason, 'exhausted');
    assert.equal(r.log.get(host.origin + '/last')?.state, 'done', 'the host was still crawled after twelve malformed answers');
    const reasons = bad.map((p) => r.log.get(host.origin + p)?.error);
    assert.deepEqual(reasons, bad.map((_p, i) => [
      'malformed HTTP response: Invalid character in chunk size',
      'malformed HTTP response: Expected HTTP/, RTSP/ or ICE/',
      'malformed HTTP response: Content-Length repeated or invalid',
      'malformed HTTP response: header block larger than the limit (UND_ERR_HEADERS_OVERFLOW)',
    ][i % 4]));
    for (const p of bad) assert.equal(host.hits.get(p), 1, `${p} requested once: a malformed answer is not retried`);
  } finally {
    await host.close();
  }
});

test('robots.txt unreachable (HTTP 503): the host\'s pages are never requested and do not count as fetched', async () => {
  const other = await startTestServer([], '127.0.0.3');
  other.robots = 503;
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('home', ['/html/1', ...[1, 2, 3].map((i) => `${other.origin}/html/${i}`)]))],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [srv.origin + '/'], hosts: ['127.0.0.3'], scope: 'any', maxPages: 3 });
    assert.equal(r.summary.reason, 'exhausted');
    const ended = r.entries.filter((e) => e.url.startsWith(other.origin));
    assert.equal(ended.length, 3);
    for (const e of ended) assert.match(e.error!, /^robots\.txt unreachable: HTTP 503 \(after 3 attempts\)$/);
    assert.equal(count(other.hits, '/html/'), 0, 'no page of the host was requested');
    assert.ok((other.hits.get('/robots.txt') ?? 0) >= 1);
    assert.equal(r.summary.stats.fetched, 2);
    assert.equal(r.summary.stats.notFetched, 3);
  } finally {
    await srv.close();
    await other.close();
  }
});

test('URLs past maxUrlLength: a link that grows each page and a redirect to a long URL end as out of scope', async () => {
  const srv = await startTestServer([
    // Each page links to itself with the query doubled: depth alone would take 20 fetches to stop it.
    [/^\/grow/, (q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('grow', [`/grow?${'ab'.repeat(Math.max(8, q.url!.length))}`, '/far']))],
    [/^\/far$/, (_q, res) => res.writeHead(302, { location: `/landing?${'z'.repeat(600)}` }).end()],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [`${srv.origin}/grow`], maxUrlLength: 500 });
    const long = r.entries.filter((e) => e.url.length > 500);
    assert.ok(long.length >= 1);
    for (const e of long) assert.deepEqual([e.state, e.error], ['discarded', 'out of scope (longer than 500 characters)']);
    assert.ok([...srv.hits.keys()].every((k) => k.length <= 500), 'no long URL was requested');
    assert.equal(count(srv.hits, '/grow'), 6, 'the seed and the links that still fit (paths of 22 to 442 characters)');
    assert.equal(r.log.get(`${srv.origin}/far`)?.state, 'error');
    assert.match(r.log.get(`${srv.origin}/far`)!.error!, /out of scope \(longer than 500 characters\)/);
    assert.equal(count(srv.hits, '/landing'), 0);
  } finally {
    await srv.close();
  }
});
