import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openSharedWorker, startSharedCrawl } from '../../src/distributed/shared-crawl.js';
import { serveSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { createStrategy } from '../../src/strategies/registry.js';
import type { Strategy } from '../../src/strategies/strategy.js';
import { PG_URL } from '../helpers/test-pg.js';
import { REDIS_URL } from '../helpers/test-redis.js';
import { dropTestCrawl } from '../helpers/drop-test-crawl.js';
import { collect } from '../helpers/collect.js';

test("a worker that joins a shared crawl hands its strategy every page's relevance stored so far, as a resume does", { timeout: 120_000 }, async () => {
  const site = await serveSite({ pages: 60, seed: 4, words: [80, 160], links: [4, 8] });
  const target = { redis: REDIS_URL, pg: PG_URL, name: `t${randomBytes(5).toString('hex')}` };
  const CRAWL = { delayMs: 0, perHost: 1, concurrency: 1, sitemaps: false, robots: false };
  try {
    const first = await startSharedCrawl({ seeds: [`${site.origin}/`], topic: DEMO_TOPIC, strategy: 'two-step', maxPages: 12, ...CRAWL }, target);
    try {
      await first.run();
    } finally {
      await first.close();
    }
    const given: { url: string; relevance: number }[] = [];
    const recording: Strategy = Object.assign(createStrategy('bfs', null), {
      restorePages(pages: Iterable<{ url: string; finalUrl: string; relevance: number }>) {
        for (const p of pages) given.push({ url: p.url, relevance: p.relevance });
      },
    });
    const joined = await openSharedWorker(target, { strategy: recording });
    try {
      const stored = await collect(joined.pg.reader().storedPages(null));
      assert.equal(given.length, 12, 'every page the first worker stored');
      const relevanceOf = new Map(stored.map((p) => [p.url, p.relevance]));
      for (const g of given) assert.equal(g.relevance, relevanceOf.get(g.url), g.url);
    } finally {
      await joined.close();
    }
  } finally {
    await site.close();
    await dropTestCrawl(target.name);
  }
});
