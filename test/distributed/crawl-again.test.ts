import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pgSchema } from '../../src/distributed/shared-crawl.js';
import { twoChainSites } from '../helpers/chain-site.js';
import { runCli } from '../helpers/run-cli.js';
import { REDIS_URL } from '../helpers/test-redis.js';
import { PG_URL } from '../helpers/test-pg.js';
import { dropTestCrawl } from '../helpers/drop-test-crawl.js';

const sites = twoChainSites();

test('crawl --name again with another seed adds it to the stored seeds (the first seed\'s private address still allowed) and says what changed', { timeout: 120_000 }, async () => {
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  const c = new pg.Client(PG_URL);
  try {
    const first = await runCli(['crawl', ...shared, '--seeds', sites.a.pages[0]!, '--max-pages', '2', '--delay-ms', '0', '--no-sitemaps', '--concurrency', '1']);
    assert.equal(first.code, 0, first.stderr);
    const second = await runCli(['crawl', ...shared, '--seed-only', '--seeds', sites.b.pages[0]!, '--max-pages', '50', '--delay-ms', '0', '--no-sitemaps']);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(second.stderr.trim().split('\n'), [`focuscrawl: crawl '${name}' starts again with options changed since its last start (old → new): maxPages 2 → 50, concurrency 1 → 16 (not given: the default), seeds 1 → 2 (1 added to the seed list; the stored ones are kept); focuscrawl resume continues a crawl with its own options`]);
    const worker = await runCli(['worker', ...shared]);
    assert.equal(worker.code, 0, worker.stderr);

    const log = (await runCli(['export', ...shared])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string; state: string; error: string | null });
    assert.deepEqual(log.filter((e) => e.state !== 'done'), [], 'no URL refused: the first seed\'s address is still allowed');
    assert.deepEqual(new Set(log.map((e) => e.url)), new Set([...sites.a.pages, ...sites.b.pages]));
    await c.connect();
    const config = JSON.parse(((await c.query(`SELECT value FROM ${pgSchema(name)}.meta WHERE key = 'config'`)).rows[0] as { value: string }).value) as { seeds: string[] };
    assert.deepEqual(config.seeds, [sites.a.pages[0], sites.b.pages[0]]);
  } finally {
    await c.end().catch(() => {});
    await dropTestCrawl(name);
  }
});

test('two crawls created under one name at once: the second waits for the first and is refused for its other topic; a refused creation leaves no schema behind', { timeout: 120_000 }, async () => {
  const { startSharedCrawl } = await import('../../src/distributed/shared-crawl.js');
  const name = `t${randomBytes(5).toString('hex')}`;
  const target = { redis: REDIS_URL, pg: PG_URL, name };
  const c = new pg.Client(PG_URL);
  await c.connect();
  const schemaCount = async () => ((await c.query('SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = $1', [pgSchema(name)])).rows[0] as { n: number }).n;
  try {
    const topic = (word: string) => ({ name: word, keywords: { [word]: 1 } });
    const results = await Promise.allSettled([
      startSharedCrawl({ seeds: [sites.a.pages[0]!], topic: topic('solar'), maxPages: 3 }, target),
      startSharedCrawl({ seeds: [sites.b.pages[0]!], topic: topic('cooking'), maxPages: 5 }, target),
    ]);
    const made = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(made.length, 1, 'exactly one is created');
    assert.match(String(refused[0]?.reason), /holds a crawl for topic '(solar|cooking)' and crawl --topic gives topic '(solar|cooking)': pass --force/);
    for (const r of made) await (r as PromiseFulfilledResult<Awaited<ReturnType<typeof startSharedCrawl>>>).value.close();
    const config = JSON.parse(((await c.query(`SELECT value FROM ${pgSchema(name)}.meta WHERE key = 'config'`)).rows[0] as { value: string }).value) as { seeds: string[]; topic: { name: string }; maxPages: number };
    assert.equal(config.seeds.length, 1, 'only the created crawl\'s seed is stored');
    assert.equal(config.maxPages, config.topic.name === 'solar' ? 3 : 5, 'its own budget, not the refused one\'s');

    // PostgreSQL loses the crawl while Redis keeps its keys: a new crawl under the name is refused, and makes no schema.
    await c.query(`DROP SCHEMA ${pgSchema(name)} CASCADE`);
    const again = await runCli(['crawl', '--redis', REDIS_URL, '--pg', PG_URL, '--name', name, '--seed-only', '--seeds', sites.a.pages[0]!]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /holds keys of a crawl named '.*' that PostgreSQL does not know/);
    assert.equal(await schemaCount(), 0, 'no half-made schema');
    const status = await runCli(['status', '--redis', REDIS_URL, '--pg', PG_URL, '--name', name]);
    assert.equal(status.code, 2, 'status agrees that there is no such crawl');
  } finally {
    await c.end().catch(() => {});
    await dropTestCrawl(name);
  }
});
