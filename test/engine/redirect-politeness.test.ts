import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCrawl } from '../../src/crawl.js';

/** /r1 -> /r2 -> /page on one host, and /away -> the other server; every request's arrival is logged. */
async function sites(robots: string) {
  const log: { path: string; at: number }[] = [];
  const other = createServer((req, res) => {
    log.push({ path: `other${req.url}`, at: performance.now() });
    res.writeHead(req.url === '/robots.txt' ? 404 : 200, { 'content-type': 'text/html' }).end('<title>other</title>');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    log.push({ path, at: performance.now() });
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    if (path === '/r1') return void res.writeHead(302, { location: '/r2' }).end();
    if (path === '/r2') return void res.writeHead(301, { location: '/page' }).end();
    if (path === '/away') return void res.writeHead(302, { location: `${otherOrigin}/there` }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>p</title><p>text</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, otherOrigin, log, close: () => (server.close(), other.close()) };
}

const gap = (log: { path: string; at: number }[], a: string, b: string) => log.find((e) => e.path === b)!.at - log.find((e) => e.path === a)!.at;

test("a redirect hop to the same host waits the host's delay, and robots.txt's Crawl-delay when longer; a hop to another host is followed", async () => {
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
      assert.ok(s.log.some((e) => e.path === 'other/there'), 'the cross-host hop was followed');
    } finally {
      s.close();
    }
  }
});
