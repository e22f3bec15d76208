import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/parse/html-page.js';
import { MAX_ANCHOR_CHARS, MAX_TITLE_CHARS } from '../../src/parse/stored-text-limits.js';

test('title, visible text without script/style, links with anchor text', () => {
  const p = parseHtml(
    `<html><head><title> Solar  Power </title><style>.x{color:red}</style><script>var hidden = 1;</script></head>
     <body><h1>Heading</h1><p>Some <b>bold</b>text &amp; more</p>
     <a href="/a">First <i>link</i></a> <a href="b.html"><img alt="Picture link"></a>
     <area href="/map-area" alt="Area"><iframe src="/frame">fallback</iframe><a href="#top">top</a></body></html>`,
    'http://x.org/dir/page.html',
  );
  assert.equal(p.title, 'Solar Power');
  assert.equal(p.text, 'Heading Some boldtext & more First link top');
  assert.deepEqual(
    p.links.map((l) => [l.url, l.anchor]),
    [
      ['http://x.org/a', 'First link'],
      ['http://x.org/dir/b.html', 'Picture link'],
      ['http://x.org/map-area', 'Area'],
      ['http://x.org/frame', ''],
      ['http://x.org/dir/page.html', 'top'],
    ],
  );
});

test('<base href>, rel=nofollow, canonical and meta robots are honoured', () => {
  const p = parseHtml(
    `<head><base href="http://other.org/base/"><link rel="canonical" href="/canon">
     <meta name="robots" content="NOINDEX, follow"></head>
     <body><a href="x" rel="nofollow ugc">no</a><a href="y">yes</a></body>`,
    'http://x.org/',
  );
  assert.equal(p.canonical, 'http://other.org/canon');
  assert.equal(p.noindex, true);
  assert.equal(p.nofollow, false);
  assert.deepEqual(p.links.map((l) => [l.url, l.nofollow]), [['http://other.org/base/x', true], ['http://other.org/base/y', false]]);
  assert.equal(parseHtml('<meta name="robots" content="none">', 'http://x.org/').nofollow, true);
  // Directives are tokens: a value that contains "none" or "noindex" is not one.
  const preview = parseHtml('<meta name="robots" content="index, follow, max-image-preview:none">', 'http://x.org/');
  assert.deepEqual([preview.noindex, preview.nofollow], [false, false]);
  assert.equal(parseHtml('<meta name="robots" content=" NoFollow ,noarchive">', 'http://x.org/').nofollow, true);
});

test('malformed markup does not throw and keeps what it can', () => {
  const p = parseHtml('<title>Broken</title><p>unclosed <a href="/one">one<a href="/two">two</div></span><<<>>> &bogus; text', 'http://x.org/');
  assert.equal(p.title, 'Broken');
  assert.match(p.text, /&bogus; text$/);
  assert.deepEqual(p.links.map((l) => l.url), ['http://x.org/one', 'http://x.org/two']);
  assert.equal(parseHtml('', 'http://x.org/').text, '');
});

test('whitespace of every kind collapses to single spaces', () => {
  const p = parseHtml('<p>a\u00a0b \t c\n\nd\u3000e  f</p><div> g </div>', 'http://x.org/');
  assert.equal(p.text, 'a b c d e f g');
});

test('what a browser shows as nothing inside a word is dropped: NUL, soft hyphen, zero-width space, word joiner', () => {
  const p = parseHtml('<title>nul\0title</title><p>photo&shy;voltaic 光伏\u200b发电 alpha\0beta word\u2060joiner</p>', 'http://127.0.0.1/');
  assert.equal(p.title, 'nultitle');
  assert.equal(p.text, 'photovoltaic 光伏发电 alphabeta wordjoiner');
});

test('a meta refresh target is a link of the page; a refresh without a URL, or to a script, is none', () => {
  const links = (head: string) => parseHtml(`<head>${head}</head><body>stub</body>`, 'http://x.test/d/p.html').links.map((l) => l.url);
  assert.deepEqual(links('<meta http-equiv="refresh" content="0; url=next.html">'), ['http://x.test/d/next.html']);
  assert.deepEqual(links(`<meta http-equiv=Refresh content="3;URL='/a b'">`), ['http://x.test/a%20b']);
  assert.deepEqual(links('<meta http-equiv="refresh" content="0; ./cli.html">'), ['http://x.test/d/cli.html'], 'the URL without url=');
  assert.deepEqual(links('<meta http-equiv="refresh" content="30">'), []);
  assert.deepEqual(links('<meta http-equiv="refresh" content="0; url=">'), []);
  assert.deepEqual(links(`<meta http-equiv="refresh" content="0;url=/a?x='y'">`), ['http://x.test/a?x=%27y%27'], 'a quote inside an unquoted URL is part of it');
  assert.deepEqual(links('<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'), []);
});

test('a link\'s query is encoded in the page\'s encoding, as browsers request it; its path in UTF-8', () => {
  const links = (html: string, enc: string) => parseHtml(html, 'http://x.org/dir/', enc).links.map((l) => l.url);
  const page = '<a href="/search?q=中文#top">a</a><a href="/地图?q=中">b</a><a href="?q=ascii">c</a>';
  assert.deepEqual(links(page, 'GBK'), ['http://x.org/search?q=%D6%D0%CE%C4', 'http://x.org/%E5%9C%B0%E5%9B%BE?q=%D6%D0', 'http://x.org/dir/?q=ascii']);
  assert.deepEqual(links(page, 'UTF-8'), ['http://x.org/search?q=%E4%B8%AD%E6%96%87', 'http://x.org/%E5%9C%B0%E5%9B%BE?q=%E4%B8%AD', 'http://x.org/dir/?q=ascii']);
  assert.deepEqual(links('<a href="/s?q=中文">a</a>', 'Big5'), ['http://x.org/s?q=%A4%A4%A4%E5']);
  // A character the encoding lacks goes as a numeric character reference, as browsers send it.
  assert.deepEqual(links('<a href="/s?q=é中">a</a>', 'windows-1252'), ['http://x.org/s?q=%E9%26%2320013%3B']);
});

test('titles and anchors are bounded, and control characters are dropped from text (printed, they drove the terminal)', () => {
  const huge = 'solar '.repeat(5000);
  const p = parseHtml(`<title>${huge}</title><p>red\x1b[31m alert\x07</p><a href="/a">${huge}</a><a href="/b">${'x'.repeat(MAX_ANCHOR_CHARS - 2)}😀 tail</a>`, 'http://x.org/');
  assert.equal(p.title.length, MAX_TITLE_CHARS);
  assert.ok(p.title.endsWith('…'));
  assert.equal(p.links[0]!.anchor.length, MAX_ANCHOR_CHARS);
  assert.equal(p.text.includes('\x1b') || p.text.includes('\x07'), false);
  assert.match(p.text, /red\[31m alert/);
  assert.ok(p.links[1]!.anchor.endsWith('x…') && p.links[1]!.anchor.length < MAX_ANCHOR_CHARS, 'cut before the emoji, whose two halves straddle the limit');
  assert.equal(/[\ud800-\udbff](?![\udc00-\udfff])/.test(p.links[1]!.anchor), false, 'no surrogate pair cut in half');
});
