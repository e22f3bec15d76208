import { test } from 'node:test';
import type { ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { serveMultiHostWeb } from '../../src/bench/multi-host-web.js';
import { pgSchema, redisPrefix } from '../../src/distributed/shared-crawl.js';
import { runCli, untilWhileRunning } from '../helpers/run-cli.js';
import { PG_URL } from '../helpers/test-pg.js';
import { REDIS_URL, connectTestRedis } from '../helpers/test-redis.js';
import { dropTestCrawl } from '../helpers/drop-test-crawl.js';

async function schemaPages(name: string): Promise<number | null> {
  const c = new pg.Client(PG_URL);
  await c.connect();
  try {
    const ok = (await c.query(`SELECT to_regclass($1) IS NOT NULL AS ok`, [`${pgSchema(name)}.pages`])).rows[0].ok as boolean;
    return ok ? Number((await c.query(`SELECT count(*) AS n FROM ${pgSchema(name)}.pages`)).rows[0].n) : null;
  } finally {
    await c.end();
  }
}

async function redisKeys(name: string): Promise<number> {
  const redis = await connectTestRedis();
  try {
    let cursor = '0';
    let n = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix(name)}:*`, 'COUNT', 1000);
      cursor = next;
      n += keys.length;
    } while (cursor !== '0');
    return n;
  } finally {
    redis.disconnect();
  }
}

const oneLine = (stderr: string) => assert.equal(stderr.trim().split('\n').length, 1, stderr);

test('drop deletes a finished shared crawl from Redis and PostgreSQL; status then finds no crawl of that name', { timeout: 120_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 2, pagesPerHost: 20 });
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  try {
    const crawl = await runCli(['crawl', ...shared, '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--delay-ms', '0', '--max-depth', '100']);
    assert.equal(crawl.code, 0, crawl.stderr);
    assert.equal(await schemaPages(name), 40);
    const keys = await redisKeys(name);
    assert.ok(keys > 0);

    const dropped = await runCli(['drop', ...shared]);
    assert.equal(dropped.code, 0, dropped.stderr);
    assert.equal(dropped.stdout.trim(), `crawl '${name}' dropped: ${keys} Redis keys deleted, its PostgreSQL schema dropped with 40 pages`);
    assert.equal(await schemaPages(name), null, 'the schema is gone');
    assert.equal(await redisKeys(name), 0, 'no key of the crawl is left');

    const status = await runCli(['status', ...shared]);
    assert.equal(status.code, 2);
    assert.match(status.stderr, new RegExp(`no crawl named '${name}'`));
    const again = await runCli(['drop', ...shared]);
    assert.equal(again.code, 2);
    oneLine(again.stderr);
    assert.match(again.stderr, new RegExp(`^focuscrawl: there is no crawl named '${name}' in PostgreSQL at .* or Redis at `));
  } finally {
    await web.close();
    await dropTestCrawl(name);
  }
});

test('drop and rebuild --force refuse while a worker runs and keep the crawl whole; --force drops it and the worker stops with one line', { timeout: 120_000 }, async () => {
  // Slow answers keep the worker busy while drop runs: 2,000 pages at 100 ms, two at a time, are
  // far more than the few seconds the commands below take, however loaded the machine is.
  const web = await serveMultiHostWeb({ hosts: 2, pagesPerHost: 1000, latencyMs: 100 });
  let child: ChildProcess | null = null;
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  try {
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--delay-ms', '0', '--max-depth', '1000', '--concurrency', '2']);
    assert.equal(seeded.code, 0, seeded.stderr);
    const worker = runCli(['worker', ...shared], { onStart: (c) => (child = c) });
    await untilWhileRunning(async () => ((await schemaPages(name)) ?? 0) >= 10, worker, 'worker');

    // rebuild clears and refills the keys the worker writes: refused even with --force.
    const rebuild = await runCli(['rebuild', ...shared, '--force']);
    assert.equal(rebuild.code, 2);
    oneLine(rebuild.stderr);
    assert.match(rebuild.stderr, new RegExp(`^focuscrawl: crawl '${name}' has 1 worker running \\(.+\\): stop its workers .* before a rebuild; nothing was changed`));

    const refused = await runCli(['drop', ...shared]);
    assert.equal(refused.code, 2);
    oneLine(refused.stderr);
    assert.match(refused.stderr, new RegExp(`^focuscrawl: crawl '${name}' has 1 worker running \\(.+\\): stop its workers first .*--force`));
    assert.ok(((await schemaPages(name)) ?? 0) >= 10, 'the record is kept');
    assert.ok((await redisKeys(name)) > 0, 'the frontier is kept');

    const forced = await runCli(['drop', ...shared, '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(await schemaPages(name), null);
    const stopped = await worker;
    assert.equal(stopped.code, 2, 'the worker does not report a finished crawl');
    assert.doesNotMatch(stopped.stderr, /\n\s+at /, 'no stack trace');
    assert.match(stopped.stderr, new RegExp(`^focuscrawl: PostgreSQL at .* lacks a table of crawl '${name}' .*: the crawl was dropped while this worker ran .*; this worker stops$`, 'm'));
    assert.equal(await redisKeys(name), 0, 'what the worker wrote while it stopped is swept too');
    const again = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...web.roots, '--hosts', web.hosts.join(',')]);
    assert.equal(again.code, 0, `the name can be used again: ${again.stderr}`);
    assert.ok(web.log.length < 2000, 'the worker stopped before fetching the whole web');
  } finally {
    (child as ChildProcess | null)?.kill('SIGKILL');
    await web.close();
    await dropTestCrawl(name);
  }
});

test('drop says what it needs: --name without the services, or no flags at all (an embedded crawl is a file)', async () => {
  const env = { PATH: process.env.PATH ?? '' };
  const r = await runCli(['drop', '--name', 'x'], { env });
  assert.equal(r.code, 2);
  oneLine(r.stderr);
  assert.match(r.stderr, /^focuscrawl: .*--redis/);
  const bare = await runCli(['drop'], { env });
  assert.equal(bare.code, 2);
  oneLine(bare.stderr);
  assert.match(bare.stderr.trim(), /^focuscrawl: drop deletes a shared crawl: pass --name NAME .*; an embedded crawl is its database file, deleted as a file$/);
});

test('drop refused by PostgreSQL (not the schema\'s owner) deletes nothing, in one line', { timeout: 120_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 1, pagesPerHost: 5 });
  const name = `t${randomBytes(5).toString('hex')}`;
  const role = `fc_nonowner_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client(PG_URL);
  await admin.connect();
  try {
    const crawl = await runCli(['crawl', '--redis', REDIS_URL, '--pg', PG_URL, '--name', name, '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--delay-ms', '0']);
    assert.equal(crawl.code, 0, crawl.stderr);
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`GRANT USAGE ON SCHEMA ${pgSchema(name)} TO ${role}`);
    await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${pgSchema(name)} TO ${role}`);
    const url = new URL(PG_URL);
    url.username = role;
    const keys = await redisKeys(name);
    const r = await runCli(['drop', '--redis', REDIS_URL, '--pg', url.toString(), '--name', name]);
    assert.equal(r.code, 2);
    oneLine(r.stderr);
    assert.match(r.stderr.trim(), new RegExp(`^focuscrawl: PostgreSQL at .* refused to drop schema ${pgSchema(name)}: .*owner.*; nothing was deleted$`));
    assert.equal(await redisKeys(name), keys, 'every Redis key is still there');
    assert.equal(await schemaPages(name), 5);
  } finally {
    await web.close();
    await dropTestCrawl(name);
    await admin.query(`DROP OWNED BY ${role}`).catch(() => {});
    await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => {});
    await admin.end();
  }
});
