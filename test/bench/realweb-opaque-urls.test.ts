import { test } from 'node:test';
import assert from 'node:assert/strict';
import { opaquePath, redirectTarget, resolveOriginal, rewriteLinks } from '../../bench/realweb/opaque-urls.js';

test('opaque paths are stable, hex only, and differ between sites', () => {
  const a = opaquePath('django', 'ref/models/querysets.html');
  assert.match(a, /^\/p\/[0-9a-f]{10}\.html$/);
  assert.equal(opaquePath('django', 'ref/models/querysets.html'), a);
  assert.notEqual(opaquePath('other', 'ref/models/querysets.html'), a);
  assert.notEqual(opaquePath('django', 'ref/models/fields.html'), a);
});

test('links resolve to pages of the original tree, or to nothing when they leave it', () => {
  assert.deepEqual(resolveOriginal('ref/models/index.html', '../forms/api.html#x'), { path: 'ref/forms/api.html', fragmentOnly: false });
  assert.deepEqual(resolveOriginal('a/b.html', 'c/'), { path: 'a/c/index.html', fragmentOnly: false });
  assert.deepEqual(resolveOriginal('a/b.html', './'), { path: 'a/index.html', fragmentOnly: false });
  assert.deepEqual(resolveOriginal('a/b.html', 'd.html?x=1&amp;y=2'), { path: 'a/d.html', fragmentOnly: false });
  assert.deepEqual(resolveOriginal('a/b.html', 'my%20page.html'), { path: 'a/my page.html', fragmentOnly: false });
  assert.deepEqual(resolveOriginal('a/b.html', '#frag'), { path: 'a/b.html', fragmentOnly: true });
  assert.equal(resolveOriginal('a/b.html', 'https://example.org/a/b.html'), null);
  assert.equal(resolveOriginal('a/b.html', 'mailto:x@example.org'), null);
  assert.equal(resolveOriginal('a/b.html', '/usr/share/doc/x.html'), null);
  assert.equal(resolveOriginal('a/b.html', '../../up.html'), null);
});

test('rewriteLinks keeps text and anchors, points served pages to opaque URLs and drops every other URL', () => {
  const served: Record<string, string> = { 'dir/b.html': '/p/0123456789.html', 'index.html': '/' };
  const html =
    '<head><link rel="stylesheet" href="s.css"><base href="http://x/"></head>' +
    '<a href="b.html#part">B</a> <A HREF=\'../index.html\' class="up">Up</A> <a href="missing.html">M</a> ' +
    '<a href="#top">T</a> <a href="https://example.org/geo">E</a> <a name="q" id="q">Q</a> ' +
    '<img src="pic.png" alt="pic"> <frame src="b.html"> <script src="app.js"></script> <a title="a > b" href="b.html">G</a>';
  const out = rewriteLinks(html, 'dir/page.html', (p) => served[p] ?? null);
  assert.equal(
    out,
    '<head></head>' +
      '<a href="/p/0123456789.html">B</a> <A HREF="/" class="up">Up</A> <a>M</a> ' +
      '<a>T</a> <a>E</a> <a name="q" id="q">Q</a> ' +
      '<img alt="pic"> <frame src="/p/0123456789.html"> <script></script> <a title="a > b" href="/p/0123456789.html">G</a>',
  );
});

test('a meta refresh, a link the crawler follows, points to the opaque URL or goes with its tag', () => {
  const served: Record<string, string> = { 'dir/b.html': '/p/0123456789.html' };
  const rw = (html: string) => rewriteLinks(html, 'dir/page.html', (p) => served[p] ?? null);
  assert.equal(rw(`<meta http-equiv="refresh" content="0;URL='b.html'"><p>x</p>`), '<meta http-equiv="refresh" content="0; url=/p/0123456789.html"><p>x</p>');
  assert.equal(rw('<meta http-equiv=refresh content="0; ./b.html">'), '<meta http-equiv="refresh" content="0; url=/p/0123456789.html">');
  assert.equal(rw('<meta http-equiv=refresh content=0;url=b.html>'), '<meta http-equiv="refresh" content="0; url=/p/0123456789.html">', 'an unquoted content');
  assert.equal(rw(`<meta http-equiv="refresh" content="0;URL='../../../cargo-doc/x.html'"><p>x</p>`), '<p>x</p>', 'out of the tree: no word of its path is left');
  assert.equal(rw('<meta charset="utf-8">'), '<meta charset="utf-8">');
});

test('redirect stubs are recognised by their meta refresh', () => {
  const stub = '<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0;URL=../struct.Mutex.html"></head><body>Redirecting</body></html>';
  assert.equal(redirectTarget(stub, 'std/sync/mutex/struct.Mutex.html'), 'std/sync/struct.Mutex.html');
  assert.equal(redirectTarget('<html><head><title>x</title></head></html>', 'a.html'), null);
});

test('links resolve against a relative <base href>, as a browser resolves them (LibreOffice\'s help)', () => {
  const served: Record<string, string> = { 'en-US/text/shared/05/new_help.html': '/p/aaaaaaaaaa.html', 'en-US/text/scalc/01/other.html': '/p/bbbbbbbbbb.html' };
  const html =
    '<base href="../../../../"><a href="en-US/text/shared/05/new_help.html?DbPAR=CALC#x">Help</a> ' +
    '<a href="other.html">Beside it, but the base moved it</a>';
  const out = rewriteLinks(html, 'en-US/text/scalc/01/04060101.html', (p) => served[p] ?? null);
  assert.equal(out, '<a href="/p/aaaaaaaaaa.html">Help</a> <a>Beside it, but the base moved it</a>');
  // Without a base, the same link resolves beside the page.
  assert.equal(rewriteLinks('<a href="other.html">x</a>', 'en-US/text/scalc/01/04060101.html', (p) => served[p] ?? null), '<a href="/p/bbbbbbbbbb.html">x</a>');
  // A base naming another host, or only a target frame, changes nothing.
  assert.equal(rewriteLinks('<base href="http://x/"><base target="main"><a href="other.html">x</a>', 'en-US/text/scalc/01/04060101.html', (p) => served[p] ?? null), '<a href="/p/bbbbbbbbbb.html">x</a>');
});
