import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openSharedWorker, startSharedCrawl } from '../../src/distributed/shared-crawl.js';
import { STRATEGY_STATE } from '../../src/distributed/strategy-checkpoint.js';
import { serveSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { loadTopic } from '../../src/relevance/topic.js';
import { createStrategy } from '../../src/strategies/registry.js';
import { PG_URL } from '../helpers/test-pg.js';
import { REDIS_URL } from '../helpers/test-redis.js';
import { dropTestCrawl } from '../helpers/drop-test-crawl.js';

const CRAWL = { delayMs: 0, perHost: 1, concurrency: 1, sitemaps: false, robots: false };

test('a shared crawl stores what adaptive learned in PostgreSQL, and a worker that joins later starts from it', { timeout: 120_000 }, async () => {
  const site = await serveSite({ pages: 60, seed: 4, words: [80, 160], links: [4, 8] });
  const target = { redis: REDIS_URL, pg: PG_URL, name: `t${randomBytes(5).toString('hex')}` };
  try {
    const first = await startSharedCrawl({ seeds: [`${site.origin}/`], topic: DEMO_TOPIC, strategy: 'adaptive', maxPages: 15, ...CRAWL }, target);
    let stored: string | null;
    try {
      await first.run();
      stored = await first.pg.getMeta(STRATEGY_STATE);
    } finally {
      await first.close();
    }
    assert.ok(stored, 'the run ended with a checkpoint of the strategy');
    const state = JSON.parse(stored) as { stats?: unknown; freq?: unknown };
    assert.ok(state.stats && state.freq, `adaptive's snapshot: ${stored.slice(0, 80)}`);

    const copy = createStrategy('adaptive', loadTopic(DEMO_TOPIC));
    let given: unknown = null;
    const restore = copy.restore!.bind(copy);
    copy.restore = (s: unknown) => {
      given = s;
      restore(s);
    };
    const joined = await openSharedWorker(target, { strategy: copy });
    try {
      assert.deepEqual(given, state, 'the joining worker restored the stored snapshot');
      // Restored, the copy knows what the first worker's copy knew: it snapshots the same state.
      assert.deepEqual(JSON.parse(JSON.stringify(copy.snapshot!())), state);
    } finally {
      await joined.close();
    }
  } finally {
    await site.close();
    await dropTestCrawl(target.name);
  }
});

test("a stored strategy snapshot that does not parse is not the crawl's record: the joining worker starts afresh and says so", { timeout: 120_000 }, async () => {
  const site = await serveSite({ pages: 20, seed: 5, words: [80, 160], links: [3, 6] });
  const target = { redis: REDIS_URL, pg: PG_URL, name: `t${randomBytes(5).toString('hex')}` };
  try {
    const first = await startSharedCrawl({ seeds: [`${site.origin}/`], topic: DEMO_TOPIC, strategy: 'adaptive', maxPages: 5, ...CRAWL }, target);
    try {
      await first.pg.setMeta(STRATEGY_STATE, '{"freq": [1, 2');
    } finally {
      await first.close();
    }
    const joined = await openSharedWorker(target);
    try {
      assert.ok(joined.notes.some((n) => /adaptive strategy could not restore what the crawl had learned .*starts afresh/.test(n)), joined.notes.join('\n'));
      const summary = await joined.run();
      assert.equal(summary.reason, 'max-pages');
      const again = JSON.parse((await joined.pg.getMeta(STRATEGY_STATE))!) as { stats?: unknown };
      assert.ok(again.stats, 'the run stored a good snapshot over the bad one');
    } finally {
      await joined.close();
    }
  } finally {
    await site.close();
    await dropTestCrawl(target.name);
  }
});
