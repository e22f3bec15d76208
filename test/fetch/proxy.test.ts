import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { cliFails } from '../helpers/cli-fails.js';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import { SqliteCrawlReader } from '../../src/store/sqlite-crawl-reader.js';

/**
 * Crawls through a real HTTP proxy (a node:http server on 127.0.0.5 that tunnels CONNECT and
 * forwards absolute-form requests, and logs both) to a site on 127.0.0.6.
 */

const dir = mkdtempSync(join(tmpdir(), 'fc-proxy-'));
const listen = (s: Server, host: string) => new Promise<string>((r) => s.listen(0, host, () => r(`${host}:${(s.address() as AddressInfo).port}`)));

const site = createServer((req, res) => {
  res.setHeader('content-type', 'text/html');
  if (req.url === '/') res.end(`<a href="/a">a</a> <a href="/b">b</a> <a href="http://127.0.0.9:9/secret">inside</a> <a href="http://localhost:${siteHost.split(':')[1]}/c">local</a>`);
  else if (req.url === '/robots.txt') res.writeHead(404).end();
  else res.end(`<p>page ${req.url}</p>`);
});
const siteHost = await listen(site, '127.0.0.6');

/** What the proxy was asked for: 'CONNECT host:port auth' or 'GET absolute-url auth'. */
const proxied: string[] = [];
const proxy = createServer((req, res) => {
  proxied.push(`${req.method} ${req.url} ${req.headers['proxy-authorization'] ?? ''}`.trim());
  const u = new URL(req.url!);
  const up = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: req.method, headers: req.headers }, (r) => {
    res.writeHead(r.statusCode!, r.headers);
    r.pipe(res);
  });
  up.on('error', () => res.writeHead(502).end());
  req.pipe(up);
});
proxy.on('connect', (req, sock, head) => {
  proxied.push(`CONNECT ${req.url} ${req.headers['proxy-authorization'] ?? ''}`.trim());
  const [host, port] = req.url!.split(':');
  const up = connect(Number(port), host!, () => {
    sock.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    up.write(head);
    up.pipe(sock);
    sock.pipe(up);
  });
  up.on('error', () => sock.destroy());
  sock.on('error', () => up.destroy());
});
const proxyHost = await listen(proxy, '127.0.0.5');
after(() => {
  site.closeAllConnections();
  proxy.closeAllConnections();
  site.close();
  proxy.close();
});

async function log(db: string) {
  const reader = new SqliteCrawlReader(new SqliteDb(db, { create: false }), true);
  try {
    const out = new Map<string, { state: string; error: string | null }>();
    for await (const e of reader.logEntries()) out.set(e.url, e);
    return out;
  } finally {
    await reader.close();
  }
}

test('--proxy: every request goes through it with its credentials; private addresses stay refused; the proxy is not stored', async () => {
  proxied.length = 0;
  const db = join(dir, 'flag.db');
  const r = await runCli(['crawl', `http://${siteHost}/`, '--db', db, '--scope', 'any', '--delay-ms', '0', '--proxy', `http://crawler:s3cretpw@${proxyHost}`]);
  assert.equal(r.code, 0, r.stderr);
  const auth = `Basic ${Buffer.from('crawler:s3cretpw').toString('base64')}`;
  assert.ok(proxied.includes(`CONNECT ${siteHost} ${auth}`), proxied.join('\n'));
  assert.ok(proxied.every((p) => p.startsWith(`CONNECT ${siteHost} `)), `only the named site went through the proxy: ${proxied.join(', ')}`);
  const entries = await log(db);
  for (const p of ['/', '/a', '/b']) assert.equal(entries.get(`http://${siteHost}${p}`)?.state, 'done', p);
  assert.match(entries.get('http://127.0.0.9:9/secret')?.error ?? '', /private address 127\.0\.0\.9 \(pass --allow-private/);
  assert.match(entries.get(`http://localhost:${siteHost.split(':')[1]}/c`)?.error ?? '', /localhost resolves to private address/);
  for (const f of [db, `${db}-wal`]) if (existsSync(f)) assert.ok(!readFileSync(f).includes('s3cretpw'), `no credentials in ${f}`);
});

test('HTTP_PROXY from the environment is used, NO_PROXY sends a host direct, and --proxy direct ignores both', async () => {
  const env = { ...process.env, HTTP_PROXY: `http://${proxyHost}`, NO_PROXY: '' };
  proxied.length = 0;
  const viaEnv = await runCli(['crawl', `http://${siteHost}/`, '--db', join(dir, 'env.db'), '--delay-ms', '0'], { env });
  assert.equal(viaEnv.code, 0, viaEnv.stderr);
  assert.ok(proxied.some((p) => p.startsWith(`CONNECT ${siteHost}`)), 'the crawl went through the proxy');
  assert.match(viaEnv.stderr, new RegExp(`focuscrawl: requests go through the proxy of the environment \\(HTTP_PROXY=http://${proxyHost.replace(/\./g, '\\.')}/?\\): --proxy direct ignores it`));
  assert.equal((await log(join(dir, 'env.db'))).get(`http://${siteHost}/a`)?.state, 'done');

  proxied.length = 0;
  const noProxy = await runCli(['crawl', `http://${siteHost}/`, '--db', join(dir, 'noproxy.db'), '--delay-ms', '0'], { env: { ...env, NO_PROXY: '127.0.0.6' } });
  assert.equal(noProxy.code, 0, noProxy.stderr);
  assert.equal((await log(join(dir, 'noproxy.db'))).get(`http://${siteHost}/a`)?.state, 'done');
  const direct = await runCli(['crawl', `http://${siteHost}/`, '--db', join(dir, 'direct.db'), '--delay-ms', '0', '--proxy', 'direct'], { env });
  assert.equal(direct.code, 0, direct.stderr);
  assert.doesNotMatch(direct.stderr, /proxy of the environment/);
  assert.equal((await log(join(dir, 'direct.db'))).get(`http://${siteHost}/b`)?.state, 'done');
  assert.deepEqual(proxied, [], 'neither went through the proxy');
});

test('a proxy that is not a proxy URL is named, before a database is created', async () => {
  await cliFails(['crawl', `http://${siteHost}/`, '--db', join(dir, 'bad.db'), '--proxy', 'ftp://127.0.0.5:21'], /--proxy.*expected an http:\/\/, https:\/\/ or socks5:\/\/ URL, or 'direct'/);
  await cliFails(['resume', '--db', join(dir, 'flag.db'), '--proxy', 'nonsense'], /--proxy/);
  assert.ok(!existsSync(join(dir, 'bad.db')));
});
