import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { HttpFetcher } from '../../src/fetch/http-fetcher.js';
import { CookieJars, MAX_COOKIE_TOTAL, MAX_COOKIES_PER_SITE } from '../../src/fetch/cookie-jars.js';
import { startCrawl } from '../../src/crawl.js';
import Database from 'better-sqlite3';

/** Requests as the servers saw them: path and Cookie header. */
const seen: { host: string; path: string; cookie: string }[] = [];
const servers: Server[] = [];
let site = '';
let other = '';

async function serve(address: string, handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    seen.push({ host: address, path: req.url ?? '', cookie: req.headers.cookie ?? '' });
    handle(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return `http://${address}:${(server.address() as AddressInfo).port}`;
}

const html = (res: ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>t</title><body>${body}</body>`);

before(async () => {
  other = await serve('127.0.0.12', (_req, res) => html(res, 'another site'));
  site = await serve('127.0.0.11', (req, res) => {
    const path = req.url ?? '';
    const has = (req.headers.cookie ?? '').includes('visited=yes');
    // A cookie wall: without the cookie, a page sends the visitor to /check, which sets it and sends them back.
    if (path.startsWith('/check?back=')) {
      return void res.writeHead(302, { 'set-cookie': 'visited=yes; Path=/; HttpOnly', location: decodeURIComponent(path.slice('/check?back='.length)) }).end();
    }
    if (!has) return void res.writeHead(302, { location: `/check?back=${encodeURIComponent(path)}` }).end();
    if (path === '/') return html(res, `<a href="/inside">inside</a> <a href="${other}/">another site</a>`);
    // A cookie set on a page itself: sent back, never stored with the page.
    res.setHeader('set-cookie', 'session=s3cr3t; Path=/inside');
    html(res, 'behind the cookie wall');
  });
});
after(() => {
  for (const s of servers) s.close();
});

test('a cookie set on a redirect is sent at its target: a cookie wall is passed, and going back to the same URL with the new cookie is no loop', async () => {
  seen.length = 0;
  const fetcher = new HttpFetcher();
  const res = await fetcher.fetch(site + '/inside');
  assert.equal(res.status, 200);
  assert.equal(res.finalUrl, site + '/inside');
  assert.deepEqual(seen.map((s) => [s.path, s.cookie]), [['/inside', ''], ['/check?back=%2Finside', ''], ['/inside', 'visited=yes']]);
  // Cookies last for the fetcher's life: the next page needs no detour.
  seen.length = 0;
  await fetcher.fetch(site + '/');
  assert.deepEqual(seen.map((s) => [s.path, s.cookie]), [['/', 'visited=yes']]);
  await fetcher.close?.();
});

test('without cookies the wall is a redirect loop; a user\'s Cookie header comes first and the site\'s follow it', async () => {
  await assert.rejects(new HttpFetcher({ cookies: false }).fetch(site + '/inside'), /redirect loop at .*\/inside/);
  seen.length = 0;
  const fetcher = new HttpFetcher({ headers: { cookie: 'mine=1' }, credentialHosts: [new URL(site).host] });
  await fetcher.fetch(site + '/inside');
  assert.deepEqual(seen.map((s) => s.cookie), ['mine=1', 'mine=1', 'mine=1; visited=yes']);
});

test('a crawl keeps each site\'s cookies to that site; --no-cookies (config cookies: false) sends none', async () => {
  for (const cookies of [true, false]) {
    seen.length = 0;
    const db = join(mkdtempSync(join(tmpdir(), 'fc-cookies-')), 'crawl.db');
    const crawl = await startCrawl({ seeds: [site + '/'], hosts: ['127.0.0.12'], scope: 'any', db, delayMs: 0, sitemaps: false, cookies, allowPrivate: true });
    const summary = await crawl.run();
    await crawl.close();
    const stored = new Database(db, { readonly: true });
    const headers = stored.prepare('SELECT url, headers FROM pages').all() as { url: string; headers: string }[];
    stored.close();
    assert.ok(headers.every((h) => !h.headers.includes('s3cr3t') && !/set-cookie/i.test(h.headers)), JSON.stringify(headers));
    if (cookies) {
      assert.ok(headers.some((h) => h.url === site + '/inside'), 'the page that set a cookie is stored');
      assert.equal(summary.stats.done, 3, 'the start page, /inside and the other site');
      assert.ok(seen.some((s) => s.path === '/inside' && s.cookie === 'visited=yes'));
      assert.deepEqual(seen.filter((s) => s.host === '127.0.0.12').map((s) => s.cookie), [''], 'another site gets no cookie');
    } else {
      assert.equal(summary.stats.done, 0);
      assert.ok(seen.every((s) => s.cookie === ''));
    }
  }
});

test('CookieJars: the cookies of all sites together are bounded; the sites used least recently lose theirs', () => {
  const jars = new CookieJars();
  // 49 cookies of 4 KB a site: each site is within its own limits, the crawl's total is not.
  const line = (i: number) => `c${i}=${'v'.repeat(4000)}`;
  const sites = Math.ceil(MAX_COOKIE_TOTAL / (49 * 4003)) + 5;
  for (let n = 0; n < sites; n++) jars.store(`http://s${n}.test/`, `s${n}.test`, Array.from({ length: 49 }, (_, i) => line(i)));
  assert.ok(jars.sites < sites, `${jars.sites} of ${sites} sites kept`);
  assert.equal(jars.header('http://s0.test/', 's0.test'), '', 'the first site used is forgotten');
  assert.equal(jars.header(`http://s${sites - 1}.test/`, `s${sites - 1}.test`).split('; ').length, 49, 'the last one keeps all of its cookies');
});

