import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pgSchema } from '../../src/distributed/shared-crawl.js';
import { serveHoldingSite } from '../helpers/holding-site.js';
import { runCli } from '../helpers/run-cli.js';
import { REDIS_URL } from '../helpers/test-redis.js';
import { PG_URL } from '../helpers/test-pg.js';
import { dropTestCrawl } from '../helpers/drop-test-crawl.js';
import { deadOrigin, html } from '../helpers/hostile-web.js';
import { startTestServer } from '../helpers/misbehaving-server.js';
import { writeFileSync } from 'node:fs';

/**
 * The page budget holds exactly across workers: a URL is claimed only while fetched + leased is
 * below it. The site holds every page request until as many are in flight as the budget allows,
 * so both workers have claimed all they will before any page ends: a worker that judged the
 * budget by what it alone had in flight would have claimed past it.
 */
const BUDGET = 30;

test(`two workers at 20 requests in flight each, a budget of ${BUDGET}: exactly ${BUDGET} pages requested and stored`, { timeout: 120_000 }, async () => {
  const site = await serveHoldingSite({ releaseAt: BUDGET });
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  try {
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...site.urls(2 * BUDGET), '--max-pages', String(BUDGET), '--concurrency', '20', '--per-host', '40', '--delay-ms', '0', '--no-sitemaps']);
    assert.equal(seeded.code, 0, seeded.stderr);
    const workers = await Promise.all([runCli(['worker', ...shared]), runCli(['worker', ...shared])]);
    for (const w of workers) {
      assert.equal(w.code, 0, w.stderr);
      assert.match(w.stdout, /page budget reached/);
    }
    assert.equal(site.requests.length, BUDGET, `page requests the site received: ${site.requests.length}`);
    const c = new pg.Client(PG_URL);
    await c.connect();
    const pages = Number(((await c.query(`SELECT count(*) AS n FROM ${pgSchema(name)}.pages`)).rows[0] as { n: string }).n);
    const logged = Number(((await c.query(`SELECT count(*) AS n FROM ${pgSchema(name)}.crawl_log WHERE state = 'done'`)).rows[0] as { n: string }).n);
    await c.end();
    assert.equal(pages, BUDGET);
    assert.equal(logged, BUDGET);
    const status = JSON.parse((await runCli(['status', ...shared, '--json'])).stdout) as { urls: { done: number; waiting: number; fetching: number } };
    assert.deepEqual([status.urls.done, status.urls.waiting, status.urls.fetching], [BUDGET, BUDGET, 0]);
  } finally {
    await site.close();
    await dropTestCrawl(name);
  }
});

test(`the embedded crawler holds the budget exactly too: ${BUDGET} pages at 20 in flight`, async () => {
  // Released at 20 held: the crawler's first claim; the budget leaves room for 10 more.
  const site = await serveHoldingSite({ releaseAt: 20 });
  try {
    const db = join(mkdtempSync(join(tmpdir(), 'fc-budget-')), 'b.db');
    const r = await runCli(['crawl', '--db', db, '--seeds', ...site.urls(2 * BUDGET), '--max-pages', String(BUDGET), '--concurrency', '20', '--per-host', '40', '--delay-ms', '0', '--no-sitemaps']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /page budget reached/);
    assert.equal(site.requests.length, BUDGET);
  } finally {
    await site.close();
  }
});

test('a shared crawl: URLs of a dead host end without a request and leave the page budget to live pages, as in the embedded crawl', { timeout: 120_000 }, async () => {
  const dead = await deadOrigin('127.0.0.2');
  const deadLinks = [1, 2, 3, 4, 5].map((i) => `${dead}/x/${i}`);
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('portal', [...deadLinks, '/html/1', '/html/2', '/html/3']))],
  ]);
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  const config = join(mkdtempSync(join(tmpdir(), 'fc-dead-budget-')), 'crawl.yaml');
  // Short robots.txt retries, so the dead host is known dead after two quick failures.
  writeFileSync(config, 'robotsRetryMs: 20\nretryBaseMs: 10\n');
  const flags = ['--config', config, '--hosts', '127.0.0.2', '--scope', 'any', '--max-pages', '5', '--concurrency', '4', '--delay-ms', '0', '--no-sitemaps'];
  const urls = async () => (JSON.parse((await runCli(['status', ...shared, '--json'])).stdout) as { urls: { done: number; error: number; notFetched: number; waiting: number } }).urls;
  try {
    const first = await runCli(['crawl', ...shared, ...flags, '--seeds', `${srv.origin}/`]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /frontier exhausted/);
    const before = await urls();
    // Four live pages; five dead URLs ended as errors without a request.
    assert.deepEqual([before.done, before.error, before.notFetched, before.waiting], [4, 5, 5, 0], JSON.stringify(before));
    // Four fetches so far, whatever the dead host's errors: one of the five is left for a new seed.
    const again = await runCli(['crawl', ...shared, ...flags, '--seeds', `${srv.origin}/html/4`, `${srv.origin}/html/5`]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /page budget reached/);
    const after = await urls();
    assert.deepEqual([after.done, after.error, after.notFetched, after.waiting], [5, 5, 5, 1], JSON.stringify(after));
  } finally {
    await srv.close();
    await dropTestCrawl(name);
  }
});
