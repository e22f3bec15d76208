import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCrawl } from '../../src/crawl.js';
import { HttpFetcher } from '../../src/fetch/http-fetcher.js';
import { ServiceDetection } from '../../src/services/service-detection.js';
import { MAPFILES, MAPSERV, startMapServerFront } from '../helpers/mapserver-front.js';

// .ci/run installs cgi-mapserver, so in CI a missing MapServer fails; elsewhere it skips, saying why.
if (!MAPSERV && process.env.CI) throw new Error('MapServer is not installed: .ci/run installs cgi-mapserver');
const skip = MAPSERV ? false : 'MapServer not installed (apt-get install cgi-mapserver)';

const PORTAL = {
  '/': `<html><head><title>Hydrology data portal</title></head><body>
    <a href="/data.html">Data services</a>
    <a href="/cgi-bin/mapserv?SERVICE=WMS&amp;REQUEST=GetCapabilities&amp;VERSION=1.1.1">WMS 1.1.1</a>
    <a href="/cgi-bin/mapserv?service=WFS&amp;request=GetCapabilities">WFS</a>
    <a href="/cgi-bin/mapserv?service=WCS&amp;request=GetCapabilities">WCS</a>
    <a href="/fake/wms?SERVICE=WMS&amp;REQUEST=GetCapabilities">Our other WMS</a>
    <a href="/cgi-bin/mapserv?map=${MAPFILES}missing.map&amp;SERVICE=WMS&amp;REQUEST=GetCapabilities">Old WMS</a>
    <a href="/cgi-bin/mapserv?map=${MAPFILES}retired.map&amp;SERVICE=WMS&amp;REQUEST=GetCapabilities">Retired WMS</a>
  </body></html>`,
  '/data.html': `<html><head><title>Data</title></head><body>
    <a href="/cgi-bin/mapserv?service=wms&amp;version=1.3.0&amp;request=GetMap&amp;layers=lakes&amp;crs=EPSG:4326&amp;bbox=20,100,40,125&amp;width=200&amp;height=100&amp;format=image/png">Lakes map</a>
    <a href="/cgi-bin/mapserv/hydro/ogcapi/collections/lakes/items?f=html">Lakes (OGC API)</a>
  </body></html>`,
  '/fake/wms': `<!DOCTYPE html><html><head><title>WMS GetCapabilities</title></head><body>Service temporarily unavailable</body></html>`,
};

test('a crawl finds, probes and registers the services of a real MapServer', { skip }, async () => {
  const front = await startMapServerFront(PORTAL);
  const db = join(mkdtempSync(join(tmpdir(), 'fc-ms-')), 'ms.db');
  try {
    const crawl = await startCrawl({ seeds: [front.origin + '/'], db, delayMs: 0, maxDepth: 3, detect: ['all'] });
    const summary = await crawl.run();
    const entries = await crawl.services.entries();
    await crawl.close();
    const by = (type: string, endpoint = `${front.origin}/cgi-bin/mapserv`) => entries.find((e) => e.type === type && e.endpoint === endpoint);

    const wms = by('WMS')!;
    assert.equal(wms.status, 'valid');
    assert.equal(wms.version, '1.3.0', 'the probe asks without VERSION, so MapServer answers its highest');
    assert.equal(wms.title, 'China hydrology test service');
    assert.deepEqual(wms.keywords, ['hydrology', 'rivers', 'lakes']);
    assert.equal(wms.provider, 'focuscrawl test fixtures');
    assert.deepEqual(wms.layers.map((l) => l.name), ['hydro', 'gauges', 'lakes']);
    const lakes = wms.layers.find((l) => l.name === 'lakes')!;
    assert.deepEqual(lakes.wgs84, [112.2, 28.8, 116.6, 29.5]);
    assert.deepEqual(lakes.crs, ['EPSG:4326', 'EPSG:3857']);
    assert.deepEqual(wms.foundOn, [`${front.origin}/`, `${front.origin}/data.html`], 'the GetMap link on the data page is the same endpoint');

    const wfs = by('WFS')!;
    assert.equal(wfs.status, 'valid');
    assert.equal(wfs.version, '2.0.0');
    assert.deepEqual(wfs.layers.map((l) => l.name).sort(), ['ms:gauges', 'ms:lakes']);

    const wcs = by('WCS')!;
    assert.deepEqual([wcs.status, wcs.version, wcs.layers], ['valid', '2.0.1', []], 'WCS 2.0.1 with no raster layer to offer');

    const retired = by('WMS', `${front.origin}/cgi-bin/mapserv?map=${encodeURIComponent(MAPFILES + 'retired.map')}`)!;
    assert.equal(retired.status, 'exception');
    assert.match(retired.reason!, /^ServiceExceptionReport: msWMSGetCapabilities\(\): WMS server error. WMS request not enabled/);

    const api = by('OGC API', `${front.origin}/cgi-bin/mapserv/hydro/ogcapi`)!;
    assert.equal(api.status, 'valid');
    assert.ok(api.conformance.some((c) => c.includes('ogcapi-features-1')), `conformance from the follow-up: ${api.conformance}`);
    assert.deepEqual(
      api.layers.map((l) => [l.name, l.title, l.wgs84]),
      [['gauges', 'River gauges', [108.9, 23.1, 112.5, 34.3]], ['lakes', 'Lakes', [112.2, 28.8, 116.6, 29.5]]],
      'layers from the collections follow-up',
    );

    assert.match(by('WMS', `${front.origin}/fake/wms`)!.reason!, /an HTML page, not a WMS capabilities document/);
    const missing = by('WMS', `${front.origin}/cgi-bin/mapserv?map=${encodeURIComponent(MAPFILES + 'missing.map')}`)!;
    assert.equal(missing.status, 'invalid', 'MapServer answers an unknown map with an HTML message page');
    assert.match(missing.reason!, /HTML page/);

    // Probes are one request per endpoint and type; the GetMap link was never requested as a page.
    const wmsProbes = front.hits.filter((h) => h.startsWith('/cgi-bin/mapserv?') && /service=wms/i.test(h) && !h.includes('map='));
    assert.equal(wmsProbes.length, 1, wmsProbes.join('\n'));
    assert.ok(!front.hits.some((h) => /request=GetMap/i.test(h)));
    assert.equal(summary.stats.services.valid, 4);
    assert.equal(summary.stats.services.exception, 1);
    assert.equal(summary.stats.services.invalid, 2);
  } finally {
    await front.close();
  }
});

test('WMS 1.1.1 from the real MapServer parses with SRS and LatLonBoundingBox', { skip }, async () => {
  const front = await startMapServerFront({});
  const fetcher = new HttpFetcher({ connectionsPerOrigin: 1 });
  try {
    const url = `${front.origin}/cgi-bin/mapserv?SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.1.1`;
    const res = await fetcher.fetch(url, { anyContentType: true });
    const { findings } = new ServiceDetection().inspect({ type: 'WMS', endpoint: url }, { url, status: res.status, contentType: res.contentType, body: res.body });
    assert.equal(findings.status, 'valid');
    assert.equal(findings.version, '1.1.1');
    assert.deepEqual(findings.layers.find((l) => l.name === 'gauges')?.wgs84, [108.9, 23.1, 112.5, 34.3]);
  } finally {
    await fetcher.close();
    await front.close();
  }
});
