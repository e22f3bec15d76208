import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { serveMultiHostWeb, politenessViolations } from '../../src/bench/multi-host-web.js';
import { pgSchema, redisPrefix } from '../../src/distributed/shared-crawl.js';
import { runCli, type CliResult, untilWhileRunning } from '../helpers/run-cli.js';
import { connectTestRedis, dropPrefix, REDIS_URL } from '../helpers/test-redis.js';
import { PG_URL } from '../helpers/test-pg.js';

const freshName = () => `t${randomBytes(5).toString('hex')}`;

async function dropCrawl(name: string): Promise<void> {
  const redis = await connectTestRedis();
  await dropPrefix(redis, redisPrefix(name));
  redis.disconnect();
  const client = new pg.Client(PG_URL);
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${pgSchema(name)} CASCADE`);
  await client.end();
}

async function pgRows<T>(sql: string): Promise<T[]> {
  const client = new pg.Client(PG_URL);
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

test('three workers share a crawl of 5,000 pages over 10 hosts; one is killed with SIGKILL and another joins: every page is stored once, nothing is lost, politeness holds across workers', { timeout: 300_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 10, pagesPerHost: 500, latencyMs: 3 });
  const name = freshName();
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  const delayMs = 10;
  try {
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--per-host', '1', '--delay-ms', String(delayMs),
      '--max-pages', '100000', '--max-depth', '1000', '--lease-ms', '3000', '--concurrency', '4']);
    assert.equal(seeded.code, 0, seeded.stderr);
    assert.match(seeded.stdout, /10 seeds queued/);

    const children: ChildProcess[] = [];
    const worker = () => runCli(['worker', ...shared], { onStart: (c) => children.push(c) });
    const runs: Promise<CliResult>[] = [worker(), worker(), worker()];
    // Kill the first worker once the crawl is well under way, with its requests in flight.
    await untilWhileRunning(async () => {
      const [{ n }] = await pgRows<{ n: string }>(`SELECT count(*) AS n FROM ${pgSchema(name)}.pages`).catch(() => [{ n: '0' }]);
      return Number(n) >= 1500;
    }, Promise.race(runs), 'a worker', 200);
    children[0]!.kill('SIGKILL');
    runs.push(worker());
    const results = await Promise.all(runs);
    assert.equal(results[0]!.signal, 'SIGKILL', `the first worker ended before it was killed: exit ${results[0]!.code}; ${results[0]!.stdout.slice(-400)} ${results[0]!.stderr.slice(-400)}`);
    for (const r of results.slice(1)) assert.equal(r.code, 0, r.stderr);

    const stored = await pgRows<{ url: string }>(`SELECT url FROM ${pgSchema(name)}.pages`);
    assert.equal(stored.length, 5000, 'every reachable page is stored once');
    assert.deepEqual(new Set(stored.map((r) => r.url)), new Set(web.pages()), 'and they are exactly the web\'s pages');
    const open = await pgRows<{ n: string }>(`SELECT count(*) AS n FROM ${pgSchema(name)}.urls WHERE state < 2`);
    assert.equal(Number(open[0]!.n), 0, 'no URL is left waiting or leased: none was lost with the killed worker');

    assert.deepEqual(politenessViolations(web.log, 1, delayMs), [], 'one request at a time per host and the delay between them, across all workers');
    const fetches = web.log.filter((r) => r.path !== '/robots.txt' && r.path !== '/sitemap.xml').length;
    // Only the killed worker's leases may be fetched twice: its requests in flight (its concurrency,
    // 4) and the pages that waited for their commit (at most twice as many).
    assert.ok(fetches >= 5000 && fetches <= 5012, `${fetches} page requests for 5,000 pages`);
  } finally {
    await web.close();
    await dropCrawl(name);
  }
});

test('one Redis worker at concurrency 1 crawls in the same order as the embedded crawler', { timeout: 120_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 1, pagesPerHost: 150, localLinks: 4, crossLinks: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'fc-order-'));
  const topic = join(dir, 'topic.yaml');
  writeFileSync(topic, 'name: leases\nkeywords: {lease: 1, shard: 1, redis: 1, worker: 1}\n');
  for (const strategy of ['bfs', 'adaptive']) {
    const name = freshName();
    const common = ['--seeds', web.roots[0]!, '--strategy', strategy, '--topic', topic, '--concurrency', '1', '--per-host', '1', '--delay-ms', '0', '--max-pages', '80'];
    try {
      const db = join(dir, `${strategy}.db`);
      const embedded = await runCli(['crawl', '--db', db, ...common]);
      assert.equal(embedded.code, 0, embedded.stderr);
      const sharedRun = await runCli(['crawl', '--redis', REDIS_URL, '--pg', PG_URL, '--name', name, ...common]);
      assert.equal(sharedRun.code, 0, sharedRun.stderr);
      const embeddedOrder = (await runCli(['export', '--db', db])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string; state: string }).filter((e) => e.state === 'done').map((e) => e.url);
      const sharedOrder = (await runCli(['export', '--redis', REDIS_URL, '--pg', PG_URL, '--name', name])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string; state: string }).filter((e) => e.state === 'done').map((e) => e.url);
      assert.ok(embeddedOrder.length >= 79, `${strategy}: ${embeddedOrder.length} pages`);
      assert.deepEqual(sharedOrder, embeddedOrder, `${strategy}: the same order`);
    } finally {
      await dropCrawl(name);
    }
  }
  await web.close();
});

test('after Redis lost a crawl\'s keys, rebuild recreates the frontier from PostgreSQL: the crawl goes on without fetching a page twice', { timeout: 120_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 2, pagesPerHost: 100 });
  const name = freshName();
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  try {
    const first = await runCli(['crawl', ...shared, '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--delay-ms', '0', '--max-pages', '60', '--max-depth', '1000']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /page budget/);
    const refused = await runCli(['rebuild', ...shared]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /still holds crawl .*pass --force/);
    // Redis loses everything of the crawl (no persistence, a restart).
    const redis = await connectTestRedis();
    await dropPrefix(redis, redisPrefix(name));
    redis.disconnect();
    const rebuilt = await runCli(['rebuild', ...shared]);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.match(rebuilt.stdout, /frontier rebuilt from PostgreSQL: \d+ URLs? waiting, \d+ final URLs? marked seen/);
    const status = JSON.parse((await runCli(['status', ...shared, '--json'])).stdout) as { urls: { done: number; error: number; waiting: number }; pages: number };
    assert.ok(status.urls.done + status.urls.error === 60 && status.urls.waiting > 0, JSON.stringify(status.urls));
    const rest = await runCli(['resume', ...shared, '--max-pages', '10000']);
    assert.equal(rest.code, 0, rest.stderr);
    assert.match(rest.stdout, /frontier exhausted/);
    const stored = await pgRows<{ url: string }>(`SELECT url FROM ${pgSchema(name)}.pages`);
    assert.deepEqual(new Set(stored.map((r) => r.url)), new Set(web.pages()));
    const pageRequests = web.log.filter((r) => r.path !== '/robots.txt' && r.path !== '/sitemap.xml').map((r) => r.host + r.path);
    assert.equal(pageRequests.length, new Set(pageRequests).size, 'no page was fetched twice');
    assert.equal(pageRequests.length, 200);
  } finally {
    await web.close();
    await dropCrawl(name);
  }
});

/** The most requests the server had in flight at once, over all hosts. */
function peakInFlight(log: { start: number; end: number }[]): number {
  const edges = log.flatMap((r) => [[r.start, 1], [r.end, -1]] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (now += d));
  return peak;
}

test('while PostgreSQL holds a worker\'s commits, its pages give their request slots back: it keeps fetching (up to twice --concurrency pages wait), never more than --concurrency at once, and stores every page once the lock goes', { timeout: 120_000 }, async () => {
  // A host's next URL waits for the last one's commit (--per-host 1): 20 hosts let up to 20 pages wait at once.
  const web = await serveMultiHostWeb({ hosts: 20, pagesPerHost: 10, latencyMs: 2 });
  const name = freshName();
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  const locker = new pg.Client(PG_URL);
  try {
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--per-host', '1', '--delay-ms', '0', '--max-pages', '1000', '--concurrency', '2', '--no-sitemaps']);
    assert.equal(seeded.code, 0, seeded.stderr);
    const run = runCli(['worker', ...shared]);
    const pageRequests = () => web.log.filter((r) => r.path !== '/robots.txt');
    const committed = async () => Number(((await locker.query(`SELECT count(*) AS n FROM ${pgSchema(name)}.pages`)).rows[0] as { n: string }).n);
    await locker.connect();
    // Once the worker is under way (its schema work done), its page writes are held.
    await untilWhileRunning(() => pageRequests().length >= 2, run, 'worker', 20);
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${pgSchema(name)}.pages IN EXCLUSIVE MODE`);
    const atLock = await committed();
    // Fetched and not committed: at most the 2 slots when a page held its slot until its commit;
    // now up to twice as many pages wait for their commit (and the claims stop there).
    await untilWhileRunning(() => pageRequests().length - atLock >= 3, run, 'worker', 50);
    assert.equal(await committed(), atLock, 'no page is committed while the lock is held');
    await locker.query('COMMIT');
    const done = await run;
    assert.equal(done.code, 0, done.stderr);
    assert.ok(peakInFlight(pageRequests()) <= 2, `at most 2 requests at once (--concurrency 2), saw ${peakInFlight(pageRequests())}`);
    const stored = await pgRows<{ url: string }>(`SELECT url FROM ${pgSchema(name)}.pages`);
    assert.equal(stored.length, 200);
    assert.deepEqual(new Set(stored.map((r) => r.url)), new Set(web.pages()));
  } finally {
    await locker.end().catch(() => {});
    await web.close();
    await dropCrawl(name);
  }
});
