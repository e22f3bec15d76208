import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCrawl } from '../../src/crawl.js';

/**
 * The seed links an off-topic page (/x) first and an on-topic one (/r) second; both link /t. The
 * strategy discards /t on /x (an irrelevant link on an irrelevant page, method B's rule), and
 * must still score it on /r, where it is a link of a relevant page.
 */
const PAGES: Record<string, [string, string, [string, string][]]> = {
  '/': ['Home', 'welcome', [['/x', 'football weather'], ['/r', 'sport']]],
  '/x': ['Weather', 'rain and sun today', [['/t', 'more']]],
  '/r': ['Football', 'football football match report', [['/t', 'more']]],
  '/t': ['Football target', 'football final', []],
};

let server: Server;
let root: string;
before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const p = PAGES[req.url ?? ''];
    if (!p) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${p[0]}</title><p>${p[1]}</p>${p[2].map(([h, a]) => `<a href="${h}">${a}</a>`).join(' ')}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
after(() => server.close());

for (const strategy of ['threshold', 'weighted-levels']) {
  test(`${strategy}: a link discarded on an off-topic page is fetched when an on-topic page links it`, async () => {
    const crawl = await startCrawl({
      db: join(mkdtempSync(join(tmpdir(), 'fc-revive-')), 'c.db'),
      seeds: [root],
      topic: { name: 'football', keywords: { football: 1 }, links: { keywords: ['football'] } },
      strategy,
      delayMs: 0,
      concurrency: 1,
      perHost: 1,
      sitemaps: false,
    });
    const summary = await crawl.run();
    await crawl.db.settle();
    const states = crawl.db.db.prepare('SELECT url, state FROM urls').all() as { url: string; state: number }[];
    const logged = [];
    for await (const e of crawl.store.logEntries()) if (e.url.endsWith('/t')) logged.push(e.state);
    await crawl.close();
    assert.deepEqual(logged, ['done'], 'the log (and export) lists /t once, in the state it ended in');
    const order = states.map((r) => new URL(r.url).pathname);
    assert.ok(order.includes('/t'), order.join(' '));
    assert.equal(states.find((r) => r.url.endsWith('/t'))?.state, 2, `/t is fetched (${JSON.stringify(states)})`);
    assert.equal(summary.stats.revived, 1, 'counted as a discard found again');
  });
}
