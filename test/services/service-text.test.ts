import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/parse/html-page.js';

/** Page.serviceText: what the parser gives service detection besides the links (issue 16). */

const PAGE = `<html><head><title>Endpoints</title>
<script>var cfg = {"wms": "https:\\/\\/geo.example.org\\/cgi-bin\\/mapserv?SERVICE=WMS\\u0026REQUEST=GetCapabilities"}; var w = 'http://geo.example.org/wfs?service=WFS';</script>
<style>body { background: url(http://geo.example.org/style/wms.png) }</style></head><body>
<p>Copy this: <code>http://geo.example.org/ows?SERVICE=WMS&amp;REQUEST=GetCapabilities</code>.</p>
<pre>curl "http://geo.example.org/wcs?service=WCS&amp;request=GetCapabilities"</pre>
<p>地址：http://geo.example.org/wmts?service=WMTS&amp;request=GetCapabilities。详见 (http://geo.example.org/help).</p>
<input value="http://geo.example.org/csw?service=CSW"><textarea>http://geo.example.org/ta/wms?a=1&amp;b=2</textarea>
<div data-endpoint="http://geo.example.org/data/wms?service=WMS" title="http://geo.example.org/title/wms"></div>
<a href="http://geo.example.org/linked/wms?service=WMS">http://geo.example.org/linked/wms?service=WMS</a>
<p>WMS: http://geo.example.org/ows?SERVICE=WMS&amp;REQUEST=GetCapabilities again</p>
</body></html>`;

test('URLs written outside links: text, code, pre, textarea, input value, data- attributes, script strings', () => {
  const p = parseHtml(PAGE, 'http://geo.example.org/', 'UTF-8', { serviceText: true });
  assert.deepEqual(p.serviceText!.urls.map((l) => l.url), [
    'http://geo.example.org/ows?SERVICE=WMS&REQUEST=GetCapabilities',
    'http://geo.example.org/wcs?service=WCS&request=GetCapabilities',
    'http://geo.example.org/wmts?service=WMTS&request=GetCapabilities',
    'http://geo.example.org/help',
    'http://geo.example.org/ta/wms?a=1&b=2',
    'https://geo.example.org/cgi-bin/mapserv?SERVICE=WMS&REQUEST=GetCapabilities',
    'http://geo.example.org/wfs?service=WFS',
    'http://geo.example.org/csw?service=CSW',
    'http://geo.example.org/data/wms?service=WMS',
  ]);
  // Each once; the linked one not at all; a stylesheet and a title attribute are not scanned.
  assert.ok(p.serviceText!.urls.every((l) => l.anchor === '' && !l.nofollow && l.context === undefined));
  assert.deepEqual(p.links.map((l) => l.url), ['http://geo.example.org/linked/wms?service=WMS']);
  assert.ok(!p.text.includes('cfg'), 'script text stays out of the page text');
});

test('with link context asked for, URLs in visible text get theirs; off by default', () => {
  const p = parseHtml(PAGE, 'http://geo.example.org/', 'UTF-8', { serviceText: true, linkContext: 12 });
  assert.equal(p.serviceText!.urls[0]!.context, 'Copy this: http://geo.example.org/ows?SERVICE=WMS&REQUEST=GetCapabilities. curl "htt');
  assert.equal(p.serviceText!.urls[5]!.context, '', 'a script string has no visible text around it');
  assert.equal(parseHtml(PAGE, 'http://geo.example.org/').serviceText, undefined);
});

test('the words of a .xml link: its anchor and the text of its block, table rows whole', () => {
  const html = `<html><body><p>Data for WMS clients.</p>
    <ul><li>Tiles (WMTS): <a href="/t/tiles.xml">tiles.xml</a> updated daily</li><li>Other: <a href="/x.xml#top">x</a></li></ul>
    <table><tr><td>WFS</td><td><a href="/f/features.xml?v=2">download</a></td></tr></table>
    <a href="/page.html">not xml</a></body></html>`;
  const words = parseHtml(html, 'http://geo.example.org/', 'UTF-8', { serviceText: true }).serviceText!.xmlLinkWords;
  assert.deepEqual(words, {
    'http://geo.example.org/t/tiles.xml': 'Tiles (WMTS): tiles.xml updated daily',
    'http://geo.example.org/x.xml': 'Other: x',
    'http://geo.example.org/f/features.xml?v=2': 'WFS download',
  });
});
