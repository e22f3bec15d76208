import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resumeCrawl, startCrawl } from '../../src/crawl.js';
import { collect } from '../helpers/collect.js';

/** /r1 -> /r2 -> /page on one host, and /away, /away2 and /away3 -> the other server; every request's arrival is logged. */
async function sites(robots: string, otherRobots: string | null = null) {
  const log: { path: string; at: number }[] = [];
  const other = createServer((req, res) => {
    log.push({ path: `other${req.url}`, at: performance.now() });
    if (req.url === '/robots.txt') return void (otherRobots === null ? res.writeHead(404).end() : res.writeHead(200, { 'content-type': 'text/plain' }).end(otherRobots));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>other</title>');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    log.push({ path, at: performance.now() });
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    if (path === '/r1') return void res.writeHead(302, { location: '/r2' }).end();
    if (path === '/r2') return void res.writeHead(301, { location: '/page' }).end();
    if (path.split('?')[0] === '/away') return void res.writeHead(302, { location: `${otherOrigin}/there` }).end();
    if (path.startsWith('/away')) return void res.writeHead(301, { location: `${otherOrigin}/there${path.split('?')[0]!.slice(5)}` }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>p</title><p>text</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, otherOrigin, log, close: () => (server.close(), other.close()) };
}

const gap = (log: { path: string; at: number }[], a: string, b: string) => log.find((e) => e.path === b)!.at - log.find((e) => e.path === a)!.at;

test("a redirect hop to the same host waits the host's delay, and robots.txt's Crawl-delay when longer", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-redirect-wait-'));
  for (const [robots, delayMs, expected] of [['User-agent: *\nAllow: /\n', 300, 300], ['User-agent: *\nCrawl-delay: 0.6\n', 100, 600]] as const) {
    const s = await sites(robots);
    try {
      const crawl = await startCrawl({ seeds: [`${s.origin}/r1`, `${s.origin}/away`], db: join(dir, `${delayMs}.db`), delayMs, sitemaps: false, maxDepth: 0, hosts: [s.otherOrigin] });
      await crawl.run();
      await crawl.close();
      // Timers never fire early; the server's clock reads arrivals to within a millisecond.
      assert.ok(gap(s.log, '/r1', '/r2') >= expected - 2, `r1 -> r2 after ${gap(s.log, '/r1', '/r2')} ms, delay ${expected}`);
      assert.ok(gap(s.log, '/r2', '/page') >= expected - 2, `r2 -> page after ${gap(s.log, '/r2', '/page')} ms`);
    } finally {
      s.close();
    }
  }
});

test("a redirect to another host is queued as that host's URL: its Crawl-delay holds, its page is stored under its own URL", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-redirect-away-'));
  // No delay on the redirecting host: followed at once, the hops would reach the other host together.
  const s = await sites('User-agent: *\nAllow: /\n', 'User-agent: *\nCrawl-delay: 0.3\n');
  try {
    // Three seeds redirect to three pages of the other host at once, and a fourth to one of them again.
    const seeds = ['/away', '/away2', '/away3', '/away'].map((p, i) => `${s.origin}${p}${i === 3 ? '?again' : ''}`);
    const crawl = await startCrawl({ seeds, db: join(dir, 'away.db'), delayMs: 0, perHost: 1, concurrency: 8, sitemaps: false, maxDepth: 0, hosts: [s.otherOrigin] });
    await crawl.run();
    await crawl.db.settle();
    const entries = await collect(crawl.store.logEntries());
    const pages = crawl.db.db.prepare('SELECT url FROM pages ORDER BY url').pluck().all() as string[];
    await crawl.close();
    const there = s.log.filter((e) => e.path.startsWith('other/there'));
    assert.deepEqual(there.map((e) => e.path).sort(), ['other/there', 'other/there2', 'other/there3'], 'each target asked for once');
    const at = there.map((e) => e.at).sort((a, b) => a - b);
    for (let i = 1; i < at.length; i++) assert.ok(at[i]! - at[i - 1]! >= 298, `the other host's requests ${Math.round(at[i]! - at[i - 1]!)} ms apart, its Crawl-delay 300`);
    const line = (url: string) => entries.find((e) => e.url === url);
    assert.equal(line(`${s.origin}/away`)?.error, `redirected to ${s.otherOrigin}/there (another host: queued)`);
    assert.equal(line(`${s.origin}/away`)?.status, 302);
    assert.equal(line(`${s.origin}/away?again`)?.error, `redirected to ${s.otherOrigin}/there (another host: already seen)`);
    assert.equal(line(`${s.otherOrigin}/there2`)?.state, 'done');
    assert.equal(line(`${s.otherOrigin}/there2`)?.depth, 0, 'a hop is no link: the depth of the URL that redirected');
    assert.deepEqual(pages, [`${s.otherOrigin}/there`, `${s.otherOrigin}/there2`, `${s.otherOrigin}/there3`], 'the targets are stored under their own URLs, the redirects as no pages');
  } finally {
    s.close();
  }
});

