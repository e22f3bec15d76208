import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { serveMultiHostWeb } from '../../src/bench/multi-host-web.js';
import { pgSchema, redisPrefix } from '../../src/distributed/shared-crawl.js';
import { dropCrawlKeys } from '../../src/distributed/drop-crawl-keys.js';
import { runCli, untilWhileRunning } from '../helpers/run-cli.js';
import { connectTestRedis, keysUnder, REDIS_URL } from '../helpers/test-redis.js';
import { PG_URL } from '../helpers/test-pg.js';
import { dropTestSchema } from '../helpers/drop-test-crawl.js';

/**
 * Redis and PostgreSQL disagreeing about a crawl: Redis lost its data (a restart without
 * persistence, a flush, another database number) while PostgreSQL keeps the crawl, or Redis
 * still holds the keys of a crawl whose schema was dropped. Neither may pass for a finished or a
 * new crawl: each is one line naming Redis, exit 2, and the way back.
 */
async function lastRunReason(name: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    const r = await c.query(`SELECT value FROM ${pgSchema(name)}.meta WHERE key = 'lastRun'`);
    return r.rows.length ? (JSON.parse(r.rows[0].value as string) as { reason: string }).reason : null;
  } finally {
    await c.end();
  }
}

async function dropKeys(name: string): Promise<void> {
  const redis = await connectTestRedis();
  await dropCrawlKeys(redis, redisPrefix(name));
  redis.disconnect();
}

const oneLine = (stderr: string) => assert.equal(stderr.trim().split('\n').length, 1, stderr);

test('a crawl PostgreSQL knows and Redis lost: workers and crawl refuse and name rebuild, before and during a run', { timeout: 180_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 2, pagesPerHost: 200, latencyMs: 20 });
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  const lost = new RegExp(`^focuscrawl: Redis at ${REDIS_URL.replace(/[./]/g, '\\$&')} holds nothing of crawl '${name}', which PostgreSQL has .*focuscrawl rebuild --name ${name}`);
  try {
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--per-host', '1', '--delay-ms', '20', '--concurrency', '2', '--lease-ms', '3000']);
    assert.equal(seeded.code, 0, seeded.stderr);

    // During a run: the keys go while the worker crawls; it must not record the crawl as finished.
    const worker = runCli(['worker', ...shared]);
    const redis = await connectTestRedis();
    await untilWhileRunning(async () => Number((await redis.hget(`${redisPrefix(name)}:{0}:n`, 'done')) ?? 0) >= 20, worker, 'worker', 50);
    await dropCrawlKeys(redis, redisPrefix(name));
    const during = await worker;
    assert.equal(during.code, 2, during.stdout + during.stderr);
    assert.match(during.stderr, /^focuscrawl: Redis at .* holds nothing of crawl/m, during.stderr);
    assert.doesNotMatch(during.stderr, /\n\s+at /, 'no stack trace');
    assert.notEqual(await lastRunReason(name), 'exhausted', 'the crawl is not recorded as finished');
    // It stopped at its next call instead of crawling on: no counters or page budget recreated
    // from nothing, which would have made rebuild refuse.
    assert.equal(await redis.exists(`${redisPrefix(name)}:{0}:n`, `${redisPrefix(name)}:{0}:cfg`, `${redisPrefix(name)}:{0}:seq`), 0, 'no key of the crawl recreated');
    redis.disconnect();

    // Before a run: a worker, and crawl adding seeds, refuse at once.
    await dropKeys(name);
    const joining = await runCli(['worker', ...shared]);
    assert.equal(joining.code, 2, joining.stdout + joining.stderr);
    oneLine(joining.stderr);
    assert.match(joining.stderr, lost);
    const adding = await runCli(['crawl', ...shared, '--seed-only', '--seeds', web.roots[0]!]);
    assert.equal(adding.code, 2, adding.stdout + adding.stderr);
    assert.match(adding.stderr, lost);

    // rebuild is the way back.
    const rebuilt = await runCli(['rebuild', ...shared]);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);

    // A rebuild interrupted half way leaves its mark: no worker runs on the partial frontier, and
    // only a rebuild that finishes lets them in.
    const admin = await connectTestRedis();
    const marks = await keysUnder(admin, redisPrefix(name), '*:cfg');
    assert.ok(marks.length >= 1);
    for (const key of marks) await admin.hset(key, 'layout', 'rebuilding');
    admin.disconnect();
    const refused = await runCli(['worker', ...shared]);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    oneLine(refused.stderr);
    assert.match(refused.stderr, new RegExp(`^focuscrawl: Redis at .* holds crawl '${name}' half rebuilt: .*focuscrawl rebuild --name ${name} --force`));
    const unforced = await runCli(['rebuild', ...shared]);
    assert.equal(unforced.code, 2, unforced.stdout + unforced.stderr);
    assert.match(unforced.stderr, /half rebuilt, by a rebuild that was interrupted.*--force/);
    const forced = await runCli(['rebuild', ...shared, '--force']);
    assert.equal(forced.code, 0, forced.stderr);

    const again = await runCli(['worker', ...shared]);
    assert.equal(again.code, 0, again.stderr);
  } finally {
    await web.close();
    await dropKeys(name);
    await dropTestSchema(name);
  }
});

