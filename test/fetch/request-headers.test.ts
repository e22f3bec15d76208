import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { cliFails } from '../helpers/cli-fails.js';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { headerProblem, isCredentialHeader, requestHeadersSchema } from '../../src/fetch/request-headers.js';
import { pgSchema, redisPrefix } from '../../src/distributed/shared-crawl.js';
import { dropCrawlKeys } from '../../src/distributed/rebuild-frontier.js';
import { PG_URL } from '../helpers/test-pg.js';
import { connectTestRedis, REDIS_URL } from '../helpers/test-redis.js';

/**
 * --header on a crawl of two real sites: the seed's on 127.0.0.7, which links to and redirects to
 * another on 127.0.0.8. Each server keeps the headers of every request it got.
 */

const dir = mkdtempSync(join(tmpdir(), 'fc-headers-'));
const seen = new Map<string, IncomingHttpHeaders[]>();
const listen = (s: Server, host: string) => new Promise<string>((r) => s.listen(0, host, () => r(`${host}:${(s.address() as AddressInfo).port}`)));
const site = (name: () => string, route: (url: string) => [number, Record<string, string>, string]) =>
  createServer((req, res) => {
    const key = `${name()}${req.url}`;
    seen.set(key, [...(seen.get(key) ?? []), req.headers]);
    const [status, headers, body] = route(req.url!);
    res.writeHead(status, { 'content-type': 'text/html', ...headers }).end(body);
  });
const seed = site(() => seedHost, (url) => {
  if (url === '/robots.txt') return [404, {}, ''];
  if (url === '/') return [200, {}, `<a href="/a">a</a> <a href="/moved">moved</a> <a href="http://${otherHost}/o">other</a>`];
  if (url === '/moved') return [302, { location: `http://${otherHost}/landed` }, ''];
  return [200, {}, `<p>page ${url}</p>`];
});
const other = site(() => otherHost, (url) => (url === '/robots.txt' ? [404, {}, ''] : [200, {}, `<p>other ${url}</p>`]));
const seedHost = await listen(seed, '127.0.0.7');
const otherHost = await listen(other, '127.0.0.8');
after(() => {
  for (const s of [seed, other]) {
    s.closeAllConnections();
    s.close();
  }
});

test('header rules: names are HTTP tokens, the crawler keeps its own, credentials are told apart', () => {
  assert.equal(headerProblem('Accept-Language', 'zh-CN'), null);
  assert.match(headerProblem('Bad Name', 'x')!, /not a header name/);
  assert.match(headerProblem('User-Agent', 'x')!, /--user-agent/);
  assert.match(headerProblem('Host', 'x')!, /cannot be set/);
  assert.match(headerProblem('X-A', 'one\r\nInjected: yes')!, /line break/);
  assert.match(headerProblem('X-A', 'caf\u00e9 ✓')!, /holds 'é': .*non-ASCII is not allowed/, 'undici would refuse it on every request');
  for (const n of ['Authorization', 'Cookie', 'X-Api-Key', 'X-Auth-Token', 'PRIVATE-TOKEN']) assert.ok(isCredentialHeader(n), n);
  for (const n of ['Accept-Language', 'Accept', 'Referer', 'DNT']) assert.ok(!isCredentialHeader(n), n);
  assert.deepEqual(requestHeadersSchema.parse({ 'Accept-Language': ' zh-CN ' }), { 'accept-language': 'zh-CN' });
  assert.equal(requestHeadersSchema.safeParse({ Cookie: 'a=1', cookie: 'b=2' }).success, false, 'the same name twice in two cases');
});

test('--header: every request carries the plain headers, only the seed host gets the credentials, none is stored; resume asks for them again', async () => {
  seen.clear();
  const db = join(dir, 'crawl.db');
  const r = await runCli([
    'crawl', `http://${seedHost}/`, '--db', db, '--scope', 'any', '--delay-ms', '0', '--allow-private',
    '--header', 'Accept-Language: zh-CN,en;q=0.8', '--header', 'Cookie: session=c00kie5ecret', '--header', 'X-Api-Key: k3ysecret',
  ]);
  assert.equal(r.code, 0, r.stderr);
  for (const path of ['/', '/a', '/moved', '/robots.txt']) {
    const h = seen.get(`${seedHost}${path}`)?.[0];
    assert.ok(h, `${path} was requested`);
    assert.equal(h['accept-language'], 'zh-CN,en;q=0.8', path);
    assert.equal(h.cookie, 'session=c00kie5ecret', path);
    assert.equal(h['x-api-key'], 'k3ysecret', path);
    assert.match(h['user-agent'] ?? '', /^focuscrawl\//, 'the crawler\'s own headers stay');
  }
  for (const path of ['/o', '/landed', '/robots.txt']) {
    const h = seen.get(`${otherHost}${path}`)?.[0];
    assert.ok(h, `${otherHost}${path} was requested`);
    assert.equal(h['accept-language'], 'zh-CN,en;q=0.8', path);
    assert.equal(h.cookie, undefined, `no cookie to another host (${path}, the redirect's target included)`);
    assert.equal(h['x-api-key'], undefined, path);
  }
  for (const f of [db, `${db}-wal`]) if (existsSync(f)) assert.ok(!readFileSync(f).includes('c00kie5ecret') && !readFileSync(f).includes('k3ysecret'), `no header value in ${f}`);

  const again = await runCli(['resume', '--db', db]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /started with request headers \(accept-language, cookie, x-api-key\), which are not stored: give --header again/);
});

test('a bad --header is named before anything is created', async () => {
  await cliFails(['crawl', `http://${seedHost}/`, '--db', join(dir, 'bad.db'), '--header', 'no colon here'], /--header.*expected 'Name: value'/);
  await cliFails(['crawl', `http://${seedHost}/`, '--db', join(dir, 'bad.db'), '--header', 'Host: elsewhere'], /--header.*'Host' cannot be set/);
  await cliFails(['resume', '--db', join(dir, 'crawl.db'), '--header', 'User-Agent: x'], /--header.*--user-agent/);
  assert.ok(!existsSync(join(dir, 'bad.db')));
});

test('a shared crawl stores the header names, not their values; a worker started without them sends none and says which they were', async () => {
  seen.clear();
  const name = `fctest_hdr_${randomBytes(4).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  try {
    const seeded = await runCli(['crawl', ...shared, '--seed-only', `http://${seedHost}/`, '--delay-ms', '0', '--allow-private', '--header', 'Cookie: session=sh4redsecret', '--header', 'Accept-Language: zh-CN']);
    assert.equal(seeded.code, 0, seeded.stderr);
    const worker = await runCli(['worker', ...shared]);
    assert.equal(worker.code, 0, worker.stderr);
    assert.match(worker.stderr, /started with request headers \(cookie, accept-language\), which are not stored: give --header again/);
    assert.equal(seen.get(`${seedHost}/`)?.[0]?.cookie, undefined, 'a worker sends only the headers it was given');
    const client = new pg.Client(PG_URL);
    await client.connect();
    try {
      const rows = (await client.query(`SELECT key, value FROM ${pgSchema(name)}.meta`)).rows as { key: string; value: string }[];
      assert.ok(rows.some((r) => r.key === 'config'), 'the crawl is stored');
      assert.ok(rows.every((r) => !r.value.includes('sh4redsecret')), 'no header value in PostgreSQL');
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS ${pgSchema(name)} CASCADE`);
      await client.end();
    }
  } finally {
    const redis = await connectTestRedis();
    await dropCrawlKeys(redis, redisPrefix(name));
    redis.disconnect();
  }
});
