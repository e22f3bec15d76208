import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCrawl } from '../../src/crawl.js';
import { summaryText } from '../../src/cli/progress.js';
import Database from 'better-sqlite3';
import { runCli } from '../helpers/run-cli.js';

/**
 * A portal whose home page has no topic words and whose links say nothing either: the case where
 * weighted-levels used to discard every link of the seed page and end after one page, silently.
 */
const PAGES: Record<string, string> = {
  '/': '<title>Welcome</title><a href="/news">News</a> <a href="/about">About us</a> <a href="/data">Data</a>',
  '/news': '<title>News</title><p>football results and the weather</p><a href="/n1">Match report</a> <a href="/n2">Weather</a>',
  '/about': '<title>About</title><p>who we are, where to find us</p><a href="/n3">Contact</a>',
  '/data': '<title>Solar data</title><p>solar photovoltaic inverter data, solar panels</p><a href="/s1">More</a>',
  '/s1': '<title>Solar panels</title><p>solar photovoltaic panels and inverters</p>',
  '/n1': '<title>Match</title><p>football</p>',
  '/n2': '<title>Weather</title><p>rain</p>',
  '/n3': '<title>Contact</title><p>phone</p>',
};
const TOPIC = { name: 'solar', keywords: { solar: 3, photovoltaic: 3, inverter: 2 }, threshold: 0.2, links: { keywords: ['solar'], abbreviations: ['pv'] } };

let server: Server;
let origin: string;
const hits: string[] = [];
before(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const body = PAGES[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>missing</title>');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

const tmpDb = (name: string) => join(mkdtempSync(join(tmpdir(), `fc-stop-${name}-`)), 'c.db');

test('weighted-levels keeps the links of a seed page with no topic words; later discards are counted and named', async () => {
  const db = tmpDb('wl');
  const crawl = await startCrawl({ seeds: [origin + '/'], topic: TOPIC, strategy: 'weighted-levels', concurrency: 1, delayMs: 0, sitemaps: false, db });
  let text: string;
  try {
    const summary = await crawl.run();
    text = summaryText(summary, db, null);
    assert.equal(summary.reason, 'exhausted');
    const fetched = (crawl.db.db.prepare("SELECT url FROM crawl_log WHERE state = 'done' ORDER BY seq").pluck().all() as string[]).map((u) => u.slice(origin.length));
    // The seed's three links are kept although none scores; /data (a level-1 page) leads to /s1.
    assert.deepEqual(new Set(fetched), new Set(['/', '/news', '/about', '/data', '/s1']));
    // /news and /about are off-topic pages whose links carry no keyword: discarded, and counted.
    assert.equal(summary.stats.discardedBy['discarded by strategy weighted-levels'], 3);
  } finally {
    await crawl.close();
  }
  assert.match(text, /crawl ended \(frontier exhausted: nothing left to fetch; 3 links were discarded\)/);
  assert.match(text, /discarded this run: 3 discarded by strategy weighted-levels/);
  const status = await runCli(['status', '--db', db]);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /discarded: 3 discarded by strategy weighted-levels/);
  assert.match(status.stdout, /last run ended .*: frontier exhausted/);
  const json = JSON.parse((await runCli(['status', '--db', db, '--json'])).stdout) as { lastRun: { reason: string }; discarded: Record<string, number> };
  assert.equal(json.lastRun.reason, 'exhausted');
  assert.deepEqual(json.discarded, { 'discarded by strategy weighted-levels': 3 });
});

test('--stop-when-stalled ends a crawl after N pages in a row without a relevant one, and says so', async () => {
  const db = tmpDb('stall');
  const before = hits.length;
  const crawl = await startCrawl({ seeds: [origin + '/'], topic: TOPIC, strategy: 'bfs', concurrency: 1, delayMs: 0, sitemaps: false, stopWhenStalled: 3, db });
  try {
    const summary = await crawl.run();
    assert.equal(summary.reason, 'stalled');
    // bfs order: /, /news, /about are off-topic: the third ends the run before /data is fetched.
    assert.equal(summary.stats.fetched, 3);
    assert.deepEqual(hits.slice(before).filter((h) => h !== '/robots.txt'), ['/', '/news', '/about']);
    assert.match(summaryText(summary, db, null), /stalled: the last pages fetched found nothing relevant/);
  } finally {
    await crawl.close();
  }
});

test('the page budget and an exhausted frontier are told apart', async () => {
  const budget = await startCrawl({ seeds: [origin + '/'], topic: TOPIC, strategy: 'bfs', concurrency: 1, delayMs: 0, sitemaps: false, maxPages: 2, db: tmpDb('budget') });
  try {
    assert.equal((await budget.run()).reason, 'max-pages');
  } finally {
    await budget.close();
  }
  const all = await startCrawl({ seeds: [origin + '/'], strategy: 'bfs', concurrency: 1, delayMs: 0, sitemaps: false, db: tmpDb('all') });
  try {
    const s = await all.run();
    assert.equal(s.reason, 'exhausted');
    assert.equal(s.stats.fetched, Object.keys(PAGES).length);
    assert.match(summaryText(s, 'x', null), /frontier exhausted: nothing left to fetch\)/);
  } finally {
    await all.close();
  }
});

