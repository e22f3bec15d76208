import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseUrl, normalizeUrl, resolveLink } from '../../src/parse/normalize-url.js';
import { isSessionParam, stripSessionIds } from '../../src/parse/session-params.js';

const HEX = '0123456789abcdef0123456789abcdef';

test('session path parameters and ASP.NET cookieless segments are removed', () => {
  assert.equal(normalizeUrl('http://a.com/shop/item;jsessionid=A1B2C3D4?id=5'), 'http://a.com/shop/item?id=5');
  assert.equal(normalizeUrl('http://a.com/shop/;JSESSIONID=A1B2C3D4'), 'http://a.com/shop/');
  assert.equal(normalizeUrl('http://a.com/x;type=a;jsessionid=99'), 'http://a.com/x;type=a', 'other path parameters stay');
  assert.equal(normalizeUrl('http://a.com/(S(lit3py55t21z5v55vlm25s55))/default.aspx'), 'http://a.com/default.aspx');
});

test('session query parameters are removed whatever their value; the rest keeps its order', () => {
  assert.equal(normalizeUrl('http://a.com/p?b=2&PHPSESSID=9f8e7d&a=1'), 'http://a.com/p?b=2&a=1');
  assert.equal(normalizeUrl('http://a.com/p?ASPSESSIONIDQQGGQGPG=KJHGFDSA&x=1'), 'http://a.com/p?x=1');
  assert.equal(normalizeUrl('http://a.com/p?CFID=12345&CFTOKEN=67890123'), 'http://a.com/p');
  assert.equal(normalizeUrl('http://a.com/p?zenid=abc&osCsid=def&sessionid=1&session_id=2&sessid=3&id=7'), 'http://a.com/p?id=7');
});

test('sid and s go only when their value looks like a session token', () => {
  assert.equal(normalizeUrl(`http://a.com/viewtopic.php?t=5&sid=${HEX}`), 'http://a.com/viewtopic.php?t=5', 'phpBB');
  assert.equal(normalizeUrl('http://a.com/story?sid=a8F3kQ9z2LmN4pR7'), 'http://a.com/story');
  assert.equal(normalizeUrl('http://a.com/story?sid=123'), 'http://a.com/story?sid=123', 'a story id');
  assert.equal(normalizeUrl('http://a.com/story?sid=1234567890123456'), 'http://a.com/story?sid=1234567890123456', 'digits only: an id');
  assert.equal(normalizeUrl(`http://a.com/forum?s=${HEX}&f=2`), 'http://a.com/forum?f=2', 'vBulletin');
  assert.equal(normalizeUrl('http://a.com/?s=solar+panels'), 'http://a.com/?s=solar+panels', 'WordPress search');
  assert.equal(isSessionParam('id=0123456789abcdef0123456789abcdef'), false, 'id is never a session');
  assert.equal(isSessionParam('jsessionid'), true);
});

test('stripping is idempotent and leaves URLs without session ids alone', () => {
  for (const u of ['http://a.com/p?x=1&&y=2', 'http://a.com/sid/s/', 'http://a.com/p?ssid=1&sids=2', 'http://a.com/p?x=1;jsessionid']) {
    assert.equal(stripSessionIds(u), u);
  }
  const once = stripSessionIds(`http://a.com/p;jsessionid=1?PHPSESSID=2&q=3&sid=${HEX}`);
  assert.equal(once, 'http://a.com/p?q=3');
  assert.equal(stripSessionIds(once), once);
});

test('links as a page writes them: the fast path agrees with normalizeUrl', () => {
  const base = baseUrl('http://a.com/dir/page.html;jsessionid=XYZ');
  for (const href of ['/p;jsessionid=1', '/p?PHPSESSID=2&a=1', `/p?sid=${HEX}`, '/p?sid=7', 'x.html;jsessionid=3', '/p?s=word', `/p?s=${HEX}`, '/(S(abc))/x']) {
    assert.equal(resolveLink(href, base), normalizeUrl(href, base.url), href);
  }
  assert.equal(resolveLink('/p?PHPSESSID=2&a=1', base), 'http://a.com/p?a=1');
});

test('a redirect hop may keep its session id: the server serves the page only under that name', () => {
  assert.equal(normalizeUrl('/home;jsessionid=ABC', 'http://a.com/home', { keepSessionIds: true }), 'http://a.com/home;jsessionid=ABC');
});
