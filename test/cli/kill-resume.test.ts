import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
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

test('SIGKILL at any moment, then resume: every reachable page done exactly once, no URL lost', async () => {
  let hits = 0;
  let killAt = Infinity;
  let onThreshold: (() => void) | null = null;
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(404).end();
    hits++;
    if (hits >= killAt && onThreshold) {
      onThreshold();
      onThreshold = null;
    }
    const i = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    const html = renderPage(spec, i);
    // A little latency so the crawl is mid-flight with several leases when it is killed.
    setTimeout(() => (html ? res.writeHead(200, { 'content-type': 'text/html' }).end(html) : res.writeHead(404).end()), 3);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const db = join(mkdtempSync(join(tmpdir(), 'fc-kill-')), 'crawl.db');
  const common = ['--concurrency', '6'];

  try {
    const runKilledAt = (args: string[], at: number) => {
      killAt = at;
      return runCli(args, { onStart: (child) => (onThreshold = () => child.kill('SIGKILL')) });
    };
    const first = await runKilledAt(['crawl', '--seeds', origin + '/p/0', '--db', db, '--delay-ms', '0', '--per-host', '6', ...common], 40);
    assert.equal(first.signal, 'SIGKILL', first.stderr);
    const second = await runKilledAt(['resume', '--db', db, ...common], hits + 90);
    assert.equal(second.signal, 'SIGKILL', second.stderr);
    killAt = Infinity;
    const last = await runCli(['resume', '--db', db, ...common]);
    assert.equal(last.code, 0, last.stderr);
    assert.match(last.stdout, /crawl ended \(nothing left to fetch\)/);
  } finally {
    server.close();
  }

  const expected = new Set([...reachable()].map((i) => `${origin}/p/${i}`));
  const sql = new Database(db, { readonly: true });
  const done = sql.prepare("SELECT url FROM crawl_log WHERE state = 'done'").pluck().all() as string[];
  const logged = sql.prepare('SELECT url FROM crawl_log').pluck().all() as string[];
  assert.equal(new Set(logged).size, logged.length, 'no URL appears twice in the crawl log');
  assert.deepEqual(new Set(done), expected, 'exactly the reachable pages are done');
  assert.equal(sql.prepare('SELECT count(*) FROM pages').pluck().get(), expected.size, 'one stored page per reachable page');
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
  let hits = 0;
  let killAt = Infinity;
  let onThreshold: (() => void) | null = null;
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(404).end();
    hits++;
    if (hits >= killAt && onThreshold) {
      onThreshold();
      onThreshold = null;
    }
    const ows = /^\/ows\/(\d+)\?/.exec(req.url ?? '');
    if (ows) return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/xml' }).end(capabilities(ows[1]!)), 3);
    const i = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    const html = renderPage(small, i)?.replace('</body>', `<a href="${endpoint(i)}?service=WMS&amp;request=GetCapabilities">WMS</a></body>`);
    setTimeout(() => (html ? res.writeHead(200, { 'content-type': 'text/html' }).end(html) : res.writeHead(404).end()), 3);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const db = join(mkdtempSync(join(tmpdir(), 'fc-kill-probe-')), 'crawl.db');
  try {
    const runKilledAt = (args: string[], at: number) => {
      killAt = at;
      return runCli(args, { onStart: (child) => (onThreshold = () => child.kill('SIGKILL')) });
    };
    const first = await runKilledAt(['crawl', '--seeds', origin + '/p/0', '--db', db, '--delay-ms', '0', '--per-host', '6', '--concurrency', '6', '--detect', 'wms'], 40);
    assert.equal(first.signal, 'SIGKILL', first.stderr);
    const second = await runKilledAt(['resume', '--db', db], hits + 60);
    assert.equal(second.signal, 'SIGKILL', second.stderr);
    killAt = Infinity;
    const last = await runCli(['resume', '--db', db]);
    assert.equal(last.code, 0, last.stderr);
  } finally {
    server.close();
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
