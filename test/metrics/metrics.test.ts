import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, get as httpGet } from 'node:http';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { startCrawl } from '../../src/crawl.js';
import type { CrawlSummary } from '../../src/engine/crawler.js';
import { crawlMetrics } from '../../src/metrics/crawl-metrics.js';
import { readerMetrics } from '../../src/metrics/reader-metrics.js';
import { serveMetrics } from '../../src/metrics/metrics-server.js';
import { openReader } from '../../src/cli/open-reader.js';
import { runCli } from '../helpers/run-cli.js';
import { parseMetrics } from '../helpers/prom-text.js';
import { freePort } from '../helpers/free-port.js';

let site: RunningSite;
const dir = mkdtempSync(join(tmpdir(), 'fc-metrics-'));
const db = join(dir, 'm.db');
let summary: CrawlSummary;
let scraped: string;

before(async () => {
  site = await serveSite({ pages: 80, seed: 5, words: [120, 240], links: [6, 12] });
  const crawl = await startCrawl({ seeds: [site.origin + '/'], topic: DEMO_TOPIC, db, maxPages: 40, delayMs: 0, perHost: 4, sitemaps: false });
  const registry = new Registry();
  const server = await serveMetrics(registry, 0);
  crawlMetrics(crawl.crawler, registry);
  try {
    summary = await crawl.run();
    // Scraped over HTTP, as Prometheus would.
    const port = (server.address() as AddressInfo).port;
    scraped = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  } finally {
    await crawl.close();
    await new Promise((r) => server.close(r));
  }
});
after(() => site.close());

