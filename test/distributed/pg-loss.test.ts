import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { serveMultiHostWeb } from '../../src/bench/multi-host-web.js';
import { pgSchema, redisPrefix } from '../../src/distributed/shared-crawl.js';
import { dropCrawlKeys } from '../../src/distributed/rebuild-frontier.js';
import { freePort } from '../helpers/free-port.js';
import { OwnPostgres } from '../helpers/own-postgres.js';
import { runCli, untilWhileRunning } from '../helpers/run-cli.js';
import { connectTestRedis, REDIS_URL } from '../helpers/test-redis.js';

async function pageUrls(url: string, name: string): Promise<string[]> {
  const c = new pg.Client(url);
  try {
    await c.connect();
    return ((await c.query(`SELECT url FROM ${pgSchema(name)}.pages`)).rows as { url: string }[]).map((r) => r.url);
  } catch {
    return [];
  } finally {
    await c.end().catch(() => {});
  }
}

/**
 * A shared crawl of a two-host web on a PostgreSQL of the test's own, seeded, with one worker
 * running until 40 pages are stored: `body` takes it from there. Everything is cleaned up after.
 */
async function midCrawl(extra: string[], body: (c: { web: Awaited<ReturnType<typeof serveMultiHostWeb>>; db: OwnPostgres; name: string; shared: string[]; worker: ReturnType<typeof runCli> }) => Promise<void>): Promise<void> {
  const web = await serveMultiHostWeb({ hosts: 2, pagesPerHost: 150, latencyMs: 50 });
  const db = new OwnPostgres(await freePort());
  await db.start();
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', db.url, '--name', name];
  try {
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--per-host', '1', '--delay-ms', '10', '--max-pages', '10000', '--max-depth', '1000', '--concurrency', '4', ...extra]);
    assert.equal(seeded.code, 0, seeded.stderr);
    const worker = runCli(['worker', ...shared]);
    await untilWhileRunning(async () => (await pageUrls(db.url, name)).length >= 40, worker, 'worker');
    await body({ web, db, name, shared, worker });
  } finally {
    db.stop();
    await web.close();
    const redis = await connectTestRedis();
    await dropCrawlKeys(redis, redisPrefix(name));
    redis.disconnect();
  }
}

test('PostgreSQL dies mid-crawl: the worker exits 2 naming PostgreSQL, nothing committed is lost; after it recovers a worker finishes the crawl, every page stored once', { timeout: 180_000 }, async () => {
  await midCrawl(['--lease-ms', '3000'], async ({ web, db, name, shared, worker }) => {
    const before = new Set(await pageUrls(db.url, name));
    db.crash();
    const lost = await worker;
    assert.equal(lost.code, 2, lost.stdout + lost.stderr);
    assert.match(lost.stderr, new RegExp(`^focuscrawl: lost PostgreSQL at postgres://postgres@127\\.0\\.0\\.1:${db.port}/postgres: .*return to waiting`, 'm'));
    assert.doesNotMatch(lost.stderr, /\n\s+at /, 'one line, no stack trace');

    await db.start(); // crash recovery from the WAL
    const recovered = new Set(await pageUrls(db.url, name));
    for (const url of before) assert.ok(recovered.has(url), `${url}, committed before the crash, is still stored`);
    // The dead worker's leases (3 s) expire; a new worker takes its URLs back.
    const rest = await runCli(['worker', ...shared]);
    assert.equal(rest.code, 0, rest.stderr);
    const stored = await pageUrls(db.url, name);
    assert.equal(stored.length, 300, 'every page stored once');
    assert.deepEqual(new Set(stored), new Set(web.pages()));
    const status = await runCli(['status', ...shared]);
    // 300 pages and each host's guessed /sitemap.xml (none there: done with a note).
    assert.match(status.stdout, /urls: 302 done, 0 error, 0 discarded, 0 waiting/);
    assert.match(status.stdout, /pages stored: 300/);
  });
});

test('PostgreSQL restarted for a few seconds mid-crawl: every write of the worker waits for it (the hosts\' politeness rows too), and the crawl finishes with every page stored once', { timeout: 180_000 }, async () => {
  await midCrawl([], async ({ web, db, name, worker }) => {
    db.crash();
    // Longer than the 2 s between politeness writes, shorter than the 7.75 s a lost connection is tried for.
    await new Promise((r) => setTimeout(r, 2500));
    await db.start();
    const done = await worker;
    assert.equal(done.code, 0, done.stderr);
    const stored = await pageUrls(db.url, name);
    assert.equal(stored.length, 300, 'every page stored once');
    assert.deepEqual(new Set(stored), new Set(web.pages()));
  });
});
