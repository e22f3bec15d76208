import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_OPEN_ELEMENTS, parseHtml } from '../../src/parse/html-page.js';

const URL = 'http://127.0.0.1/deep.html';

test('past the open-element bound, text, links, headings and hidden parts read as before', () => {
  const depth = MAX_OPEN_ELEMENTS + 100;
  const html =
    '<html><head><title>Deep</title></head><body>' +
    '<div>'.repeat(depth) +
    '<p>before <a href="/a">alpha</a></p>' +
    '<div>'.repeat(depth) +
    '<h2>Second heading</h2><script>var hidden = 1;</script><p>after <a href="/b">beta</a></p>' +
    '</body></html>';
  const p = parseHtml(html, URL, 'UTF-8', { linkContext: 20 });
  assert.equal(p.title, 'Deep');
  assert.equal(p.text, 'before alpha Second heading after beta');
  assert.equal(p.headings, 'Second heading');
  assert.deepEqual(
    p.links.map((l) => [l.url, l.anchor]),
    [
      ['http://127.0.0.1/a', 'alpha'],
      ['http://127.0.0.1/b', 'beta'],
    ],
  );
  // Link context runs across the bound too.
  assert.match(p.links[0]!.context!, /^before alpha Second/);
  assert.match(p.links[1]!.context!, /heading after beta$/);
});

test('a word split by the bound stays one word, as siblings in a browser do', () => {
  const html = '<body>' + '<span>x'.repeat(MAX_OPEN_ELEMENTS * 3) + '</body>';
  const p = parseHtml(html, URL);
  assert.equal(p.text, 'x'.repeat(MAX_OPEN_ELEMENTS * 3));
});

// Each of these took from seconds to minutes before the bound (bench/parse records the times);
// the timeout only stops a regression from holding the suite.
test('200,000 unclosed links are all kept with their anchors', { timeout: 120_000 }, () => {
  const n = 200_000;
  const p = parseHtml('<body>' + '<a href="/p?i=1">x'.repeat(n), URL, 'UTF-8', { linkContext: 40, serviceText: true });
  assert.equal(p.links.length, n);
  assert.ok(p.links.every((l) => l.url === 'http://127.0.0.1/p?i=1' && l.anchor === 'x'));
  assert.equal(p.text, 'x'.repeat(n));
});

test('a 4.8 MB page of 1.2 million unclosed tags is read to its end', { timeout: 120_000 }, () => {
  const n = 1_200_000;
  const p = parseHtml('<html><body>' + '<b>x'.repeat(n - 1) + '<b>end', URL);
  assert.equal(p.text.length, n - 1 + 'end'.length);
  assert.ok(p.text.endsWith('xend'));
});