test('a crawl that ends with URLs waiting on hosts at their page budget says so, not "nothing left to fetch"', async () => {
  const db = tmpDb('host-budget');
  const crawl = await startCrawl({ seeds: [origin + '/'], strategy: 'bfs', concurrency: 1, delayMs: 0, sitemaps: false, maxPagesPerHost: 3, db });
  try {
    const s = await crawl.run();
    assert.equal(s.reason, 'host-budgets');
    assert.ok(s.stats.frontier.waiting > 0);
    assert.match(summaryText(s, 'x', null), /\(host budgets reached: the URLs left wait on hosts that reached --max-pages-per-host\)/);
  } finally {
    await crawl.close();
  }
  const json = JSON.parse((await runCli(['status', '--db', db, '--json'])).stdout) as { lastRun: { reason: string } };
  assert.equal(json.lastRun.reason, 'host-budgets');
  assert.doesNotMatch((await runCli(['status', '--db', db])).stdout, /interrupted/);
  // What kill -9 leaves: a URL still leased, and no end written for that run.
  const sql = new Database(db);
  sql.prepare('UPDATE urls SET state = 1 WHERE id = (SELECT min(id) FROM urls WHERE state = 0)').run();
  sql.close();
  assert.match((await runCli(['status', '--db', db])).stdout, /last run ended [^\n]*: host budgets reached[^\n]*; a later run was interrupted \(killed or crashed\): focuscrawl resume continues it/);
});

test('starting a crawl again on its database with another page budget says so', async () => {
  const db = tmpDb('budget-again');
  const first = await startCrawl({ seeds: [origin + '/'], strategy: 'bfs', concurrency: 1, delayMs: 0, sitemaps: false, maxPages: 3, db });
  await first.run();
  await first.close();
  // Resumed with its budget spent: nothing to do, and the summary says how to go on.
  const spent = await runCli(['resume', '--db', db]);
  assert.equal(spent.code, 0, spent.stderr);
  assert.match(spent.stdout + spent.stderr, /0 fetched this run[^\n]*\n(.*\n)*the page budget was spent before this run: focuscrawl resume --max-pages N raises it/);
  const again = await startCrawl({ seeds: [origin + '/'], strategy: 'bfs', concurrency: 1, delayMs: 0, sitemaps: false, db });
  await again.close();
  assert.ok(again.notes.includes(`${db} starts again with options changed since its last start (old → new): maxPages 3 → 10000 (not given: the default); focuscrawl resume continues a crawl with its own options`), again.notes.join('\n'));
});

test('seeds and deny patterns given on the command line replace a config file\'s, and the crawl says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-stop-seeds-'));
  writeFileSync(join(dir, 'c.yaml'), `seeds: ["${origin}/about", "${origin}/news"]\ndeny: ["/private", "/admin"]\n`);
  const r = await runCli(['crawl', origin + '/', '--config', join(dir, 'c.yaml'), '--db', join(dir, 'c.db'), '--max-pages', '1', '--delay-ms', '0', '--deny', '/logout']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /focuscrawl: the 1 seed given replaces the 2 of --config .*c\.yaml/);
  assert.match(r.stderr, /focuscrawl: --deny replaces the 2 deny patterns of --config .*c\.yaml/);
});

test('--stop-when-stalled without a topic is refused with one line', async () => {
  const r = await runCli(['crawl', '--seeds', origin + '/', '--stop-when-stalled', '5', '--no-sitemaps', '--db', tmpDb('notopic')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^focuscrawl: --stop-when-stalled needs a topic/);
});
