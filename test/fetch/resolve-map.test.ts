import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseResolveEntry, resolveMapOf } from '../../src/fetch/resolve-map.js';
import { AddressPolicy } from '../../src/fetch/address-policy.js';
import { HttpFetcher } from '../../src/fetch/http-fetcher.js';
import { runCli } from '../helpers/run-cli.js';
import { cliFails } from '../helpers/cli-fails.js';

/** A server on `address` that records the Host header of every request; its pages link by name. */
async function serve(address: string, page: (host: string, path: string) => string) {
  const hosts: string[] = [];
  const server: Server = createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(req.headers.host ?? '', req.url ?? '/'));
  });
  await new Promise<void>((r) => server.listen(0, address, r));
  return { port: (server.address() as AddressInfo).port, hosts, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

let docs: Awaited<ReturnType<typeof serve>>;
let wiki: Awaited<ReturnType<typeof serve>>;
const dir = mkdtempSync(join(tmpdir(), 'fc-resolve-'));

before(async () => {
  // docs.example.test links to wiki.example.test on the wiki server's port: two names, two addresses.
  wiki = await serve('127.0.0.3', () => '<title>wiki</title><p>the wiki</p>');
  docs = await serve('127.0.0.2', (_h, path) => (path === '/' ? `<title>docs</title><a href="/a">a</a> <a href="http://wiki.example.test:${wiki.port}/w">wiki</a>` : '<title>a</title><p>page a</p>'));
});
after(async () => {
  await Promise.all([docs.close(), wiki.close()]);
});

test('resolve entries are read as curl writes them, and bad ones say why', () => {
  assert.deepEqual(parseResolveEntry('Docs.Example.org:443:127.0.0.2'), { host: 'docs.example.org', port: 443, address: '127.0.0.2' });
  assert.deepEqual(parseResolveEntry('docs.example.org:*:[::1]'), { host: 'docs.example.org', port: null, address: '::1' });
  for (const [bad, why] of [
    ['docs.example.org:127.0.0.1', /is not HOST:PORT:ADDR/],
    ['docs.example.org:70000:127.0.0.1', /port 70000 is not 1-65535/],
    ['docs.example.org:80:localhost', /localhost is not an IP address/],
    ['docs.example.org:80:::1', /is not an IP address \(IPv6 in brackets/],
    ['127.0.0.1:80:127.0.0.2', /is an address already/],
    ['docs.example.org:80:[fe80::1%eth0]', /an IPv6 zone \(%eth0\) is not taken/],
    ['*:80:127.0.0.1', /a wildcard host is not taken/],
  ] as const) {
    const r = parseResolveEntry(bad);
    assert.equal(typeof r, 'string', bad);
    assert.match(r as string, why);
  }
  assert.equal((parseResolveEntry('bücher.example:80:127.0.0.1') as { host: string }).host, 'xn--bcher-kva.example', 'as URLs carry the name');
  const map = resolveMapOf(['a.test:8080:127.0.0.2', 'a.test:*:127.0.0.3']);
  assert.equal(map.addressFor('A.test', 8080), '127.0.0.2', 'an entry for the port beats one for *');
  assert.equal(map.addressFor('a.test', 80), '127.0.0.3');
  assert.equal(map.addressFor('b.test', 80), null);
});

test('a name resolved by hand is connected to at its address, keeps its Host header, and passes the private-address rule', async () => {
  const resolve = resolveMapOf([`docs.example.test:${docs.port}:127.0.0.2`]);
  // The private-address rule as a crawl sets it: the seed is an unresolvable name, the address comes from the entry.
  const fetcher = new HttpFetcher({ resolve, addressPolicy: new AddressPolicy([...resolve.addresses()]), totalTimeoutMs: 5000 });
  try {
    const before = docs.hosts.length;
    const r = await fetcher.fetch(`http://docs.example.test:${docs.port}/a`);
    assert.equal(r.status, 200);
    assert.equal(r.finalUrl, `http://docs.example.test:${docs.port}/a`);
    assert.deepEqual(docs.hosts.slice(before), [`docs.example.test:${docs.port}`]);
  } finally {
    await fetcher.close();
  }
});

test('an IPv6 address in brackets is connected to and allowed by the private-address rule', async () => {
  const v6 = await serve('::1', () => '<title>six</title>');
  const resolve = resolveMapOf([`six.example.test:${v6.port}:[::1]`]);
  const fetcher = new HttpFetcher({ resolve, addressPolicy: new AddressPolicy([...resolve.addresses()]), totalTimeoutMs: 5000 });
  try {
    assert.equal((await fetcher.fetch(`http://six.example.test:${v6.port}/`)).status, 200);
    assert.deepEqual(v6.hosts, [`six.example.test:${v6.port}`]);
  } finally {
    await fetcher.close();
    await v6.close();
  }
});

test('crawl --resolve fetches a site under its own names, stores them, and resume keeps the entries', async () => {
  const db = join(dir, 'r.db');
  const seed = `http://docs.example.test:${docs.port}/`;
  const r = await runCli(['crawl', seed, '--db', db, '--scope', 'any', '--delay-ms', '0', '--no-sitemaps', '--max-pages', '2', '--strategy', 'bfs', '--concurrency', '1',
    '--resolve', `docs.example.test:${docs.port}:127.0.0.2`, '--resolve', 'wiki.example.test:*:127.0.0.3']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(wiki.hosts.length, 0, 'breadth-first, the wiki is the third page: left for the resumed run');
  const resumed = await runCli(['resume', '--db', db, '--max-pages', '10']);
  assert.equal(resumed.code, 0, resumed.stderr);
  const exported = await runCli(['export', '--db', db, '--format', 'jsonl']);
  assert.equal(exported.code, 0, exported.stderr);
  const urls = exported.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { url: string }).url).sort();
  assert.deepEqual(urls, [`http://docs.example.test:${docs.port}/`, `http://docs.example.test:${docs.port}/a`, `http://wiki.example.test:${wiki.port}/w`]);
  assert.ok(wiki.hosts.includes(`wiki.example.test:${wiki.port}`), 'the resumed run kept the stored entries');
});

test('a bad --resolve or config entry is one line naming it', async () => {
  await cliFails(['crawl', 'http://docs.example.test/', '--db', join(dir, 'x.db'), '--resolve', 'docs.example.test:127.0.0.2'], /--resolve.*'docs\.example\.test:127\.0\.0\.2' is not HOST:PORT:ADDR/);
  const cfg = join(dir, 'bad.yaml');
  writeFileSync(cfg, 'seeds: [http://docs.example.test/]\nresolve:\n  - docs.example.test:80:nowhere\n');
  await cliFails(['crawl', '--config', cfg, '--db', join(dir, 'y.db')], /bad\.yaml.*resolve.*nowhere is not an IP address/);
});
