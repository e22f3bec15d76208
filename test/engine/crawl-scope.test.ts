import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CrawlScope } from '../../src/engine/crawl-scope.js';

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

test('a URL longer than maxUrlLength is out of scope, for links and for probes (checkFilters)', () => {
  const s = new CrawlScope(['a.org'], { mode: 'any', ...none, maxUrlLength: 40 });
  const url = 'http://a.org/' + 'x'.repeat(27);
  assert.equal(s.check(url, 'a.org'), null);
  assert.equal(s.check(url + 'x', 'a.org'), 'out of scope (longer than 40 characters)');
  assert.equal(s.checkFilters(url + 'x'), 'out of scope (longer than 40 characters)');
  assert.equal(new CrawlScope(['a.org'], { mode: 'any', ...none }).check('http://a.org/' + 'x'.repeat(2070), 'a.org'), null, '2,083 by default');
  assert.equal(new CrawlScope(['a.org'], { mode: 'any', ...none }).check('http://a.org/' + 'x'.repeat(2071), 'a.org'), 'out of scope (longer than 2083 characters)');
});
