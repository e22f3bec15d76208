import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pgSchema, startSharedCrawl } from '../../src/distributed/shared-crawl.js';
import { serveSite } from '../../src/bench/site-server.js';
import { runCli } from '../helpers/run-cli.js';
import { PG_URL } from '../helpers/test-pg.js';
import { REDIS_URL } from '../helpers/test-redis.js';
import { dropTestCrawl } from '../helpers/drop-test-crawl.js';

test("a shared crawl whose stored config is damaged: rebuild names it in one line (exit 2), and drop still removes the crawl", { timeout: 120_000 }, async () => {
  const site = await serveSite({ pages: 10, seed: 3, words: [40, 80], links: [2, 4] });
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  try {
    const crawl = await startSharedCrawl({ seeds: [`${site.origin}/`], maxPages: 5, delayMs: 0, sitemaps: false, robots: false }, { redis: REDIS_URL, pg: PG_URL, name });
    await crawl.close();
    const c = new pg.Client(PG_URL);
    await c.connect();
    try {
      await c.query(`UPDATE ${pgSchema(name)}.meta SET value = '{"maxPages": 5,' WHERE key = 'config'`);
      const rebuilt = await runCli(['rebuild', ...shared, '--force']);
      assert.equal(rebuilt.code, 2, rebuilt.stderr);
      assert.match(rebuilt.stderr, new RegExp(`^focuscrawl: crawl '${name}' is damaged: its stored 'config' is not JSON \\(.+\\); restore it from a backup, or crawl again into a new one\\n$`));
      const dropped = await runCli(['drop', ...shared, '--force']);
      assert.equal(dropped.code, 0, dropped.stderr);
      const left = await c.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [pgSchema(name)]);
      assert.equal(left.rowCount, 0, 'the schema is gone');
    } finally {
      await c.end();
    }
  } finally {
    await site.close();
    await dropTestCrawl(name);
  }
});
