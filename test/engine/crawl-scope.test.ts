import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrawlScope } from '../../src/engine/crawl-scope.js';
import { runCli } from '../helpers/run-cli.js';

const none = { hosts: [], allow: [], deny: [] };

test('host scope keeps the seeds hosts (with their ports) only', () => {
  const s = new CrawlScope(['www.example.co.uk', '127.0.0.1:8080'], { mode: 'host', ...none });
  assert.equal(s.check('http://www.example.co.uk/a', 'www.example.co.uk'), null);
  assert.equal(s.check('http://127.0.0.1:8080/a', '127.0.0.1:8080'), null);
  assert.equal(s.check('http://shop.example.co.uk/a', 'shop.example.co.uk'), 'out of scope (host)');
});

test('domain scope uses the registrable domain from the public suffix list', () => {
  const s = new CrawlScope(['www.example.co.uk'], { mode: 'domain', ...none });
  assert.equal(s.check('http://shop.example.co.uk/', 'shop.example.co.uk'), null);
  assert.equal(s.check('http://other.co.uk/', 'other.co.uk'), 'out of scope (domain)');
});

test('extra hosts, allow and deny patterns', () => {
  const s = new CrawlScope(['a.org'], { mode: 'host', hosts: ['b.org'], allow: [/\/docs\//], deny: [/\.pdf$/] });
  assert.equal(s.check('http://b.org/docs/x', 'b.org'), null);
  assert.equal(s.check('http://a.org/blog/x', 'a.org'), 'out of scope (allow)');
  assert.equal(s.check('http://a.org/docs/x.pdf', 'a.org'), 'out of scope (deny)');
  assert.equal(new CrawlScope(['a.org'], { mode: 'any', ...none }).check('http://z.net/', 'z.net'), null);
});

test('allow and deny patterns in Chinese match the URL as a browser shows it', () => {
  const news = 'http://a.org/%E6%96%B0%E9%97%BB/%E5%85%89%E4%BC%8F.html'; // /新闻/光伏.html
  assert.equal(new CrawlScope(['a.org'], { mode: 'host', hosts: [], allow: [], deny: [/新闻/] }).check(news, 'a.org'), 'out of scope (deny)');
  assert.equal(new CrawlScope(['a.org'], { mode: 'host', hosts: [], allow: [/光伏/], deny: [] }).check(news, 'a.org'), null);
  assert.equal(new CrawlScope(['a.org'], { mode: 'host', hosts: [], allow: [/%E5%85%89/], deny: [] }).check(news, 'a.org'), null, 'and as stored');
  assert.equal(new CrawlScope(['a.org'], { mode: 'host', hosts: [], allow: [], deny: [/新闻/] }).check('http://a.org/%D0%C2', 'a.org'), null, 'GBK escapes: as they are');
  assert.equal(new CrawlScope(['a.org'], { mode: 'host', hosts: [], allow: [], deny: [/新闻/] }).check(`${news}?q=%D6%D0`, 'a.org'), 'out of scope (deny)', 'a UTF-8 path is read beside a GBK query');
});

test('a URL longer than maxUrlLength is out of scope, for links and for probes (checkFilters)', () => {
  const s = new CrawlScope(['a.org'], { mode: 'any', ...none, maxUrlLength: 40 });
  const url = 'http://a.org/' + 'x'.repeat(27);
  assert.equal(s.check(url, 'a.org'), null);
  assert.equal(s.check(url + 'x', 'a.org'), 'out of scope (longer than 40 characters)');
  assert.equal(s.checkFilters(url + 'x'), 'out of scope (longer than 40 characters)');
  assert.equal(new CrawlScope(['a.org'], { mode: 'any', ...none }).check('http://a.org/' + 'x'.repeat(2070), 'a.org'), null, '2,083 by default');
  assert.equal(new CrawlScope(['a.org'], { mode: 'any', ...none }).check('http://a.org/' + 'x'.repeat(2071), 'a.org'), 'out of scope (longer than 2083 characters)');
});

test('a name and its www. form are one site in host scope; addresses and single labels have no twin', () => {
  const s = new CrawlScope(['example.org', 'www.docs.test:8080', '127.0.0.1:9000', 'localhost'], { mode: 'host', ...none });
  assert.equal(s.check('https://www.example.org/', 'www.example.org'), null, 'example.org -> www.example.org');
  assert.equal(s.check('http://docs.test:8080/', 'docs.test:8080'), null, 'www.docs.test -> docs.test, same port');
  assert.equal(s.check('http://shop.example.org/', 'shop.example.org'), 'out of scope (host)');
  assert.equal(s.check('http://www.127.0.0.1:9000/', 'www.127.0.0.1:9000'), 'out of scope (host)');
  assert.equal(s.check('http://www.localhost/', 'www.localhost'), 'out of scope (host)');
});

test('a seed that redirects to another host says which --hosts would follow it', async () => {
  const there = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>there</title>'));
  await new Promise<void>((r) => there.listen(0, '127.0.0.1', r));
  const to = `127.0.0.1:${(there.address() as AddressInfo).port}`;
  const here = createServer((req, res) => (req.url === '/robots.txt' ? res.writeHead(404).end() : res.writeHead(301, { location: `http://${to}/moved` }).end()));
  await new Promise<void>((r) => here.listen(0, '127.0.0.1', r));
  try {
    const r = await runCli(['crawl', `http://127.0.0.1:${(here.address() as AddressInfo).port}/`, '--db', join(mkdtempSync(join(tmpdir(), 'fc-moved-')), 'm.db'), '--no-sitemaps']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes(`redirect to http://${to}/moved not followed: out of scope (host); --hosts ${to} would allow it`), r.stdout);
  } finally {
    here.close();
    there.close();
  }
});
