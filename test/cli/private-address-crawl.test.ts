import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/run-cli.js';

const CAPABILITIES = '<?xml version="1.0"?><WMS_Capabilities version="1.3.0"><Service><Title>Rivers</Title></Service><Capability><Layer><Name>rivers</Name></Layer></Capability></WMS_Capabilities>';

interface Site { origin: string; port: number; hits: string[]; close(): Promise<void> }

async function serve(host: string, pages: (site: Site) => Record<string, [number, string, string]>): Promise<Site> {
  const site: Site = { origin: '', port: 0, hits: [], close: async () => {} };
  const server: Server = createServer((req, res) => {
    site.hits.push(req.url!);
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const [status, type, body] = pages(site)[req.url!.split('?')[0]!] ?? [404, 'text/html', 'not found'];
    res.writeHead(status, status === 302 ? { location: body } : { 'content-type': type }).end(status === 302 ? '' : body);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  site.port = (server.address() as AddressInfo).port;
  site.origin = `http://${host}:${site.port}`;
  site.close = () => new Promise((r) => (server.closeAllConnections(), server.close(() => r())));
  return site;
}

let seed: Site;
let other: Site;
let local: Site;
const dir = mkdtempSync(join(tmpdir(), 'fc-private-'));

before(async () => {
  other = await serve('127.0.0.3', () => ({
    '/page': [200, 'text/html', '<title>other page</title>'],
    '/landed': [200, 'text/html', '<title>landed</title>'],
    '/ows': [200, 'text/xml', CAPABILITIES],
  }));
  local = await serve('127.0.0.1', () => ({ '/': [200, 'text/html', '<title>localhost</title>'] }));
  seed = await serve('127.0.0.2', () => ({
    '/': [200, 'text/html', `<title>seed</title><a href="/ok">ok</a> <a href="${other.origin}/page">other</a> <a href="/redir">redirect</a>
      <a href="${other.origin}/ows?service=WMS&amp;request=GetCapabilities">WMS</a> <a href="http://localhost:${local.port}/">local</a>`],
    '/ok': [200, 'text/html', '<title>ok</title>'],
    '/redir': [302, '', `${other.origin}/landed`],
  }));
});
after(async () => {
  await Promise.all([seed.close(), other.close(), local.close()]);
});

async function crawl(name: string, args: string[]) {
  const db = join(dir, `${name}.db`);
  const r = await runCli(['crawl', '--seeds', seed.origin + '/', '--db', db, '--delay-ms', '0', '--detect', 'wms', ...args]);
  assert.equal(r.code, 0, r.stderr);
  const rows = (await runCli(['export', '--db', db])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string; state: string; error: string | null });
  const urls = rows.map((r) => r.url);
  assert.equal(new Set(urls).size, urls.length, 'every URL logged once');
  const services = JSON.parse((await runCli(['services', '--db', db])).stdout) as { endpoint: string; status: string; reason: string | null }[];
  return { log: new Map(rows.map((e) => [e.url, e])), services, stderr: r.stdout + r.stderr };
}

test('by default a crawl never connects to private addresses other than its seeds\': links, redirect hops, names and service probes are refused with the reason', async () => {
  const { log, services, stderr } = await crawl('default', ['--scope', 'any']);
  // The refusals (three links, two guessed sitemaps) made no request: no fetches, none of the page
  // budget spent. Fetched: the seed, its /sitemap.xml (404), /ok and /redir (its hop to another
  // host is queued as that host's URL, and refused as one).
  assert.match(stderr, /: 4 fetched this run \(4 done, 0 errors,/, stderr);
  assert.match(stderr, /sitemaps: 1 file fetched this run/, stderr);
  const refused = 'private address 127.0.0.3 (pass --allow-private to fetch it)';
  assert.equal(log.get(seed.origin + '/ok')?.state, 'done');
  assert.equal(log.get(other.origin + '/page')?.state, 'error');
  assert.equal(log.get(other.origin + '/page')?.error, refused);
  assert.equal(log.get(seed.origin + '/redir')?.error, `redirected to ${other.origin}/landed (another host: queued)`);
  assert.equal(log.get(other.origin + '/landed')?.error, refused);
  const probe = [...log.values()].find((e) => e.url.startsWith(other.origin + '/ows'));
  assert.equal(probe?.state, 'error');
  assert.equal(probe?.error, refused);
  assert.deepEqual(services.map((s) => [s.status, s.reason]), [['invalid', refused]]);
  assert.match(log.get(`http://localhost:${local.port}/`)?.error ?? '', /^localhost resolves to private address (127\.0\.0\.1|::1) \(pass --allow-private to fetch it\)$/);
  assert.deepEqual(other.hits, [], '127.0.0.3 saw no request, not even for robots.txt');
  assert.deepEqual(local.hits, []);
});

test('--allow-private fetches them all', async () => {
  const before = other.hits.length;
  const { log, services } = await crawl('allowed', ['--scope', 'any', '--allow-private']);
  for (const url of [other.origin + '/page', seed.origin + '/redir', `http://localhost:${local.port}/`]) assert.equal(log.get(url)?.state, 'done', url);
  assert.deepEqual(services.map((s) => s.status), ['valid']);
  assert.ok(other.hits.length > before);
});

test('--hosts with a port matches that host: it is in scope and its private address is allowed', async () => {
  const before = local.hits.length;
  const { log, services } = await crawl('hosts', ['--hosts', `127.0.0.3:${other.port}`]);
  assert.equal(log.get(other.origin + '/page')?.state, 'done');
  assert.equal(log.get(seed.origin + '/redir')?.state, 'done');
  assert.deepEqual(services.map((s) => s.status), ['valid']);
  assert.equal(log.get(`http://localhost:${local.port}/`)?.error, 'out of scope (host)');
  assert.equal(local.hits.length, before);
});

test('--hosts given as a URL matches its host and port too', async () => {
  const { log } = await crawl('hosts-url', ['--hosts', `HTTP://127.0.0.3:${other.port}/`]);
  assert.equal(log.get(other.origin + '/page')?.state, 'done');
});
