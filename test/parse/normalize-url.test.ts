import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostOf, normalizeUrl } from '../../src/parse/normalize-url.js';

test('scheme and host case, default ports, dot segments and fragments are normalised', () => {
  assert.equal(normalizeUrl('HTTP://Example.COM:80/a/./b/../c#frag'), 'http://example.com/a/c');
  assert.equal(normalizeUrl('https://example.com:443/'), 'https://example.com/');
  assert.equal(normalizeUrl('https://example.com:8443/x'), 'https://example.com:8443/x');
  assert.equal(normalizeUrl('http://example.com'), 'http://example.com/');
  assert.equal(normalizeUrl('http://example.com/a?'), 'http://example.com/a');
});

test('percent-encoding: unreserved escapes decoded, others upper-cased, non-ASCII encoded', () => {
  assert.equal(normalizeUrl('http://example.com/%7euser/%41b%2fc?q=%e4'), 'http://example.com/~user/Ab%2Fc?q=%E4');
  assert.equal(normalizeUrl('http://example.com/地图?q=服务'), 'http://example.com/%E5%9C%B0%E5%9B%BE?q=%E6%9C%8D%E5%8A%A1');
  assert.equal(normalizeUrl('http://例子.中国/'), 'http://xn--fsqu00a.xn--fiqs8s/');
});

test('relative links resolve against the base; non-http schemes and junk are rejected', () => {
  assert.equal(normalizeUrl('../x.html', 'http://a.com/b/c/d.html'), 'http://a.com/b/x.html');
  assert.equal(normalizeUrl('//cdn.a.com/y', 'https://a.com/'), 'https://cdn.a.com/y');
  assert.equal(normalizeUrl('mailto:x@y.z', 'http://a.com/'), null);
  assert.equal(normalizeUrl('javascript:void(0)', 'http://a.com/'), null);
  assert.equal(normalizeUrl('http://'), null);
  assert.equal(normalizeUrl('  /spaced  ', 'http://a.com/'), 'http://a.com/spaced');
});

test('query parameter order is kept', () => {
  assert.equal(normalizeUrl('http://a.com/?b=2&a=1'), 'http://a.com/?b=2&a=1');
});

test('hostOf returns host[:port] without credentials', () => {
  assert.equal(hostOf('http://a.com:8080/x?y'), 'a.com:8080');
  assert.equal(hostOf('http://u:p@a.com/x'), 'a.com');
  assert.equal(hostOf('http://a.com'), 'a.com');
});

test('resolveLink fast path agrees with normalizeUrl', async () => {
  const { baseUrl, resolveLink } = await import('../../src/parse/normalize-url.js');
  // A base with a user name, or not http(s) (an ftp: <base>), takes the slow path: the same answer.
  const bases = ['http://a.com/dir/page.html', 'https://Example.org:443/x/', 'http://127.0.0.1:8080/p/1', 'http://user:pw@127.0.0.1:8080/dir/page', 'ftp://127.0.0.1:18433/'];
  const hrefs = [
    '/p/12', '/p/12?x=1&y=2', '/a b', '/a/./b', '/a/../b', '/a/..', '/.', '/%7e', '/%zz', "/it's", '/q?', '/q?a#f', '/#top',
    '//other.org/x', 'http://a.com/x', 'http://A.com/x', 'http://a.com:80/x', 'https://example.org/y?z', 'http://127.0.0.1:8080/p/2',
    'http://127.0.0.1:8080/p/../3', 'relative', '../up', '?only=query', '/地图', '/a{b}', '/a|b', '/a\\b', '/ok/path/', '/x?a=b?c',
    "/x?a='q'", '/x?a=%41', '/x?a=b c',
  ];
  for (const b of bases) {
    for (const h of hrefs) assert.equal(resolveLink(h, baseUrl(b)), normalizeUrl(h, b), `${h} on ${b}`);
  }
});

test('a <base> that is not http(s): data: and javascript: are ignored as browsers do; ftp: makes links that are dropped, never requested', async () => {
  const { parseHtml } = await import('../../src/parse/html-page.js');
  const links = (base: string) => parseHtml(`<base href="${base}"><a href="/p1">a</a><a href="http://127.0.0.1:8/ok">b</a>`, 'http://127.0.0.1:8/dir/page', 'utf-8').links.map((l) => l.url);
  assert.deepEqual(links('ftp://127.0.0.1:8/'), ['http://127.0.0.1:8/ok']);
  assert.deepEqual(links('data:text/html,x'), ['http://127.0.0.1:8/p1', 'http://127.0.0.1:8/ok']);
  assert.deepEqual(links('javascript:void(0)'), ['http://127.0.0.1:8/p1', 'http://127.0.0.1:8/ok']);
  assert.deepEqual(links('foo://bar/'), ['http://127.0.0.1:8/ok'], 'no "null/p1"');
});
