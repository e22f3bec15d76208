import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { FocusCrawlError } from '../../src/errors.js';
import { openSharedWorker, pgSchema, startSharedCrawl } from '../../src/distributed/shared-crawl.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import { serveHoldingSite } from '../helpers/holding-site.js';
import { runCli } from '../helpers/run-cli.js';
import { REDIS_URL } from '../helpers/test-redis.js';
import { PG_URL } from '../helpers/test-pg.js';
import { dropTestCrawl } from '../helpers/drop-test-crawl.js';

/**
 * The shared crawl's library entry points check what they are given as startCrawl does: the
 * field at fault named (inside an inline topic too), a misspelt option with the nearest name,
 * code CONFIG; nothing is created for a refused call.
 */

async function schemaExists(name: string): Promise<boolean> {
  const c = new pg.Client(PG_URL);
  await c.connect();
  try {
    return (await c.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [pgSchema(name)])).rows.length > 0;
  } finally {
    await c.end();
  }
}

const config = (message: string) => (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && err.message === message;

test('startSharedCrawl names the field at fault (inside an inline topic too), suggests the nearest option, refuses a compiled Topic, and creates nothing', async () => {
  const name = `t${randomBytes(5).toString('hex')}`;
  const target = { redis: REDIS_URL, pg: PG_URL, name };
  const seeds = ['http://127.0.0.1:9/'];
  const cases: [unknown, string][] = [
    [{ seeds, topic: { name: 'solar', keyword: { solar: 1 } } }, `crawl '${name}': crawl option 'topic.keyword': unknown (did you mean 'keywords'?)`],
    [{ seeds, topic: { name: 'solar' } }, `crawl '${name}': crawl option 'topic.keywords': is missing`],
    [{ seeds, maxPage: 5 }, `crawl '${name}': crawl option 'maxPage': unknown (did you mean 'maxPages'?)`],
    [{ seeds, topic: topicFromFile({ name: 'solar', keywords: { solar: 1 } }) }, `crawl '${name}': crawl option 'topic' is a compiled Topic (loadTopic, topicFromFile): give the topic file's form, loadTopicFile(FILE) or { name, keywords }`],
    [{ seeds: [] }, 'no seed URLs: give them as arguments, or with --seeds URL... or --seeds-file FILE (the seeds option)'],
  ];
  try {
    for (const [options, message] of cases) {
      await assert.rejects(startSharedCrawl(options as never, target), config(message), JSON.stringify(options));
    }
    await assert.rejects(startSharedCrawl({ seeds }, target, { forse: true } as never), config("startSharedCrawl part 'forse': unknown (did you mean 'force'?); the parts are force, fetcher"));
    assert.equal(await schemaExists(name), false, 'a refused call creates no schema');
  } finally {
    // Only a regression creates anything: then it is not left behind.
    await dropTestCrawl(name);
  }
});

test("openSharedWorker checks its options: a misspelt one is named with the nearest, concurrency 0 is refused, not dropped; a good one is this worker's", { timeout: 60_000 }, async () => {
  const site = await serveHoldingSite();
  const name = `t${randomBytes(5).toString('hex')}`;
  const target = { redis: REDIS_URL, pg: PG_URL, name };
  try {
    // Refused before connecting: the crawl need not exist for the caller's typo to be named.
    await assert.rejects(openSharedWorker(target, { concurency: 4 } as never), config("worker option 'concurency': unknown (did you mean 'concurrency'?)"));
    await assert.rejects(openSharedWorker(target, { concurrency: 0 }), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && /^worker option 'concurrency': must be above 0$/.test(err.message), 'concurrency 0');
    await assert.rejects(openSharedWorker(target, { maxPages: 2.5 }), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && /^worker option 'maxPages': /.test(err.message));
    await assert.rejects(openSharedWorker(target, { proxy: 'ftp://x' }), config("worker option 'proxy': not a proxy: an http://, https:// or socks5:// URL, or 'direct'"));
    assert.equal(await schemaExists(name), false);

    const seeding = await startSharedCrawl({ seeds: site.urls(1), concurrency: 2, sitemaps: false }, target);
    await seeding.close();
    const worker = await openSharedWorker(target, { concurrency: 5, maxPages: undefined });
    try {
      assert.equal(worker.config.concurrency, 5, "the worker's own concurrency, over the crawl's 2");
    } finally {
      await worker.close();
    }
  } finally {
    site.release();
    await site.close();
    await dropTestCrawl(name);
  }
});

test('crawl --seed-only counts the seeds it queued, with the noun agreeing: 1 seed queued', { timeout: 60_000 }, async () => {
  const name = `t${randomBytes(5).toString('hex')}`;
  try {
    const r = await runCli(['crawl', '--redis', REDIS_URL, '--pg', PG_URL, '--name', name, '--seed-only', '--seeds', 'http://127.0.0.1:9/', '--no-sitemaps']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /: 1 seed queued; start workers with focuscrawl worker --name /);
    // Run again with the same seed and a new one: only the new one is added, and said so.
    const again = await runCli(['crawl', '--redis', REDIS_URL, '--pg', PG_URL, '--name', name, '--seed-only', '--seeds', 'http://127.0.0.1:9/', 'http://127.0.0.1:9/b', '--no-sitemaps']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /: 1 seed queued \(1 already known to the crawl, not queued again\); start workers/);
    // A seed given twice is one seed, not one added and one known.
    const twice = await runCli(['crawl', '--redis', REDIS_URL, '--pg', PG_URL, '--name', name, '--seed-only', '--seeds', 'http://127.0.0.1:9/c', 'http://127.0.0.1:9/c', '--no-sitemaps']);
    assert.match(twice.stdout, /: 1 seed queued; start workers/);
  } finally {
    await dropTestCrawl(name);
  }
});
