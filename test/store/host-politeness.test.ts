import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { serveMultiHostWeb } from '../../src/bench/multi-host-web.js';
import { openReader } from '../../src/cli/open-reader.js';
import { pgSchema, redisPrefix } from '../../src/distributed/shared-crawl.js';
import type { CrawlReader } from '../../src/store/crawl-reader.js';
import { runCli } from '../helpers/run-cli.js';
import { PG_URL } from '../helpers/test-pg.js';
import { connectTestRedis, dropPrefix, REDIS_URL } from '../helpers/test-redis.js';

const DELAY = 40;
const BUDGET = 5;

async function check(reader: CrawlReader, roots: string[], backend: string): Promise<void> {
  const hosts = await reader.hosts(10, null);
  assert.equal(hosts.length, 2, `${backend}: both hosts`);
  for (const h of hosts) {
    assert.equal(h.fetched, BUDGET, `${backend}: ${h.host} fetched its budget and no more`);
    assert.equal(h.budget, BUDGET, `${backend}: ${h.host}'s budget is recorded`);
    assert.equal(h.delayMs, DELAY, `${backend}: ${h.host}'s delay`);
    // One request a host at a time: each request after the first waited exactly the delay from the end of the one before.
    assert.equal(h.waitedMs, DELAY * (BUDGET - 1), `${backend}: ${h.host}'s politeness waits`);
    assert.ok(h.nextAllowedAt !== null && !Number.isNaN(Date.parse(h.nextAllowedAt)), `${backend}: ${h.host}'s next allowed time`);
  }
  const curve = await reader.recallCurve([...roots, `${roots[0]}never-linked`], 300);
  assert.equal(curve.at(-1)?.fetched, 2 * BUDGET, `${backend}: the curve runs over every fetch`);
  assert.equal(curve.at(-1)?.found, 2, `${backend}: both roots found, the unlinked page not`);
  assert.ok(curve.every((p, i) => i === 0 || (p.found >= curve[i - 1]!.found && p.fetched > curve[i - 1]!.fetched)), `${backend}: the curve never falls`);
  assert.deepEqual(await reader.recallCurve([], 300), [], `${backend}: no targets, no curve`);
}

test('per-host politeness (delay, waits, next allowed, budget) and recall curves read the same from a SQLite and a PostgreSQL/Redis crawl', { timeout: 120_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 2, pagesPerHost: 30, localLinks: 3, crossLinks: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'fc-politeness-'));
  const name = `t${randomBytes(5).toString('hex')}`;
  const common = ['--seeds', ...web.roots, '--strategy', 'bfs', '--concurrency', '1', '--per-host', '1', '--delay-ms', String(DELAY),
    '--max-pages', '100', '--max-pages-per-host', String(BUDGET), '--no-sitemaps', '--no-robots'];
  try {
    const db = join(dir, 'p.db');
    const embedded = await runCli(['crawl', '--db', db, ...common]);
    assert.equal(embedded.code, 0, embedded.stderr);
    const shared = await runCli(['crawl', '--redis', REDIS_URL, '--pg', PG_URL, '--name', name, ...common]);
    assert.equal(shared.code, 0, shared.stderr);
    for (const [flags, backend] of [[{ db }, 'sqlite'], [{ redis: REDIS_URL, pg: PG_URL, name }, 'postgresql']] as const) {
      const open = await openReader(flags);
      try {
        await check(open.reader, web.roots.map((r) => (r.endsWith('/') ? r : `${r}/`)), backend);
      } finally {
        await open.close();
      }
    }
  } finally {
    const pool = new pg.Pool({ connectionString: PG_URL });
    await pool.query(`DROP SCHEMA IF EXISTS ${pgSchema(name)} CASCADE`);
    await pool.end();
    const redis = await connectTestRedis();
    await dropPrefix(redis, redisPrefix(name));
    redis.disconnect();
    await web.close();
  }
});
