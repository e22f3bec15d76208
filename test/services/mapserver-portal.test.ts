import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { crawlToEnd, deadOrigin } from '../helpers/hostile-web.js';
import { MAPFILES, MAPSERV, startMapServerFront } from '../helpers/mapserver-front.js';

/**
 * Issue 16 on a real MapServer portal: endpoints printed in page text instead of linked, .xml
 * capabilities documents named like any file, and partner services on hosts that refuse
 * connections. Every valid endpoint must be registered as valid, every other one with its
 * reason, each endpoint asked once, and the dead hosts only a few times.
 */

if (!MAPSERV && process.env.CI) throw new Error('MapServer is not installed: .ci/run installs cgi-mapserver');
const skip = MAPSERV ? false : 'MapServer not installed (apt-get install cgi-mapserver)';

/** A host that accepts each connection and resets it at once (countable, unlike a closed port): ECONNRESET before any answer. */
async function resettingHost(address: string): Promise<{ origin: string; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const s = createServer((sock) => {
    connections++;
    sock.resetAndDestroy();
  });
  await new Promise<void>((r) => s.listen(0, address, r));
  return {
    origin: `http://${address}:${(s.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () => new Promise((r) => s.close(() => r())),
  };
}

const WMTS_DOC = readFileSync(new URL('../../../test/fixtures/services/wmts-100.xml', import.meta.url), 'utf8');
const esc = (s: string) => s.replaceAll('&', '&amp;');

test('a MapServer portal with endpoints only in text, .xml capabilities files and dead partner hosts', { skip }, async () => {
  // Two partner hosts on other loopback addresses (hence allowPrivate below): one refuses
  // connections (a closed port), one accepts and resets them, so its attempts can be counted.
  const refused = await deadOrigin('127.0.0.2');
  const reset = await resettingHost('127.0.0.4');
  const front = await startMapServerFront((o) => {
    const ms = `${o}/cgi-bin/mapserv`;
    return {
      pages: {
        '/': `<html><head><title>Hydrology data portal</title></head><body>
          <a href="/endpoints.html">Service addresses</a> <a href="/partners.html">Partners</a>
          <a href="/capabilities.html">Capabilities documents</a> <a href="/downloads.html">Downloads</a></body></html>`,
        // Nothing here is a link: the endpoints are printed for users to copy.
        '/endpoints.html': `<html><head><title>Service addresses</title>
          <script>window.portal = {"api": "${`${ms}/hydro/ogcapi/collections?f=json`.replaceAll('/', '\\/')}", "help": "${o}/help/api.html"};</script></head><body>
          <p>WMS: <code>${esc(`${ms}?SERVICE=WMS&REQUEST=GetCapabilities`)}</code></p>
          <pre>curl '${esc(`${ms}?service=WFS&request=GetCapabilities`)}'</pre>
          <p>WCS <input readonly value="${esc(`${ms}?service=WCS&request=GetCapabilities`)}"></p>
          <textarea>${esc(`${ms}?map=${MAPFILES}retired.map&SERVICE=WMS&REQUEST=GetCapabilities`)}</textarea>
          <div data-endpoint="${esc(`${ms}?map=${MAPFILES}missing.map&SERVICE=WMS&REQUEST=GetCapabilities`)}">old map</div>
          <p>备用地址：${esc(`${o}/fake/wms?SERVICE=WMS&REQUEST=GetCapabilities`)}。更多说明见 ${o}/text-only.html。</p>
          </body></html>`,
        '/partners.html': `<html><head><title>Partners</title></head><body>
          <a href="${refused}/geoserver/wms?service=WMS&amp;request=GetCapabilities">Partner WMS</a>
          <a href="${refused}/about.html">Partner site</a>
          <p>Partner WFS: <code>${esc(`${refused}/geoserver/wfs?service=WFS&request=GetCapabilities`)}</code></p>
          <a href="${reset.origin}/ows?service=WMS&amp;request=GetCapabilities">Second partner WMS</a>
          <p>${esc(`${reset.origin}/ows?service=WFS&request=GetCapabilities`)} and ${esc(`${reset.origin}/ows?service=WCS&request=GetCapabilities`)}</p>
          </body></html>`,
        '/fake/wms': '<!DOCTYPE html><html><head><title>WMS GetCapabilities</title></head><body>Service temporarily unavailable</body></html>',
        // The page's words say its .xml files are capabilities documents; the names do not.
        '/capabilities.html': `<html><head><title>服务能力文档</title></head><body><h1>Capabilities documents</h1>
          <ul><li><a href="/files/hydro-2024.xml">Hydrology, 2024 edition</a></li>
          <li><a href="/files/gauges.xml">河流测站要素服务</a></li>
          <li><a href="/files/sitemap.xml">Site map</a></li></ul></body></html>`,
        // No capabilities words on the page (the acronym alone is not enough): only the link that says so is probed.
        '/downloads.html': `<html><head><title>Downloads</title></head><body><p>Data for WMS clients.</p>
          <a href="/files/layers.xml">Layer list</a>
          <p>Tiles (WMTS): <a href="/files/tiles.xml">tiles.xml</a></p></body></html>`,
      },
      documents: {
        '/files/hydro-2024.xml': { query: 'SERVICE=WMS&REQUEST=GetCapabilities' },
        '/files/gauges.xml': { query: 'SERVICE=WFS&REQUEST=GetCapabilities' },
        '/files/tiles.xml': { text: WMTS_DOC },
        '/files/sitemap.xml': { text: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${o}/</loc></url></urlset>` },
        '/files/layers.xml': { text: '<?xml version="1.0"?><layers><layer>gauges</layer></layers>' },
      },
    };
  });
  try {
    const o = front.origin;
    const ms = `${o}/cgi-bin/mapserv`;
    const r = await crawlToEnd({
      seeds: [o + '/'], allowPrivate: true, detect: ['all'], maxDepth: 3, concurrency: 4, perHost: 2, retryBaseMs: 50,
    });
    assert.equal(r.summary.reason, 'exhausted');
    const by = (type: string, endpoint: string) => {
      const e = r.services.find((s) => s.type === type && s.endpoint === endpoint);
      assert.ok(e, `${type} ${endpoint} registered; have ${r.services.map((s) => `${s.type} ${s.endpoint}`).join(', ')}`);
      return e;
    };

    // Endpoints from text: every one registered, with the page it was printed on.
    const wms = by('WMS', ms);
    assert.deepEqual([wms.status, wms.title, wms.layers.map((l) => l.name)], ['valid', 'China hydrology test service', ['hydro', 'gauges', 'lakes']]);
    assert.deepEqual(wms.foundOn, [`${o}/endpoints.html`]);
    assert.deepEqual([by('WFS', ms).status, by('WFS', ms).layers.map((l) => l.name).sort()], ['valid', ['ms:gauges', 'ms:lakes']]);
    assert.equal(by('WCS', ms).status, 'valid', 'from an <input value>');
    const api = by('OGC API', `${ms}/hydro/ogcapi`);
    assert.equal(api.status, 'valid', 'from a JSON-escaped script string');
    assert.deepEqual(api.layers.map((l) => l.name), ['gauges', 'lakes']);
    const retired = by('WMS', `${ms}?map=${encodeURIComponent(MAPFILES + 'retired.map')}`);
    assert.equal(retired.status, 'exception', 'from a <textarea>');
    assert.match(by('WMS', `${ms}?map=${encodeURIComponent(MAPFILES + 'missing.map')}`).reason!, /HTML page/, 'from a data- attribute');
    assert.match(by('WMS', `${o}/fake/wms`).reason!, /^an HTML page, not a WMS/, 'from Chinese prose, the full stop left out');
    assert.ok(!front.hits.some((h) => h.startsWith('/text-only') || h.startsWith('/help/')), 'a URL in text that is no endpoint is not fetched');

    // .xml files: probed when the words say capabilities, registered as the type their root names.
    const doc = by('WMS', `${o}/files/hydro-2024.xml`);
    assert.deepEqual([doc.status, doc.version, doc.foundOn], ['valid', '1.3.0', [`${o}/capabilities.html`]]);
    const gauges = by('WFS', `${o}/files/gauges.xml`);
    assert.deepEqual([gauges.status, gauges.foundOn], ['valid', [`${o}/capabilities.html`]], 'probed as WMS, its root says WFS, its pages follow it');
    assert.ok(!r.services.some((s) => s.type === 'WMS' && s.endpoint === `${o}/files/gauges.xml`));
    const tiles = by('WMTS', `${o}/files/tiles.xml`);
    assert.deepEqual([tiles.status, tiles.foundOn], ['valid', [`${o}/downloads.html`]], 'the link\'s own words on a page that says nothing');
    for (const file of ['sitemap.xml', 'layers.xml']) {
      assert.ok(!r.services.some((s) => s.endpoint.endsWith(file)), `${file} is no candidate`);
      assert.equal(r.log.get(`${o}/files/${file}`)?.state, 'done', `${file} is followed as an ordinary link`);
    }

    // Dead partners: their probes end as "host unreachable", the endpoints invalid with that reason.
    for (const [origin, code] of [[refused, 'connection refused \\[ECONNREFUSED'], [reset.origin, 'connection reset by the server \\[ECONNRESET']] as const) {
      const probes = r.entries.filter((e) => e.url.startsWith(origin));
      assert.ok(probes.length >= 2, origin);
      for (const e of probes) {
        if (e.state === 'discarded') continue; // the partner's own pages: out of scope
        assert.equal(e.state, 'error', e.url);
        assert.match(e.error!, new RegExp(`^host unreachable: ${code}.*\\(2 failures in a row\\)$`), e.url);
        assert.equal(e.fetched_at, null, 'no request of its own');
      }
      const entries = r.services.filter((s) => s.endpoint.startsWith(origin));
      assert.ok(entries.length >= 2);
      for (const s of entries) assert.deepEqual([s.status, new RegExp(`^host unreachable: ${code}`).test(s.reason ?? '')], ['invalid', true], s.endpoint);
    }
    assert.equal(r.services.filter((s) => s.endpoint.startsWith(refused)).length, 2, 'a linked and a printed endpoint');
    assert.equal(r.services.filter((s) => s.endpoint.startsWith(reset.origin)).length, 3);
    assert.equal(r.log.get(`${refused}/about.html`)?.error, 'out of scope (host)');
    // Its three probes share one robots.txt check each time: three connections in all.
    assert.equal(reset.connections(), 2, 'two robots.txt attempts (maxRobotsFailures), then the host is left alone');

    // Each live endpoint asked once, and nothing else counted as a service.
    const asked = (q: RegExp) => front.hits.filter((h) => q.test(h)).length;
    assert.equal(asked(/^\/cgi-bin\/mapserv\?SERVICE=WMS&REQUEST=GetCapabilities$/), 1);
    assert.equal(asked(/^\/cgi-bin\/mapserv\?SERVICE=WFS&REQUEST=GetCapabilities$/), 1);
    assert.equal(asked(/^\/files\/gauges\.xml$/), 1);
    assert.deepEqual(
      [r.summary.stats.services.valid, r.summary.stats.services.exception, r.summary.stats.services.invalid],
      [7, 1, 7],
      JSON.stringify(r.services.map((s) => [s.type, s.endpoint, s.status])),
    );
  } finally {
    await front.close();
    await reset.close();
  }
});
