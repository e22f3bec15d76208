import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { serveMultiHostWeb } from '../../src/bench/multi-host-web.js';
import { heartbeatWindowMs } from '../../src/crawl-parts.js';
import { redisPrefix } from '../../src/distributed/shared-crawl.js';
import { freePort } from '../helpers/free-port.js';
import { serveHoldingSite } from '../helpers/holding-site.js';
import { startServe, type ServeProcess } from '../helpers/start-serve.js';
import { startRedis } from '../helpers/own-redis.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { connectTestRedis, REDIS_URL } from '../helpers/test-redis.js';
import { PG_URL } from '../helpers/test-pg.js';
import { dropTestCrawl, dropTestSchema } from '../helpers/drop-test-crawl.js';

/**
 * The reading commands of a shared crawl and Redis: search, export and services read PostgreSQL
 * only; status reads the live frontier too, says in one line when Redis does not answer, and
 * refuses credentials Redis refused. What status says of workers and their leases.
 */
const oneLine = (r: CliResult) => assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
/** The environment without the shared crawl's services: only the flags given name them. */
const { FOCUSCRAWL_REDIS: _r, FOCUSCRAWL_PG: _p, ...bareEnv } = process.env;
const cli = (args: string[]) => runCli(args, { env: bareEnv });

test('Redis down: search, export and services read PostgreSQL without a word about Redis (and need no --redis); status prints PostgreSQL\'s figures and one line naming Redis and what is missing', { timeout: 300_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 1, pagesPerHost: 40 });
  const name = `t${randomBytes(5).toString('hex')}`;
  const up = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  const deadPort = await freePort();
  const down = ['--redis', `redis://127.0.0.1:${deadPort}`, '--pg', PG_URL, '--name', name];
  try {
    const crawled = await cli(['crawl', ...up, '--seeds', web.roots[0]!, '--hosts', web.hosts[0]!, '--delay-ms', '0', '--max-pages', '15']);
    assert.equal(crawled.code, 0, crawled.stderr);
    const truth = JSON.parse((await cli(['status', ...up, '--json'])).stdout) as { urls: { waiting: number; done: number }; strategy: string; strategySource: string };
    assert.ok(truth.urls.waiting > 0, 'URLs are left waiting at the budget');
    assert.deepEqual([truth.strategy, truth.strategySource], ['bfs', 'default'], 'the strategy the crawl ran, not null');

    for (const services of [down, ['--pg', PG_URL, '--name', name]]) {
      for (const args of [['search', 'crawler', '--limit', '3'], ['export'], ['export', '--what', 'pages'], ['services']]) {
        const r = await cli([...args, ...services]);
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
        // services adds one line of its own: this crawl looked for none.
        const own = args[0] === 'services' ? /^focuscrawl: .* was crawled without service detection[^\n]*\n$/ : /^$/;
        assert.match(r.stderr, own, `${args.join(' ')} ${services.join(' ')}: nothing about Redis`);
        assert.deepEqual(r.stdout, (await cli([...args, ...up])).stdout, `${args.join(' ')}: the same output as with Redis up`);
      }
    }

    const status = await cli(['status', ...down]);
    assert.equal(status.code, 0, status.stderr);
    oneLine(status);
    assert.match(status.stderr, new RegExp(`^focuscrawl: Redis at redis://127\\.0\\.0\\.1:${deadPort} did not answer \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${deadPort}\\): the figures are PostgreSQL's, in which the URLs being fetched count as waiting, and whether workers are running is not known\\n$`));
    assert.match(status.stdout, new RegExp(`^crawl '${name}': ${truth.urls.waiting} URLs? waiting or being fetched \\(Redis did not answer\\)\\nurls: ${truth.urls.done} done, .*${truth.urls.waiting} waiting or being fetched\\n`));

    const json = await cli(['status', ...down, '--json']);
    assert.equal(json.code, 0, json.stderr);
    oneLine(json);
    const s = JSON.parse(json.stdout) as { running: unknown; redis: { url: string; answered: boolean; error: string }; urls: { waiting: number; fetching: number | null } };
    assert.deepEqual(s.redis, { url: `redis://127.0.0.1:${deadPort}`, answered: false, error: `connect ECONNREFUSED 127.0.0.1:${deadPort}` });
    assert.equal(s.running, null);
    assert.equal(s.urls.fetching, null, 'not known without Redis');
    assert.equal(s.urls.waiting, truth.urls.waiting);

    // The library's reader of a shared crawl's record, by URL and name.
    const { PgCrawlReader } = await import('../../src/store/pg-crawl-reader.js');
    const reader = await PgCrawlReader.open(PG_URL, name);
    assert.equal(((await reader.config()) as { maxPages?: number } | null)?.maxPages, 15);
    await reader.close();
    await assert.rejects(PgCrawlReader.open(PG_URL, `${name}x`), new RegExp(`there is no crawl named '${name}x'`));
    await assert.rejects(PgCrawlReader.open(PG_URL, 'Bad-Name'), /PgCrawlReader\.open's name: 'Bad-Name' must be 1-40/);

    // No Redis named at all: the same figures, and a line saying none was given.
    const bare = await cli(['status', '--pg', PG_URL, '--name', name]);
    assert.equal(bare.code, 0, bare.stderr);
    oneLine(bare);
    assert.match(bare.stderr, /^focuscrawl: no Redis given \(--redis or FOCUSCRAWL_REDIS\): the figures are PostgreSQL's/);
    assert.match(bare.stdout, new RegExp(`^crawl '${name}': ${truth.urls.waiting} URLs? waiting or being fetched`));
    const bareJson = JSON.parse((await cli(['status', '--pg', PG_URL, '--name', name, '--json'])).stdout) as { redis: unknown };
    assert.deepEqual(bareJson.redis, { url: null, answered: false, error: 'not given' });
    // A reader that never connects to Redis does not read its variable; an empty variable is unset.
    const withEnv = (extra: Record<string, string>) => runCli(['search', 'crawler', '--pg', PG_URL, '--name', name], { env: { ...bareEnv, ...extra } });
    assert.equal((await withEnv({ FOCUSCRAWL_REDIS: 'bogus' })).code, 0);
    const emptyVar = await runCli(['status', '--pg', PG_URL, '--name', name], { env: { ...bareEnv, FOCUSCRAWL_REDIS: '' } });
    assert.equal(emptyVar.code, 0, emptyVar.stderr);
    assert.match(emptyVar.stderr, /^focuscrawl: no Redis given/);
  } finally {
    await web.close();
    await dropTestCrawl(name);
  }
});

