import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startCrawl, type RunnableCrawl } from '../../src/crawl.js';
import { openSharedWorker, pgSchema, redisPrefix, startSharedCrawl } from '../../src/distributed/shared-crawl.js';
import type { LabelStore } from '../../src/store/label-store.js';
import { PgLabelStore } from '../../src/store/pg-label-store.js';
import { SqliteLabelStore } from '../../src/store/sqlite-label-store.js';
import { createStrategy } from '../../src/strategies/registry.js';
import type { Strategy } from '../../src/strategies/strategy.js';
import { serveGatedSite, type GatedSite } from '../helpers/gated-site.js';
import { PG_URL } from '../helpers/test-pg.js';
import { connectTestRedis, dropPrefix, REDIS_URL } from '../helpers/test-redis.js';

const SPEC = { pages: 40, seed: 5, words: [80, 160] as [number, number], links: [4, 8] as [number, number] };
/** One request at a time; labels polled often so the test does not wait long (the assertions do not depend on it). */
const CRAWL = { delayMs: 0, perHost: 1, concurrency: 1, maxPages: 15, sitemaps: false, robots: false, labelPollMs: 50 };

/** A strategy that crawls like bfs and records what learnFromLabels is given, waking whoever waits for the n-th call. */
function recordingStrategy() {
  const fed: boolean[][] = [];
  const waiters = new Map<number, () => void>();
  const strategy: Strategy = Object.assign(createStrategy('bfs', null), {
    learnFromLabels(labels: readonly { relevant: boolean }[]) {
      fed.push(labels.map((l) => l.relevant));
      waiters.get(fed.length)?.();
      return labels.length;
    },
  });
  const calls = (n: number) => (fed.length >= n ? Promise.resolve() : new Promise<void>((r) => waiters.set(n, r)));
  return { strategy, fed, calls };
}

/**
 * The crawl is held at the site's 6th request (one request in flight, so it is certainly running):
 * a label stored then must reach the strategy, and a changed label again, before the gate opens.
 */
async function labelWhileRunning(site: GatedSite, crawl: RunnableCrawl, labels: LabelStore, rec: ReturnType<typeof recordingStrategy>) {
  let ended = false;
  const run = crawl.run().finally(() => (ended = true));
  await site.reached(6);
  await labels.label(`${site.origin}/`, true);
  await rec.calls(1);
  await labels.label(`${site.origin}/`, false);
  await rec.calls(2);
  assert.equal(ended, false, 'both labels reached the strategy while the crawl ran');
  assert.equal(site.requests(), 6, 'the crawl is still held at the gate');
  site.open(6);
  const summary = await run;
  assert.equal(summary.stats.fetched, CRAWL.maxPages);
  assert.deepEqual(rec.fed, [[true], [false]], 'each label fed once, and again when it changed');
}

let sites: GatedSite[] = [];
before(async () => {
  sites = [await serveGatedSite(SPEC, [6]), await serveGatedSite(SPEC, [6])];
});
after(async () => {
  for (const s of sites) await s.close();
});

test('an embedded crawl feeds a label stored while it runs to its strategy', { timeout: 60_000 }, async () => {
  const site = sites[0]!;
  const db = join(mkdtempSync(join(tmpdir(), 'fc-live-labels-')), 'l.db');
  const rec = recordingStrategy();
  const crawl = await startCrawl({ seeds: [`${site.origin}/`], db, ...CRAWL }, { strategy: rec.strategy });
  const labels = new SqliteLabelStore(db);
  try {
    await labelWhileRunning(site, crawl, labels, rec);
  } finally {
    await labels.close();
    await crawl.close();
  }
});

test('a shared crawl\'s worker feeds a label stored while it runs to its strategy', { timeout: 60_000 }, async () => {
  const site = sites[1]!;
  const target = { redis: REDIS_URL, pg: PG_URL, name: `t${randomBytes(5).toString('hex')}` };
  const pool = new pg.Pool({ connectionString: PG_URL });
  try {
    // Created and seeded by one process, crawled by a worker that joins it.
    const seeding = await startSharedCrawl({ seeds: [`${site.origin}/`], strategy: 'bfs', ...CRAWL }, target);
    await seeding.close();
    const rec = recordingStrategy();
    const worker = await openSharedWorker(target, { strategy: rec.strategy });
    try {
      await labelWhileRunning(site, worker, new PgLabelStore(pool, pgSchema(target.name)), rec);
    } finally {
      await worker.close();
    }
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS ${pgSchema(target.name)} CASCADE`);
    await pool.end();
    const redis = await connectTestRedis();
    await dropPrefix(redis, redisPrefix(target.name));
    redis.disconnect();
  }
});