/**
 * Two hosts that redirect to each other with a counter (/r?n=N to the other's /r?n=N+1).
 * `flaky`: each URL fails once (a retry) before it redirects. `requests` counts the redirects sent.
 */
async function pingPongHosts(flaky = false): Promise<{ origins: string[]; requests: () => number; close: () => void }> {
  let requests = 0;
  const asked = new Set<string>();
  const origins: string[] = [];
  const servers = [0, 1].map(() =>
    createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (flaky && !asked.has(req.url ?? '')) {
        asked.add(req.url ?? '');
        return void res.writeHead(500).end();
      }
      requests++;
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? 0);
      res.writeHead(302, { location: `${origins[(n + 1) % 2]}/r?n=${n + 1}` }).end();
    }),
  );
  for (const s of servers) {
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    origins.push(`http://127.0.0.1:${(s.address() as AddressInfo).port}`);
  }
  return { origins, requests: () => requests, close: () => servers.forEach((s) => s.close()) };
}

for (const flaky of [false, true]) test(`two hosts that redirect to each other with a counter end the chain after the redirect limit, as one fetch would${flaky ? ', retried hops included' : ''}`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-redirect-pingpong-'));
  const { origins, requests, close } = await pingPongHosts(flaky);
  try {
    const crawl = await startCrawl({ seeds: [`${origins[0]}/r?n=0`], db: join(dir, 'pp.db'), delayMs: 0, retryBaseMs: 5, maxPages: 200, maxDepth: 0, sitemaps: false, hosts: [origins[1]!] });
    await crawl.run();
    await crawl.db.settle();
    const entries = await collect(crawl.store.logEntries());
    await crawl.close();
    assert.ok(requests() <= 7, `${requests()} requests: the default limit is 5 redirects`);
    assert.match(entries.at(-1)?.error ?? '', /^more than 5 redirects \(across hosts, the last to http:\/\/127\.0\.0\.1:\d+\/r\?n=6\)$/, JSON.stringify(entries.at(-1)));
  } finally {
    close();
  }
});

test('a chain of redirects across hosts cut by the page budget keeps its count on resume: the limit holds over both runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-redirect-resume-'));
  const { origins, requests, close } = await pingPongHosts();
  try {
    const db = join(dir, 'pp.db');
    const first = await startCrawl({ seeds: [`${origins[0]}/r?n=0`], db, delayMs: 0, maxPages: 3, maxDepth: 0, sitemaps: false, hosts: [origins[1]!] });
    await first.run();
    await first.close();
    assert.equal(requests(), 3, 'the first run ends at its budget, mid-chain');
    const again = await resumeCrawl(db, { maxPages: 200 });
    await again.run();
    await again.db.settle();
    const entries = await collect(again.store.logEntries());
    await again.close();
    // Counted afresh on resume, the chain would take 5 more redirects after the first run's 3.
    assert.equal(requests(), 6, `${requests()} requests: 5 redirects over both runs, and the 6th ends the chain`);
    assert.match(entries.at(-1)?.error ?? '', /^more than 5 redirects \(across hosts, the last to http:\/\/127\.0\.0\.1:\d+\/r\?n=6\)$/, JSON.stringify(entries.at(-1)));
  } finally {
    close();
  }
});

test('many redirect hops waiting at once on the run\'s stop signal raise no listener-leak warning', async () => {
  const servers = await Promise.all(
    Array.from({ length: 12 }, async () => {
      const srv = createServer((q, res) => {
        if (q.url === '/robots.txt') return void res.writeHead(404).end();
        if (q.url === '/r') return void res.writeHead(302, { location: '/t' }).end();
        res.writeHead(200, { 'content-type': 'text/html' }).end('<title>t</title>');
      });
      await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
      return srv;
    }),
  );
  const dir = mkdtempSync(join(tmpdir(), 'fc-redirect-hops-'));
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  try {
    const seeds = servers.map((srv) => `http://127.0.0.1:${(srv.address() as AddressInfo).port}/r`);
    const crawl = await startCrawl({ seeds, db: join(dir, 'hops.db'), delayMs: 300, perHost: 1, concurrency: 16, sitemaps: false, maxDepth: 0, hosts: seeds.map((s) => new URL(s).host) });
    const summary = await crawl.run();
    await crawl.close();
    assert.equal(summary.stats.done, 12);
    // Warnings are emitted on the next tick.
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(warnings.filter((w) => /MaxListeners/.test(w)), []);
  } finally {
    process.off('warning', onWarning);
    for (const srv of servers) srv.close();
  }
});
