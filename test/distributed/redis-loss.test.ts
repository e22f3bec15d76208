import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { serveMultiHostWeb } from '../../src/bench/multi-host-web.js';
import { pgSchema } from '../../src/distributed/shared-crawl.js';
import { freePort } from '../helpers/free-port.js';
import { startRedis } from '../helpers/own-redis.js';
import { runCli, untilWhileRunning } from '../helpers/run-cli.js';
import { PG_URL } from '../helpers/test-pg.js';
import { dropTestSchema } from '../helpers/drop-test-crawl.js';

async function pageUrls(name: string): Promise<string[]> {
  const c = new pg.Client(PG_URL);
  await c.connect();
  try {
    return ((await c.query(`SELECT url FROM ${pgSchema(name)}.pages`)).rows as { url: string }[]).map((r) => r.url);
  } catch {
    return [];
  } finally {
    await c.end();
  }
}

test('Redis dies mid-crawl: the worker exits 2 naming Redis, nothing accepted is lost; a new Redis, rebuild and a worker finish the crawl', { timeout: 180_000 }, async () => {
  // Answers take 50 ms, so requests are almost always in flight when Redis dies.
  const web = await serveMultiHostWeb({ hosts: 2, pagesPerHost: 150, latencyMs: 50 });
  const port = await freePort();
  let redis = await startRedis(port);
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', `redis://127.0.0.1:${port}`, '--pg', PG_URL, '--name', name];
  try {
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--per-host', '1', '--delay-ms', '10', '--max-pages', '10000', '--max-depth', '1000', '--concurrency', '4']);
    assert.equal(seeded.code, 0, seeded.stderr);
    const worker = runCli(['worker', ...shared]);
    await untilWhileRunning(async () => (await pageUrls(name)).length >= 40, worker, 'worker');
    redis.kill('SIGKILL');
    const lost = await worker;
    assert.equal(lost.code, 2, lost.stdout + lost.stderr);
    assert.match(lost.stderr, new RegExp(`^focuscrawl: lost Redis at redis://127\\.0\\.0\\.1:${port}/?: .*return to waiting`, 'm'));
    const before = new Set(await pageUrls(name));
    assert.ok(before.size >= 40);

    redis = await startRedis(port); // empty: nothing was persisted
    const rebuilt = await runCli(['rebuild', ...shared]);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    const rest = await runCli(['worker', ...shared]);
    assert.equal(rest.code, 0, rest.stderr);
    const stored = await pageUrls(name);
    assert.equal(stored.length, 300, 'every page stored once');
    assert.deepEqual(new Set(stored), new Set(web.pages()));
    for (const url of before) assert.ok(stored.includes(url), 'a page stored before the loss is still there');
    const fetches = web.log.filter((r) => r.path !== '/robots.txt' && r.path !== '/sitemap.xml').length;
    // Only the requests in flight when Redis died (the worker's concurrency, 4) may be fetched twice.
    assert.ok(fetches >= 300 && fetches <= 304, `${fetches} page requests for 300 pages`);
  } finally {
    redis.kill('SIGKILL');
    await web.close();
    await dropTestSchema(name);
  }
});

test('Redis refuses writes mid-crawl (OOM under maxmemory, noeviction): the worker exits 2 naming Redis, no URL is failed for it; once Redis has room a worker finishes the crawl', { timeout: 180_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 2, pagesPerHost: 100, latencyMs: 30 });
  const port = await freePort();
  const redis = await startRedis(port);
  const name = `t${randomBytes(5).toString('hex')}`;
  const url = `redis://127.0.0.1:${port}`;
  const shared = ['--redis', url, '--pg', PG_URL, '--name', name];
  const admin = new Redis(url);
  try {
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--per-host', '1', '--delay-ms', '10', '--concurrency', '4', '--lease-ms', '3000']);
    assert.equal(seeded.code, 0, seeded.stderr);
    const worker = runCli(['worker', ...shared]);
    await untilWhileRunning(async () => (await pageUrls(name)).length >= 30, worker, 'worker');
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', '1');
    const full = await worker;
    assert.equal(full.code, 2, full.stdout + full.stderr);
    assert.match(full.stderr, new RegExp(`^focuscrawl: Redis at redis://127\\.0\\.0\\.1:${port}/? refused a command: OOM .*return to waiting`, 'm'));
    assert.doesNotMatch(full.stderr, /\n\s+at /, 'no stack trace');
    const c = new pg.Client(PG_URL);
    await c.connect();
    const failed = (await c.query(`SELECT url, error FROM ${pgSchema(name)}.crawl_log WHERE state = 'error'`)).rows as { url: string; error: string }[];
    await c.end();
    assert.deepEqual(failed, [], 'no URL ended as an error because Redis was full');

    await admin.config('SET', 'maxmemory', '0');
    const rest = await runCli(['worker', ...shared]);
    assert.equal(rest.code, 0, rest.stderr);
    const stored = await pageUrls(name);
    assert.equal(stored.length, 200, 'every page stored once');
    assert.deepEqual(new Set(stored), new Set(web.pages()));
  } finally {
    admin.disconnect();
    redis.kill('SIGKILL');
    await web.close();
    await dropTestSchema(name);
  }
});
