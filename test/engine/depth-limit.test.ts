import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { summaryText } from '../../src/cli/progress.js';
import { startCrawl } from '../../src/crawl.js';
import { collect } from '../helpers/collect.js';
import type { Strategy } from '../../src/strategies/strategy.js';
import type { Link } from '../../src/types.js';

/** Every link's priority is its anchor, a number: the test sets the crawl order by hand. */
const anchorStrategy: Strategy = {
  name: 'anchor-number',
  topic: null,
  seed: () => ({ priority: 100 }),
  scoreLinks: (_view, links: readonly Link[]) => links.map((l) => ({ priority: Number(l.anchor) })),
};

// Path -> its links as [target, priority]. With the depth limit at 2, best first goes down
// /a -> /b and meets /t at depth 3 before /hub shows it at depth 2; /c raises /x, found at
// depth 1 from the seed, through a link at depth 2.
const SITE: Record<string, [string, number][]> = {
  '/': [['/a', 9], ['/c', 5], ['/x', 2], ['/hub', 1]],
  '/a': [['/b', 9]],
  '/b': [['/t', 9]],
  '/c': [['/x', 8]],
  '/x': [['/y', 3]],
  '/hub': [['/t', 1]],
  '/t': [['/u', 9]],
  '/y': [],
  '/u': [],
};

/** Serves `site` (and `redirects`, path to Location) on 127.0.0.1 and crawls it to depth 2 in its anchors' order; `read` sees the crawl before it is closed. */
async function crawlSite<T>(
  site: Record<string, [string, number][]>,
  redirects: Record<string, string>,
  read: (c: { crawl: Awaited<ReturnType<typeof startCrawl>>; summary: Awaited<ReturnType<Awaited<ReturnType<typeof startCrawl>>['run']>>; origin: string; hits: string[] }) => Promise<T>,
): Promise<T> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') return void res.writeHead(404).end();
    hits.push(path);
    if (redirects[path]) return void res.writeHead(301, { location: redirects[path] }).end();
    const links = site[path];
    if (!links) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>page ${path}</title><body>${links.map(([h, p]) => `<a href="${h}">${p}</a>`).join(' ')}</body>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const crawl = await startCrawl(
      { seeds: [origin + '/'], db: join(mkdtempSync(join(tmpdir(), 'fc-depth-')), 'crawl.db'), maxDepth: 2, concurrency: 1, perHost: 1, delayMs: 0, sitemaps: false },
      { strategy: anchorStrategy },
    );
    const summary = await crawl.run();
    await crawl.db.settle();
    try {
      return await read({ crawl, summary, origin, hits });
    } finally {
      await crawl.close();
    }
  } finally {
    server.close();
  }
}

test('the depth limit counts the shortest path found: a URL first met too deep is fetched when a shorter path reaches it, and a raise through a deeper parent keeps the depth', async () => {
  await crawlSite(SITE, {}, async ({ crawl, summary, origin, hits }) => {
    const rows = crawl.db.db.prepare('SELECT url, state, depth, reason FROM urls ORDER BY url').all() as { url: string; state: number; depth: number; reason: string | null }[];
    const byPath = new Map(rows.map((r) => [r.url.slice(origin.length), r]));
    assert.deepEqual(hits, ['/', '/a', '/b', '/c', '/x', '/y', '/hub', '/t'], 'the crawl order');
    assert.deepEqual({ ...byPath.get('/t') }, { url: origin + '/t', state: 2, depth: 2, reason: null }, '/t: done at the depth of its shorter path');
    assert.equal(byPath.get('/x')?.depth, 1, '/x keeps the depth of the seed link');
    assert.equal(byPath.get('/y')?.state, 2, "/x's link is within the limit");
    assert.deepEqual([byPath.get('/u')?.state, byPath.get('/u')?.reason], [4, 'deeper than max depth 2']);
    assert.equal(summary.stats.done, 8);
    assert.equal(summary.reason, 'exhausted');
    assert.deepEqual([summary.stats.frontier.done, summary.stats.frontier.discarded], [8, 1], 'the frontier counts /t once, as done');
    // The run counted two depth discards (/t, /u) and says that one of them was queued after all.
    assert.deepEqual([summary.stats.discardedBy['deeper than max depth'], summary.stats.revived], [2, 1]);
    assert.match(summaryText(summary, 'crawl.db', null), /\nfound again: 1 link discarded before as deeper than max depth or by the strategy, then reached after all \(a shorter path, a better page, or a redirect whose page was stored\)\n/);
  });
});

test('a redirect at a shallow depth to a URL met before too deep stores that page under the redirecting URL', async () => {
  // Depth limit 2: /a -> /b meets /t at depth 3 (too deep); /r, at depth 1, then redirects to /t.
  const links: Record<string, [string, number][]> = { '/': [['/a', 9], ['/r', 1]], '/a': [['/b', 9]], '/b': [['/t', 9]], '/t': [] };
  await crawlSite(links, { '/r': '/t' }, async ({ crawl, summary, origin, hits }) => {
    const page = crawl.db.db.prepare("SELECT url, final_url, title FROM pages WHERE final_url = ?").get(origin + '/t');
    const target = crawl.db.db.prepare('SELECT state, depth, reason FROM urls WHERE url = ?').get(origin + '/t');
    const logged = (await collect(crawl.store.logEntries())).filter((e) => e.url === origin + '/t').map((e) => [e.state, e.error]);
    assert.deepEqual(hits, ['/', '/a', '/b', '/r', '/t']);
    assert.deepEqual({ ...(page as object) }, { url: origin + '/r', final_url: origin + '/t', title: 'page /t' }, 'the page, stored under the URL that led to it');
    assert.deepEqual({ ...(target as object) }, { state: 4, depth: 1, reason: `fetched through a redirect from ${origin}/r` });
    assert.deepEqual(logged, [['discarded', `fetched through a redirect from ${origin}/r`]], 'the log lists it once, as it ended');
    assert.equal(summary.stats.revived, 1);
  });
});
