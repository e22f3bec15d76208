import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openSharedWorker, pgSchema, redisPrefix, startSharedCrawl } from '../../src/distributed/shared-crawl.js';
import { redisDatabase } from '../../src/distributed/shared-target.js';
import { serveSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { AdaptiveStrategy } from '../../src/strategies/adaptive.js';
import { loadTopic } from '../../src/relevance/topic.js';
import { PG_URL } from '../helpers/test-pg.js';
import { REDIS_URL } from '../helpers/test-redis.js';
import { dropTestCrawl } from '../helpers/drop-test-crawl.js';

/** adaptive, keeping the URL of every page another worker told it of. */
class Listening extends AdaptiveStrategy {
  readonly heardOf: string[] = [];
  override hear(records: readonly unknown[]): void {
    for (const r of records) this.heardOf.push((r as { u: string }).u);
    super.hear(records);
  }
}

test("a shared crawl's workers hear what the others' adaptive learned: every page another worker scored, none of their own", { timeout: 120_000 }, async () => {
  const site = await serveSite({ pages: 60, seed: 9, words: [80, 160], links: [4, 8] });
  const target = { redis: REDIS_URL, pg: PG_URL, name: `t${randomBytes(5).toString('hex')}` };
  const CRAWL = { delayMs: 0, perHost: 1, concurrency: 1, sitemaps: false, robots: false };
  const db = new pg.Client(PG_URL);
  try {
    const first = await startSharedCrawl({ seeds: [`${site.origin}/`], topic: DEMO_TOPIC, strategy: 'adaptive', maxPages: 12, ...CRAWL }, target);
    // Subscribed from here on, but not crawling: it can only hear.
    const listener = new Listening(loadTopic(DEMO_TOPIC));
    const second = await openSharedWorker(target, { strategy: listener });
    try {
      // What no worker of this version says: unreadable, another format, another strategy. None may stop a worker.
      const channel = `${redisPrefix(target.name)}:evidence:${redisDatabase(REDIS_URL) ?? 0}`;
      const stranger = { u: `${site.origin}/stranger`, p: null, h: '127.0.0.1', k: '0', d: 0, q: 1, t: '', r: 1, o: 1, f: null };
      for (const m of ['null', '{', '7', JSON.stringify({ w: 'x', s: 'adaptive', v: 1, e: null }), JSON.stringify({ w: 'x', s: 'adaptive', v: 2, e: [stranger] }), JSON.stringify({ w: 'x', s: 'bfs', v: 1, e: [stranger] })]) {
        await first.redis.publish(channel, m);
      }
      let told = 0;
      try {
        const summary = await first.run();
        assert.equal(summary.stats.fetched, 12);
        const line = /adaptive: told the other workers what it learned from (\d+) pages \(\d+ messages\) and heard of 0 pages they fetched/.exec(first.summaryNotes!(summary).join('\n'));
        assert.ok(line, 'the summary says what was told and heard');
        told = Number(line[1]);
      } finally {
        await first.close();
      }
      await db.connect();
      const fetched = (await db.query(`SELECT url FROM ${pgSchema(target.name)}.crawl_log WHERE state = 'done' ORDER BY seq`)).rows.map((r: { url: string }) => r.url);
      assert.equal(fetched.length, 12);
      // The site serves its first page at / and at /p/0: the copy's links are not scored, so it teaches nothing.
      assert.equal(told, 11);
      // Delivery is asynchronous: wait for the last message (the test's timeout bounds a failure).
      while (listener.heardOf.length < told) await new Promise((r) => setTimeout(r, 20));
      assert.equal(new Set(listener.heardOf).size, told, 'each page once');
      assert.deepEqual(listener.heardOf.filter((u) => !fetched.includes(u)), [], 'only pages the first worker fetched');
      const summary = await second.run();
      assert.equal(summary.stats.fetched, 0, 'the budget was spent by the first worker');
      assert.match(second.summaryNotes!(summary).join('\n'), /adaptive: told the other workers what it learned from 0 pages \(0 messages\) and heard of 11 pages they fetched/);
    } finally {
      await second.close();
    }
  } finally {
    await db.end().catch(() => {});
    await site.close();
    await dropTestCrawl(target.name);
  }
});