test('a Redis that refuses the password (WRONGPASS) or asks for one (NOAUTH): status and worker exit 2 with one line naming Redis and why, the password hidden; search does not need Redis', { timeout: 120_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 1, pagesPerHost: 5 });
  const port = await freePort();
  const redis = await startRedis(port, ['--requirepass', 'Sesame42']);
  const name = `t${randomBytes(5).toString('hex')}`;
  const good = `redis://:Sesame42@127.0.0.1:${port}`;
  try {
    const crawled = await cli(['crawl', '--redis', good, '--pg', PG_URL, '--name', name, '--seeds', web.roots[0]!, '--hosts', web.hosts[0]!, '--delay-ms', '0']);
    assert.equal(crawled.code, 0, crawled.stderr);
    const cases: [string, RegExp][] = [
      [`redis://:Hunter2@127.0.0.1:${port}`, new RegExp(`^focuscrawl: Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port} refused the user or password in the URL \\(WRONGPASS [^)]*\\): check --redis or FOCUSCRAWL_REDIS\\n$`)],
      [`redis://127.0.0.1:${port}`, new RegExp(`^focuscrawl: Redis at redis://127\\.0\\.0\\.1:${port} asks for a password \\(NOAUTH Authentication required\\): give it in the URL, redis://:PASSWORD@host:port \\(--redis or FOCUSCRAWL_REDIS\\)\\n$`)],
    ];
    for (const [url, message] of cases) {
      for (const args of [['status'], ['status', '--json'], ['worker']]) {
        const r = await cli([...args, '--redis', url, '--pg', PG_URL, '--name', name]);
        assert.equal(r.code, 2, `${args.join(' ')} ${url}: ${r.stdout}${r.stderr}`);
        assert.equal(r.stdout, '', 'no figures printed past a configuration error');
        oneLine(r);
        assert.match(r.stderr, message);
        assert.doesNotMatch(r.stderr, /Hunter2/);
      }
      const search = await cli(['search', 'crawler', '--redis', url, '--pg', PG_URL, '--name', name]);
      assert.equal(search.code, 0, search.stderr);
      assert.equal(search.stderr, '');
      assert.match(search.stdout, /^1\. /);
    }
    const right = await cli(['status', '--redis', good, '--pg', PG_URL, '--name', name]);
    assert.equal(right.code, 0, right.stderr);
    assert.match(right.stdout, /nothing left to fetch; no worker running/);
  } finally {
    redis.kill('SIGKILL');
    await web.close();
    await dropTestSchema(name);
  }
});

interface SharedStatus {
  running: { workers: string[]; leases: number } | null;
  expiredLeases: number | null;
  urls: { waiting: number; fetching: number; done: number };
}

