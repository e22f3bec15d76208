import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { linksOf, renderPage, type SiteSpec } from '../../src/bench/generated-site.js';
import { runCli } from '../helpers/run-cli.js';

const spec: SiteSpec = { pages: 300, seed: 7, words: [100, 200], links: [5, 12] };

/** Ground truth: the pages reachable from /p/0 through the generator's links. */
function reachable(): Set<number> {
  const seen = new Set([0]);
  const queue = [0];
  while (queue.length) for (const j of linksOf(spec, queue.shift()!)) if (!seen.has(j)) (seen.add(j), queue.push(j));
  return seen;
}

/**
 * A local server that counts requests, and a way to run the CLI until the server has seen a
 * given number of them and then SIGKILL it. `respond` answers everything but robots.txt (404).
 */
async function killHarness(respond: (url: string, res: ServerResponse) => void) {
  let hits = 0;
  let killAt = Infinity;
  let onThreshold: (() => void) | null = null;
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    hits++;
    if (hits >= killAt && onThreshold) {
      onThreshold();
      onThreshold = null;
    }
    // A little latency so the crawl is mid-flight with several leases when it is killed.
    setTimeout(() => respond(req.url ?? '/', res), 3);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    runKilledAt(args: string[], at: number) {
      killAt = at;
      return runCli(args, { onStart: (child) => (onThreshold = () => child.kill('SIGKILL')) });
    },
    runToEnd(args: string[]) {
      killAt = Infinity;
      return runCli(args);
    },
    close: () => server.close(),
  };
}

test('SIGKILL at any moment, then resume: every reachable page done exactly once, no URL lost', async () => {
  const h = await killHarness((url, res) => {
    const html = renderPage(spec, Number(/^\/p\/(\d+)$/.exec(url)?.[1] ?? -1));
    if (html) res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    else res.writeHead(404).end();
  });
  const origin = h.origin;
  const db = join(mkdtempSync(join(tmpdir(), 'fc-kill-')), 'crawl.db');
  const common = ['--concurrency', '6'];
  try {
    const first = await h.runKilledAt(['crawl', '--seeds', origin + '/p/0', '--db', db, '--delay-ms', '0', '--per-host', '6', ...common], 40);
    assert.equal(first.signal, 'SIGKILL', `exit ${first.code}: ${first.stdout} ${first.stderr}`);
    // The dashboard's reading of a killed first run (the report writes the same snapshot): stopped, not "not started".
    const out = join(dirname(db), 'report');
    const report = await runCli(['report', '--db', db, '--out', out]);
    assert.equal(report.code, 0, report.stderr);
    const { state } = JSON.parse(readFileSync(join(out, 'data.json'), 'utf8')) as { state: { name: string; detail: string } };
    assert.equal(state.name, 'stopped', JSON.stringify(state));
    assert.match(state.detail, /^\d+ URLs? leased by an interrupted run \(killed or crashed\): focuscrawl resume returns them$/);
    const second = await h.runKilledAt(['resume', '--db', db, ...common], h.hits() + 90);
    assert.equal(second.signal, 'SIGKILL', `exit ${second.code}: ${second.stdout} ${second.stderr}`);
    const last = await h.runToEnd(['resume', '--db', db, ...common]);
    assert.equal(last.code, 0, last.stderr);
    assert.match(last.stdout, /crawl ended \(frontier exhausted: nothing left to fetch\)/);
  } finally {
    h.close();
  }

  const expected = new Set([...reachable()].map((i) => `${origin}/p/${i}`));
  const sql = new Database(db, { readonly: true });
  // The guessed /sitemap.xml (404 here) ends done with a note; it is not a page.
  const done = sql.prepare("SELECT url FROM crawl_log WHERE state = 'done' AND url NOT LIKE '%/sitemap.xml'").pluck().all() as string[];
  const logged = sql.prepare('SELECT url FROM crawl_log').pluck().all() as string[];
  assert.equal(new Set(logged).size, logged.length, 'no URL appears twice in the crawl log');
  assert.deepEqual(new Set(done), expected, 'exactly the reachable pages are done');
  assert.equal(sql.prepare('SELECT count(*) FROM pages').pluck().get(), expected.size, 'one stored page per reachable page');
  assert.equal(sql.prepare('SELECT count(*) FROM fts_pending').pluck().get(), 0, 'pages a kill left unindexed were indexed by the last run');
  assert.equal(sql.prepare('SELECT count(*) FROM pages_fts_docsize').pluck().get(), expected.size, 'every stored page is in the full-text index once');
  assert.equal(sql.prepare('SELECT count(*) FROM urls WHERE state < 2').pluck().get(), 0, 'nothing left waiting or leased');
  const known = new Set(sql.prepare('SELECT url FROM urls').pluck().all() as string[]);
  for (const json of sql.prepare('SELECT outlinks FROM pages').pluck().all() as string[]) {
    for (const [url] of JSON.parse(json) as [string][]) assert.ok(known.has(url), `discovered URL ${url} was kept`);
  }
  sql.close();
});

