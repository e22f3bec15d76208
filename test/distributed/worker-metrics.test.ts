import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveGatedSite } from '../helpers/gated-site.js';
import { parseMetrics } from '../helpers/prom-text.js';
import { runCli } from '../helpers/run-cli.js';
import { REDIS_URL } from '../helpers/test-redis.js';
import { PG_URL } from '../helpers/test-pg.js';
import { dropTestCrawl } from '../helpers/drop-test-crawl.js';
import { freePort } from '../helpers/free-port.js';


/**
 * Scrapes until `ended` fetches are counted: a worker gives a host back when the response is in,
 * before the page's group commit, so the gated request can arrive before the one before it is
 * counted. The gated request cannot end, so the count then holds still.
 */
async function scrapeOnceEnded(port: number, ended: number): Promise<ReturnType<typeof parseMetrics>> {
  for (;;) {
    const m = parseMetrics(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
    if (m.value('focuscrawl_fetches_total', { outcome: 'done' }) >= ended) return m;
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('worker --metrics-port and shared resume --metrics-port: Prometheus scrapes each while a gated request holds it; a port in use is one line, exit 2', { timeout: 120_000 }, async () => {
  // One request at a time: the gate's request is then the worker's n-th, the ones before it ended.
  const workerGate = 6;
  const resumeGate = 24;
  const gated = await serveGatedSite({ pages: 80, seed: 4, words: [80, 160], links: [4, 8] }, [workerGate, resumeGate]);
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  const busy = createServer();
  try {
    // Forty seeds: the budget, not the site's links, ends each run.
    const seeds = Array.from({ length: 40 }, (_x, i) => `${gated.origin}/p/${i}`);
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...seeds, '--max-pages', '20', '--per-host', '1', '--concurrency', '1', '--delay-ms', '0', '--no-sitemaps']);
    assert.equal(seeded.code, 0, seeded.stderr);

    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const taken = await runCli(['worker', ...shared, '--metrics-port', String((busy.address() as AddressInfo).port)]);
    assert.equal(taken.code, 2, taken.stdout + taken.stderr);
    assert.equal(taken.stderr.trim().split('\n').length, 1, taken.stderr);
    assert.match(taken.stderr, /--metrics-port: cannot listen on 127\.0\.0\.1:\d+: the port is in use/);
    assert.equal(gated.requests(), 0, 'the port is bound before the worker joins: nothing was fetched');

    const port = await freePort();
    const worker = runCli(['worker', ...shared, '--metrics-port', String(port)]);
    await Promise.race([gated.reached(workerGate), worker.then((r) => assert.fail(`the worker ended before the gate: ${r.stderr}`))]);
    const during = await scrapeOnceEnded(port, workerGate - 1);
    assert.equal(during.value('focuscrawl_fetches_total', { outcome: 'done' }), workerGate - 1);
    assert.equal(during.histogram('focuscrawl_fetch_duration_seconds').count, workerGate - 1);
    assert.ok(during.value('focuscrawl_fetched_bytes_total') > 0);
    gated.open(workerGate);
    const ran = await worker;
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, new RegExp(`metrics at http://127\\.0\\.0\\.1:${port}/metrics`));
    assert.equal(gated.requests(), 20, 'the worker ran to the budget');
    await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`), 'the endpoint closes with the worker');

    // resume of a shared crawl raises the budget and works as a worker, its metrics its own.
    const port2 = await freePort();
    const resumed = runCli(['resume', ...shared, '--max-pages', '30', '--metrics-port', String(port2)]);
    await Promise.race([gated.reached(resumeGate), resumed.then((r) => assert.fail(`resume ended before the gate: ${r.stdout} ${r.stderr}`))]);
    const m = await scrapeOnceEnded(port2, resumeGate - 1 - 20);
    assert.equal(m.value('focuscrawl_fetches_total', { outcome: 'done' }), resumeGate - 1 - 20, "the resumed run's own fetches, not the crawl's 20 before it");
    gated.open(resumeGate);
    const r = await resumed;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`metrics at http://127\\.0\\.0\\.1:${port2}/metrics`));
    assert.equal(gated.requests(), 30, 'the raised budget, every page requested once');
  } finally {
    busy.close();
    gated.open(workerGate);
    gated.open(resumeGate);
    await gated.close();
    await dropTestCrawl(name);
  }
});