/** The dashboard's state as serve's /api/snapshot gives it (read fresh on each request). */
async function dashboardState(serve: ServeProcess): Promise<{ name: string; detail: string }> {
  const u = new URL(serve.url);
  u.pathname = '/api/snapshot';
  return ((await (await fetch(u)).json()) as { state: { name: string; detail: string } }).state;
}

test('status and the dashboard tell the URLs a running worker fetches from the expired leases of a killed one, and name the workers running', { timeout: 120_000 }, async () => {
  const site = await serveHoldingSite();
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  // Long enough that a loaded machine never lets a live lease expire between its renewals (every leaseMs / 3).
  const leaseMs = 5000;
  const redis = await connectTestRedis();
  let serve: ServeProcess | null = null;
  try {
    const seeded = await cli(['crawl', ...shared, '--seed-only', '--seeds', ...site.urls(4), '--per-host', '4', '--concurrency', '4', '--delay-ms', '0', '--no-sitemaps', '--lease-ms', String(leaseMs)]);
    assert.equal(seeded.code, 0, seeded.stderr);
    serve = await startServe(shared);
    assert.deepEqual(await dashboardState(serve), { name: 'not started', detail: '4 URLs waiting' });
    let pid = 0;
    const worker = runCli(['worker', ...shared], { env: bareEnv, onStart: (c) => (pid = c.pid!) });
    await site.holding(4);

    const running = await cli(['status', ...shared]);
    assert.equal(running.code, 0, running.stderr);
    assert.match(running.stdout, new RegExp(`^crawl '${name}': 0 URLs waiting, 4 being fetched; 1 worker running \\(${hostname()}:${pid}\\)\\nurls: 0 done, 0 error, 0 discarded, 0 waiting, 4 being fetched\\n`));
    assert.doesNotMatch(running.stdout, /expired/);
    const runningJson = JSON.parse((await cli(['status', ...shared, '--json'])).stdout) as SharedStatus;
    assert.deepEqual(runningJson.running, { workers: [`${hostname()}:${pid}`], leases: 4 });
    assert.equal(runningJson.expiredLeases, 0);
    assert.deepEqual(await dashboardState(serve), { name: 'running', detail: `4 URLs being fetched by 1 worker (${hostname()}:${pid})` });

    process.kill(pid, 'SIGKILL');
    assert.equal((await worker).signal, 'SIGKILL');
    // Past the last lease's expiry and the worker's heartbeat window, as Redis recorded them: no clock guessed.
    const base = `${redisPrefix(name)}:{0}:`;
    const lastLease = Number((await redis.zrange(base + 'lease', -1, -1, 'WITHSCORES'))[1]);
    const lastBeat = Number(await redis.zscore(base + 'workers', `${hostname()}:${pid}`));
    const quiet = Math.max(lastLease, lastBeat + heartbeatWindowMs(leaseMs)) + 1;
    while (Date.now() <= quiet) await new Promise((r) => setTimeout(r, quiet - Date.now() + 1));

    const dead = await cli(['status', ...shared]);
    assert.equal(dead.code, 0, dead.stderr);
    assert.match(dead.stdout, new RegExp(`^crawl '${name}': 0 URLs waiting; no worker running\\n4 URLs have expired leases \\(a worker stopped without ending them\\); they return to waiting when a worker runs\\n`));
    assert.doesNotMatch(dead.stdout, /being fetched/);
    assert.match(dead.stdout, /\nurls: 0 done, 0 error, 0 discarded, 0 waiting, 4 in expired leases\n/);
    const deadJson = JSON.parse((await cli(['status', ...shared, '--json'])).stdout) as SharedStatus;
    assert.equal(deadJson.running, null);
    assert.equal(deadJson.expiredLeases, 4);
    assert.equal(deadJson.urls.fetching, 0, 'no lease is live');
    // Redis still counts the four as being fetched: the dashboard called this running.
    assert.deepEqual(await dashboardState(serve), { name: 'stopped', detail: '4 URLs have expired leases (a worker stopped without ending them); they return to waiting when a worker runs' });

    site.release();
    const next = await cli(['worker', ...shared]);
    assert.equal(next.code, 0, next.stderr);
    const done = await cli(['status', ...shared]);
    assert.match(done.stdout, new RegExp(`^crawl '${name}': nothing left to fetch; no worker running\\nurls: 4 done`), 'the expired leases returned to waiting and were fetched; the worker that ended took its heartbeat back');
    assert.equal((await dashboardState(serve)).name, 'exhausted');
  } finally {
    await serve?.stop();
    redis.disconnect();
    await site.close();
    await dropTestCrawl(name);
  }
});