test('SIGKILL then resume with service probes: every endpoint probed and registered once, every linking page recorded', async () => {
  const small: SiteSpec = { pages: 150, seed: 7, words: [80, 150], links: [5, 12] };
  const endpoint = (i: number) => `/ows/${i % 40}`;
  const capabilities = (n: string) =>
    `<?xml version="1.0"?><WMS_Capabilities version="1.3.0"><Service><Title>Service ${n}</Title></Service><Capability><Layer><Name>l${n}</Name></Layer></Capability></WMS_Capabilities>`;
  const h = await killHarness((url, res) => {
    const ows = /^\/ows\/(\d+)\?/.exec(url);
    if (ows) return void res.writeHead(200, { 'content-type': 'text/xml' }).end(capabilities(ows[1]!));
    const i = Number(/^\/p\/(\d+)$/.exec(url)?.[1] ?? -1);
    const html = renderPage(small, i)?.replace('</body>', `<a href="${endpoint(i)}?service=WMS&amp;request=GetCapabilities">WMS</a></body>`);
    if (html) res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    else res.writeHead(404).end();
  });
  const origin = h.origin;
  const db = join(mkdtempSync(join(tmpdir(), 'fc-kill-probe-')), 'crawl.db');
  try {
    const first = await h.runKilledAt(['crawl', '--seeds', origin + '/p/0', '--db', db, '--delay-ms', '0', '--per-host', '6', '--concurrency', '6', '--detect', 'wms'], 40);
    assert.equal(first.signal, 'SIGKILL', `exit ${first.code}: ${first.stdout} ${first.stderr}`);
    const second = await h.runKilledAt(['resume', '--db', db], h.hits() + 60);
    assert.equal(second.signal, 'SIGKILL', `exit ${second.code}: ${second.stdout} ${second.stderr}`);
    const last = await h.runToEnd(['resume', '--db', db]);
    assert.equal(last.code, 0, last.stderr);
  } finally {
    h.close();
  }
  const sql = new Database(db, { readonly: true });
  const pages = sql.prepare("SELECT url FROM crawl_log WHERE state = 'done' AND url LIKE '%/p/%'").pluck().all() as string[];
  const probes = sql.prepare("SELECT url FROM crawl_log WHERE url LIKE '%/ows/%'").pluck().all() as string[];
  assert.equal(new Set(probes).size, probes.length, 'no probe logged twice');
  const endpoints = new Set(pages.map((u) => origin + endpoint(Number(/\/p\/(\d+)$/.exec(u)![1]))));
  const services = sql.prepare("SELECT endpoint FROM services WHERE status = 'valid'").pluck().all() as string[];
  assert.deepEqual(new Set(services), endpoints, 'every linked endpoint registered once, as valid');
  assert.equal(probes.length, endpoints.size);
  const sources = sql.prepare('SELECT count(*) FROM service_sources').pluck().get() as number;
  assert.equal(sources, pages.length, 'every fetched page that links to a service is recorded as a source');
  sql.close();
});
