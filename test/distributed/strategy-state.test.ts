import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openSharedWorker, pgSchema, startSharedCrawl, type SharedCrawl } from '../../src/distributed/shared-crawl.js';
import type { SharedTarget } from '../../src/distributed/shared-target.js';
import { PgLabelStore } from '../../src/store/pg-label-store.js';
import { STRATEGY_STATE } from '../../src/distributed/strategy-checkpoint.js';
import { serveSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { loadTopic } from '../../src/relevance/topic.js';
import { createStrategy } from '../../src/strategies/registry.js';
import { PG_URL } from '../helpers/test-pg.js';
import { REDIS_URL } from '../helpers/test-redis.js';
import { dropTestCrawl } from '../helpers/drop-test-crawl.js';

const CRAWL = { delayMs: 0, perHost: 1, concurrency: 1, sitemaps: false, robots: false };

/**
 * A site served, a shared adaptive crawl of it started and handed to `first` (closed after), then
 * `after` with the crawl's target; the site closed and the crawl dropped at the end.
 */
async function sharedAdaptive(site: { pages: number; seed: number; links: [number, number] }, maxPages: number, first: (crawl: SharedCrawl) => Promise<void>, after: (target: SharedTarget) => Promise<void>): Promise<void> {
  const served = await serveSite({ ...site, words: [80, 160] });
  const target = { redis: REDIS_URL, pg: PG_URL, name: `t${randomBytes(5).toString('hex')}` };
  try {
    const crawl = await startSharedCrawl({ seeds: [`${served.origin}/`], topic: DEMO_TOPIC, strategy: 'adaptive', maxPages, ...CRAWL }, target);
    try {
      await first(crawl);
    } finally {
      await crawl.close();
    }
    await after(target);
  } finally {
    await served.close();
    await dropTestCrawl(target.name);
  }
}

test('a shared crawl stores what adaptive learned in PostgreSQL, and a worker that joins later starts from it', { timeout: 120_000 }, async () => {
  let stored: string | null = null;
  await sharedAdaptive({ pages: 60, seed: 4, links: [4, 8] }, 15, async (first) => {
    await first.run();
    stored = await first.pg.getMeta(STRATEGY_STATE);
  }, async (target) => {
    assert.ok(stored, 'the run ended with a checkpoint of the strategy');
    const state = JSON.parse(stored) as { strategy: string; snapshot: { stats?: unknown; freq?: unknown } };
    assert.equal(state.strategy, 'adaptive');
    assert.ok(state.snapshot.stats && state.snapshot.freq, `adaptive's snapshot: ${String(stored).slice(0, 80)}`);

    const copy = createStrategy('adaptive', loadTopic(DEMO_TOPIC));
    let given: unknown = null;
    const restore = copy.restore!.bind(copy);
    copy.restore = (st: unknown) => {
      given = st;
      restore(st);
    };
    const joined = await openSharedWorker(target, { strategy: copy });
    try {
      assert.deepEqual(given, state.snapshot, 'the joining worker restored the stored snapshot');
      // Restored, the copy knows what the first worker's copy knew: it snapshots the same state.
      assert.deepEqual(JSON.parse(JSON.stringify(copy.snapshot!())), state.snapshot);
      assert.ok(!joined.notes.some((n) => /did not restore/.test(n)), joined.notes.join('\n'));
    } finally {
      await joined.close();
    }
  });
});

test("a stored strategy snapshot that does not parse is not the crawl's record: the joining worker starts afresh and says so", { timeout: 120_000 }, async () => {
  await sharedAdaptive({ pages: 20, seed: 5, links: [3, 6] }, 5, (first) => first.pg.setMeta(STRATEGY_STATE, '{"freq": [1, 2'), async (target) => {
    const joined = await openSharedWorker(target);
    try {
      assert.ok(joined.notes.some((n) => /adaptive strategy did not restore what the crawl had learned \(.*\): it starts afresh/.test(n)), joined.notes.join('\n'));
      const summary = await joined.run();
      assert.equal(summary.reason, 'max-pages');
      const again = JSON.parse((await joined.pg.getMeta(STRATEGY_STATE))!) as { snapshot?: { stats?: unknown } };
      assert.ok(again.snapshot?.stats, 'the run stored a good snapshot over the bad one');
    } finally {
      await joined.close();
    }
  });
});

test('labels the stored snapshot learned from are not fed again when a worker opens the crawl: what it learned stays the same', { timeout: 120_000 }, async () => {
  await sharedAdaptive({ pages: 40, seed: 4, links: [4, 8] }, 8, async (first) => {
    await first.run();
    const schema = pgSchema(first.target.name);
    const r = await first.pg.pool.query(`SELECT p.url FROM ${schema}.pages p JOIN ${schema}.urls u ON u.fp = p.fp WHERE u.data IS NOT NULL LIMIT 3`);
    assert.ok(r.rows.length > 0, 'pages reached through a link');
    const labels = new PgLabelStore(first.pg.pool, schema);
    for (const row of r.rows as { url: string }[]) await labels.label(row.url, true);
  }, async (target) => {
    const totals: number[] = [];
    const learnedNotes: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const w = await openSharedWorker(target);
      try {
        learnedNotes.push(w.notes.some((n) => /labelled in the dashboard/.test(n)));
        await w.run();
        totals.push((JSON.parse((await w.pg.getMeta(STRATEGY_STATE))!) as { snapshot: { stats: { total: number } } }).snapshot.stats.total);
      } finally {
        await w.close();
      }
    }
    assert.deepEqual(learnedNotes, [true, false, false], 'the labels are learned by the first worker to open the crawl after they were given, once');
    assert.equal(new Set(totals).size, 1, `nothing fetched, yet the stored statistics moved: ${totals.join(', ')}`);
  });
});