test('a new crawl whose name Redis still holds keys for (its schema dropped) is refused; --force drops them', { timeout: 120_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 1, pagesPerHost: 20, latencyMs: 0 });
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  const seed = ['--seed-only', '--seeds', web.roots[0]!, '--hosts', web.hosts.join(',')];
  try {
    assert.equal((await runCli(['crawl', ...shared, ...seed])).code, 0);
    await dropTestSchema(name);
    const stale = await runCli(['crawl', ...shared, ...seed]);
    assert.equal(stale.code, 2, stale.stdout + stale.stderr);
    oneLine(stale.stderr);
    assert.match(stale.stderr, new RegExp(`holds keys of a crawl named '${name}' that PostgreSQL does not know .*give --force to drop them`));
    const forced = await runCli(['crawl', ...shared, ...seed, '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /dropped the Redis keys of an earlier crawl named/);
    const status = await runCli(['status', ...shared]);
    assert.match(status.stdout, /1 URL waiting/, `the new crawl holds its one seed, not the old frontier: ${status.stdout}${status.stderr}`);

    // Keys of an earlier focuscrawl's layout (counters, no layout mark) are such keys too: refused
    // before a schema is made, which would be left behind.
    await dropKeys(name);
    await dropTestSchema(name);
    const redis = await connectTestRedis();
    await redis.hset(`${redisPrefix(name)}:{0}:n`, 'waiting', 3, 'done', 10);
    redis.disconnect();
    const older = await runCli(['crawl', ...shared, ...seed]);
    assert.equal(older.code, 2, older.stdout + older.stderr);
    assert.match(older.stderr, /holds keys of a crawl named .* give --force to drop them/);
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    const schema = await c.query('SELECT to_regclass($1) IS NOT NULL AS ok', [`${pgSchema(name)}.meta`]);
    await c.end();
    assert.equal((schema.rows[0] as { ok: boolean }).ok, false, 'no schema left behind');
    assert.equal((await runCli(['crawl', ...shared, ...seed, '--force'])).code, 0);
  } finally {
    await web.close();
    await dropKeys(name);
    await dropTestSchema(name);
  }
});

test("status of a crawl whose keys Redis lost (it answers and holds nothing of it) says the frontier is missing and names rebuild, not 'nothing left to fetch'", { timeout: 120_000 }, async () => {
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  try {
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', 'http://127.0.0.1:9/a', 'http://127.0.0.1:9/b', 'http://127.0.0.1:9/c', '--no-sitemaps']);
    assert.equal(seeded.code, 0, seeded.stderr);
    // As FLUSHALL would, for this crawl's keys only: the Redis is shared with other tests.
    await dropKeys(name);

    const status = await runCli(['status', ...shared]);
    assert.equal(status.code, 0, status.stderr);
    oneLine(status.stderr);
    assert.match(status.stderr, new RegExp(`^focuscrawl: Redis at ${REDIS_URL.replace(/[./]/g, '\\$&')} holds nothing of crawl '${name}', which PostgreSQL has .*focuscrawl rebuild --name ${name}.*; the figures are PostgreSQL's`));
    assert.match(status.stdout, new RegExp(`^crawl '${name}': the Redis frontier is missing \\(focuscrawl rebuild --name ${name} recreates it from PostgreSQL\\); 3 URLs waiting or being fetched in PostgreSQL's record\\n`));
    assert.doesNotMatch(status.stdout, /nothing left to fetch/);
    const json = JSON.parse((await runCli(['status', ...shared, '--json'])).stdout) as { running: unknown; redis: { answered: boolean; frontier?: string; error?: string }; urls: { waiting: number; fetching: number | null } };
    assert.equal(json.redis.answered, true);
    assert.equal(json.redis.frontier, 'missing');
    assert.match(json.redis.error ?? '', /focuscrawl rebuild --name/);
    assert.equal(json.running, null);
    assert.deepEqual([json.urls.waiting, json.urls.fetching], [3, null]);

    const rebuilt = await runCli(['rebuild', ...shared]);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    const after = await runCli(['status', ...shared]);
    assert.equal(after.stderr, '');
    assert.match(after.stdout, new RegExp(`^crawl '${name}': 3 URLs waiting; no worker running\\n`));
  } finally {
    await dropKeys(name);
    await dropTestSchema(name);
  }
});