test('the metrics server answers GET and HEAD of /metrics, with or without a query, and nothing else', async () => {
  const server = await serveMetrics(new Registry(), 0);
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    assert.equal((await fetch(`${base}/metrics?name[]=x`)).status, 200);
    assert.equal((await fetch(`${base}/metrics`, { method: 'HEAD' })).status, 200);
    const post = await fetch(`${base}/metrics`, { method: 'POST', body: 'x' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
    const other = await fetch(`${base}/`);
    assert.equal(other.status, 404);
    // A second server on the port: the library's words, not the CLI's flag.
    await assert.rejects(serveMetrics(new Registry(), (server.address() as AddressInfo).port), /^FocusCrawlError: serveMetrics' port: cannot listen on 127\.0\.0\.1:\d+: the port is in use$/);
    assert.match(other.headers.get('content-type') ?? '', /^text\/plain/);
    // DNS rebinding: a page on evil.example whose name now points at 127.0.0.1.
    const port = (server.address() as AddressInfo).port;
    const status = (host: string) => new Promise<number>((resolve, reject) => {
      httpGet({ host: '127.0.0.1', port, path: '/metrics', headers: { host } }, (res) => resolve(res.resume().statusCode!)).on('error', reject);
    });
    assert.equal(await status(`evil.example:${port}`), 403);
    assert.equal(await status(`localhost:${port}`), 200);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('a crawl\'s /metrics counts every fetch by outcome, its bytes and its latency', () => {
  const m = parseMetrics(scraped);
  const s = summary.stats;
  assert.equal(s.fetched, 40);
  assert.equal(m.value('focuscrawl_fetches_total', { outcome: 'done' }), s.done);
  assert.equal(m.family('focuscrawl_fetches_total').type, 'COUNTER');
  assert.equal(m.value('focuscrawl_fetched_bytes_total'), s.bytes);
  assert.ok(s.bytes > 40 * 500, 'the generated pages are several hundred bytes each');
  const h = m.histogram('focuscrawl_fetch_duration_seconds');
  assert.equal(h.count, s.fetched, 'one latency observation per fetch that made a request');
  assert.equal(h.buckets['+Inf'], h.count);
  assert.ok(h.buckets['0.005']! <= h.buckets['1']!, 'buckets are cumulative');
  assert.ok(h.sum > 0);
});

test('frontier sizes, relevant pages and the writer backlog are exposed as gauges', () => {
  const m = parseMetrics(scraped);
  const f = summary.stats.frontier;
  for (const state of ['waiting', 'fetching', 'done', 'error', 'discarded']) {
    assert.equal(m.value('focuscrawl_frontier_urls', { state }), f[state as keyof typeof f], state);
  }
  assert.ok(f.waiting > 0, 'the budget stopped the crawl with URLs left');
  assert.equal(m.value('focuscrawl_relevant_pages'), summary.stats.relevant);
  assert.ok(summary.stats.relevant > 0);
  assert.equal(m.value('focuscrawl_writer_congested'), 0);
  assert.equal(m.value('focuscrawl_seen_cache_enabled'), 0);
});

test('serve\'s metrics read the same totals from the database', async () => {
  const open = await openReader({ db });
  try {
    const m = parseMetrics(await readerMetrics(open.reader).metrics());
    assert.equal(m.value('focuscrawl_frontier_urls', { state: 'done' }), summary.stats.frontier.done);
    assert.equal(m.value('focuscrawl_pages_stored'), 40);
    const threshold = (await open.reader.config())?.topic?.threshold;
    assert.equal(typeof threshold, 'number');
    assert.equal(m.value('focuscrawl_relevant_pages'), await open.reader.countRelevant(threshold!));
    assert.equal(m.value('focuscrawl_relevant_pages'), summary.stats.relevant, 'one run: the run\'s count is the crawl\'s');
  } finally {
    await open.close();
  }
});

const samplesOf = (m: ReturnType<typeof parseMetrics>, name: string) => m.families.find((f) => f.name === name)?.metrics.length ?? 0;

test('a crawl without a topic has no relevant-pages sample, live or read from its database', async () => {
  const plain = join(dir, 'plain.db');
  const crawl = await startCrawl({ seeds: [site.origin + '/'], db: plain, maxPages: 10, delayMs: 0, perHost: 4, sitemaps: false });
  const registry = new Registry();
  crawlMetrics(crawl.crawler, registry);
  try {
    await crawl.run();
    const live = parseMetrics(await registry.metrics());
    assert.equal(live.value('focuscrawl_fetches_total', { outcome: 'done' }), 10, 'the other metrics are there');
    assert.equal(samplesOf(live, 'focuscrawl_relevant_pages'), 0, 'no 0 that would read as none found');
  } finally {
    await crawl.close();
  }
  const open = await openReader({ db: plain });
  try {
    const m = parseMetrics(await readerMetrics(open.reader).metrics());
    assert.equal(m.value('focuscrawl_pages_stored'), 10);
    assert.equal(samplesOf(m, 'focuscrawl_relevant_pages'), 0);
  } finally {
    await open.close();
  }
});

test('crawl --metrics-port on a port in use: one line, exit 2, no database created', async () => {
  const busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  const port = (busy.address() as AddressInfo).port;
  const out = join(dir, 'never.db');
  try {
    const r = await runCli(['crawl', '--seeds', site.origin + '/', '--db', out, '--metrics-port', String(port)]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /--metrics-port: cannot listen on 127\.0\.0\.1:\d+: the port is in use/);
    assert.equal(existsSync(out), false);
  } finally {
    busy.close();
  }
});

test('crawl --metrics-port: Prometheus scrapes the running CLI crawl', async () => {
  const { serveGatedSite } = await import('../helpers/gated-site.js');
  const gate = 10;
  const gated = await serveGatedSite({ pages: 40, seed: 2, words: [80, 160], links: [4, 8] }, [gate]);
  const port = await freePort();
  try {
    const done = runCli(['crawl', '--seeds', gated.origin + '/', '--topic', DEMO_TOPIC, '--db', join(dir, 'cli.db'), '--max-pages', '20', '--delay-ms', '0', '--per-host', '1', '--concurrency', '1', '--no-sitemaps', '--metrics-port', String(port)]);
    await gated.reached(gate);
    // Held at the gate: one request in flight, the ones before it ended.
    const m = parseMetrics(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
    assert.equal(m.value('focuscrawl_fetches_total', { outcome: 'done' }), gate - 1);
    assert.equal(m.histogram('focuscrawl_fetch_duration_seconds').count, gate - 1);
    gated.open(gate);
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`metrics at http://127\\.0\\.0\\.1:${port}/metrics`));
    await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`), 'the endpoint closes with the crawl');
  } finally {
    gated.open(gate);
    await gated.close();
  }
});

test('resume --metrics-port: Prometheus scrapes the resumed crawl (the way on after kill -9 had no metrics)', async () => {
  const { serveGatedSite } = await import('../helpers/gated-site.js');
  const gate = 9;
  const gated = await serveGatedSite({ pages: 40, seed: 3, words: [80, 160], links: [4, 8] }, [gate]);
  const resumed = join(dir, 'resumed.db');
  const first = await startCrawl({ seeds: [gated.origin + '/'], topic: DEMO_TOPIC, db: resumed, maxPages: 5, delayMs: 0, perHost: 1, concurrency: 1, sitemaps: false });
  await first.run();
  await first.close();
  const port = await freePort();
  try {
    const done = runCli(['resume', '--db', resumed, '--max-pages', '20', '--metrics-port', String(port)]);
    await Promise.race([gated.reached(gate), done.then((r) => assert.fail(`resume ended before the gate: ${r.stderr}`))]);
    // Five requests in the first run; the ninth, the resumed run's fourth, is held: three of its own ended.
    const m = parseMetrics(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
    assert.equal(m.value('focuscrawl_fetches_total', { outcome: 'done' }), gate - 1 - 5);
    gated.open(gate);
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`metrics at http://127\\.0\\.0\\.1:${port}/metrics`));
    // Refused (a budget below the crawl's): no metrics are announced for a crawl that never opens.
    const refused = await runCli(['resume', '--db', resumed, '--max-pages', '3', '--metrics-port', String(await freePort())]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.doesNotMatch(refused.stderr, /metrics at/);
  } finally {
    gated.open(gate);
    await gated.close();
  }
});