test('CookieJars: domains, Secure, expiry and size as RFC 6265 has them; a site that sets too many loses them', () => {
  const jars = new CookieJars();
  jars.store('http://www.example.com/a', 'www.example.com', ['a=1; Domain=example.com', 'b=2', 'pub=3; Domain=com', 'foreign=4; Domain=other.org', 'sec=5; Secure', 'gone=6; Max-Age=0']);
  assert.equal(jars.header('https://www.example.com/', 'www.example.com'), 'a=1; b=2', 'a Secure cookie is not taken from http');
  jars.store('https://www.example.com/a', 'www.example.com', 'sec=5; Secure');
  assert.equal(jars.header('https://www.example.com/', 'www.example.com'), 'a=1; b=2; sec=5');
  assert.equal(jars.header('http://www.example.com/', 'www.example.com'), 'a=1; b=2', 'nor sent over it');
  assert.equal(jars.header('http://docs.example.com/', 'docs.example.com'), 'a=1', 'the domain cookie only');
  assert.equal(jars.header('http://other.org/', 'other.org'), '');
  jars.store('http://www.example.com/a', 'www.example.com', `big=${'x'.repeat(5000)}`);
  assert.equal(jars.header('http://www.example.com/', 'www.example.com'), 'a=1; b=2', 'a cookie over 4096 bytes is ignored');
  const before = jars.version('www.example.com');
  jars.store('http://www.example.com/a', 'www.example.com', 'b=3');
  assert.equal(jars.version('www.example.com'), before + 1);
  jars.store('http://www.example.com/a', 'www.example.com', 'b=3');
  assert.equal(jars.version('www.example.com'), before + 1, 'the same cookie again changes nothing: a redirect back stays a loop');
  jars.store('http://www.example.com/a', 'www.example.com', `long=1; Path=/${'p'.repeat(100_000)}`);
  jars.store('http://www.example.com/a', 'www.example.com', `odd=1; ${'Z'.repeat(100_000)}=1`);
  assert.equal(jars.header(`http://www.example.com/${'p'.repeat(100_000)}`, 'www.example.com'), 'a=1; b=3', 'a Set-Cookie line of 100 KB is ignored, attributes and all');
  jars.store('http://t.test/', 't.test', Array.from({ length: 10_000 }, (_, i) => `c${i}=1`));
  assert.equal(jars.header('http://t.test/', 't.test').split('; ').length, MAX_COOKIES_PER_SITE, 'an answer\'s first 50 are read');
  jars.store('http://t.test/', 't.test', 'one=more');
  assert.equal(jars.header('http://t.test/', 't.test'), '', 'a site over the cap keeps none');
  jars.store('http://t.test/', 't.test', 'again=1');
  assert.equal(jars.header('http://t.test/', 't.test'), 'again=1');
});
