import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DETECTORS, ServiceDetection } from '../../src/services/service-detection.js';
import { MAX_DOCUMENT_CRS, MAX_LAYER_CRS, MAX_LAYERS } from '../../src/services/wms-detector.js';
import { formatServices } from '../../src/services/service-export.js';
import { parseHtml } from '../../src/parse/html-page.js';
import { boundedFindings, emptyFindings, type ServiceType } from '../../src/services/service-record.js';

/**
 * Capabilities answers a hostile or broken server sends (a probe of service detection found each):
 * every one is judged, none hangs the crawl, none throws.
 */
const answer = (body: string, status = 200) => ({ url: 'http://127.0.0.1/ows', status, contentType: 'text/xml', body: new TextEncoder().encode(body) });
const inspect = (type: ServiceType, body: string, step?: string) => DETECTORS[type].inspect(answer(body), step);
const wms = (layers: string) =>
  `<WMS_Capabilities version="1.3.0"><Service><Name>WMS</Name><Title>T</Title></Service><Capability><Request/>${layers}</Capability></WMS_Capabilities>`;

// Each of these took minutes or hours with the regular expressions they replaced; the timeout only
// keeps a regression from holding the suite.
test('comments or processing instructions before the root element are skipped in linear time', { timeout: 60_000 }, () => {
  const doc = '<?xml version="1.0"?>\n' + '<!--c-->\n'.repeat(10_000) + wms('<Layer><Name>a</Name></Layer>');
  assert.equal(inspect('WMS', doc).findings.status, 'valid');
  const html = '<!--c-->'.repeat(10_000) + '<html><body>not xml</body></html>';
  assert.match(inspect('WMS', html).findings.reason ?? '', /an HTML page/);
  const detection = new ServiceDetection(['WMS', 'WFS']);
  const pis = '<?a?>'.repeat(10_000) + '!';
  const v = detection.inspect({ type: 'WMS', endpoint: 'http://127.0.0.1/caps.xml', document: true }, answer(pis));
  assert.equal(v.findings.status, 'invalid');
  const wfs = '<?a?>'.repeat(100) + '<!DOCTYPE x [<!ELEMENT x ANY>]><wfs:WFS_Capabilities xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:ows="http://www.opengis.net/ows/1.1" version="2.0.0"><ows:ServiceIdentification><ows:Title>W</ows:Title></ows:ServiceIdentification><FeatureTypeList/></wfs:WFS_Capabilities>';
  assert.equal(detection.inspect({ type: 'WMS', endpoint: 'http://127.0.0.1/caps.xml', document: true }, answer(wfs)).type, 'WFS', 'the root is still found past them');
});

test('URLs in text followed by 200,000 dots or parentheses are trimmed in linear time', { timeout: 60_000 }, () => {
  for (const tail of ['.'.repeat(200_000) + 'a', ')'.repeat(200_000)]) {
    const p = parseHtml(`<code>http://127.0.0.1/wms?SERVICE=WMS&${tail}</code> see http://127.0.0.1/x).`, 'http://127.0.0.1/', 'UTF-8', { serviceText: true });
    assert.ok(p.serviceText!.urls.some((u) => u.url === 'http://127.0.0.1/x'), 'prose punctuation is still trimmed');
  }
});

test('a parent layer listing thousands of CRS codes does not copy them all into every child', () => {
  const codes = Array.from({ length: 20_000 }, (_x, i) => `EPSG:${i}`).join(' ');
  const children = Array.from({ length: 50 }, (_x, i) => `<Layer><Name>c${i}</Name><CRS>EPSG:900${i}</CRS></Layer>`).join('');
  const f = inspect('WMS', wms(`<Layer><Title>root</Title><CRS>${codes}</CRS>${children}</Layer>`)).findings;
  assert.equal(f.layers.length, 50);
  for (const [i, l] of f.layers.entries()) {
    assert.equal(l.crs.length, MAX_LAYER_CRS);
    assert.equal(l.crs[0], 'EPSG:0', 'inherited codes first, in order');
    assert.equal(l.crs[l.crs.length - 1], `EPSG:900${i}`, 'the layer keeps its own');
  }
});

test("past the inherited codes' budget every layer still keeps its own (GeoServer: 5,000 root codes, 1,000 layers)", () => {
  const codes = Array.from({ length: 5_000 }, (_x, i) => `EPSG:${i}`).join(' ');
  const children = Array.from({ length: 1_000 }, (_x, i) => `<Layer><Name>l${i}</Name><CRS>EPSG:4490</CRS><CRS>CRS:84</CRS></Layer>`).join('');
  const f = inspect('WMS', wms(`<Layer><Title>root</Title><CRS>${codes}</CRS>${children}</Layer>`)).findings;
  assert.equal(f.layers.length, 1_000);
  assert.equal(f.layers[0]!.crs.length, MAX_LAYER_CRS, 'the first layers inherit as many as fit');
  for (const l of f.layers) assert.ok(l.crs.includes('EPSG:4490') && l.crs.includes('CRS:84'), `${l.name}: ${l.crs.length} codes, its own among them`);
  assert.deepEqual(f.layers.at(-1)!.crs, ['EPSG:4490', 'CRS:84'], 'the last ones, past the budget, keep only their own');
});

test('a document of 200,000 layers under a root of 256 codes (15 KB gzipped) keeps MAX_LAYERS layers and MAX_DOCUMENT_CRS codes of each kind', () => {
  const codes = Array.from({ length: 256 }, (_x, i) => `EPSG:${i}`).join(' ');
  const children = '<Layer><Name>n</Name></Layer>'.repeat(200_000);
  const f = inspect('WMS', wms(`<Layer><Title>root</Title><CRS>${codes}</CRS>${children}</Layer>`)).findings;
  assert.equal(f.status, 'valid');
  assert.equal(f.layers.length, MAX_LAYERS);
  const total = f.layers.reduce((n, l) => n + l.crs.length, 0);
  assert.ok(total <= 2 * MAX_DOCUMENT_CRS, `${total} codes (own and inherited ones have a budget each)`);
  assert.equal(f.layers[0]!.crs.length, MAX_LAYER_CRS, 'the first layers keep their inherited codes');
  assert.ok(JSON.stringify(f).length < 10_000_000, 'storable as one JSON value');
});

test('OGC API JSON with nulls, numbers and impossible extents is judged, not thrown on', () => {
  const json = (v: unknown) => JSON.stringify(v);
  const landing = inspect('OGC API', json({ links: [null, 5, { rel: 'conformance', href: 'http://127.0.0.1/ogcapi/conformance' }] }));
  assert.equal(landing.findings.status, 'valid');
  assert.deepEqual(landing.followUps?.map((f) => f.step), ['conformance']);
  assert.equal(inspect('OGC API', 'null', 'conformance').findings.status, 'invalid');
  const cols = inspect('OGC API', json({ links: [null, 5], collections: [null, { id: 'inf', extent: { spatial: { bbox: [[-200, -100, 200, 100]] } } }] }), 'collections');
  assert.deepEqual(cols.findings.layers.map((l) => [l.name, l.wgs84]), [['inf', null]]);
  const huge = inspect('OGC API', '{"collections":[{"id":"big","extent":{"spatial":{"bbox":[[1e999,-90,180,90]]}}}]}', 'collections');
  assert.deepEqual(huge.findings.layers.map((l) => [l.name, l.wgs84, l.boxes]), [['big', null, []]]);
});

test('an exception report with a 3 MB code gives a short reason', () => {
  const v = DETECTORS.WMS.inspect(answer(`<ServiceExceptionReport><ServiceException code="${'C'.repeat(3_000_000)}">bad</ServiceException></ServiceExceptionReport>`, 400));
  assert.equal(v.findings.status, 'exception');
  assert.ok((v.findings.reason ?? '').length < 500, String(v.findings.reason?.length));
});

test('CSV output drops control characters: a title cannot drive the terminal', () => {
  const entry = { ...emptyFindings('valid', null), endpoint: 'http://127.0.0.1/wms', type: 'WMS' as const, title: 'Evil \x1b]0;PWNED\x07\x1b[2J title', probedUrl: 'http://127.0.0.1/wms?x', checkedAt: '2026-01-01', foundOn: [] };
  const csv = [...formatServices([entry], 'csv')].join('');
  assert.ok(!/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(csv), JSON.stringify(csv));
  assert.ok(csv.includes('Evil ]0;PWNED[2J title'));
});

test('an element with 1.5 million attributes is refused while it is read', () => {
  const attrs = Array.from({ length: 1_500_000 }, (_x, i) => `a${i}=""`).join(' ');
  const v = inspect('WMS', `<WMS_Capabilities ${attrs} version="1.3.0"><Service/><Capability/></WMS_Capabilities>`);
  assert.equal(v.findings.status, 'invalid');
  assert.match(v.findings.reason ?? '', /more than 1000 attributes/);
});

test('a registry entry holds at most a bounded title, abstract and keywords', () => {
  const f = boundedFindings({ ...emptyFindings('valid', null), title: 't'.repeat(5000), abstract: 'a'.repeat(19_000_000), keywords: Array.from({ length: 5000 }, () => 'k'.repeat(300)) });
  assert.equal(f.title!.length, 1001);
  assert.equal(f.abstract!.length, 20_001);
  assert.equal(f.keywords.length, 1000);
  assert.ok(f.keywords.every((k) => k.length === 201));
  const plain = { ...emptyFindings('valid', null), title: 'Rivers', keywords: ['hydro'] };
  assert.deepEqual(boundedFindings(plain), plain);
});

test('a WGS 84 extent off the Earth is dropped; one across the antimeridian is two polygons in GeoJSON', () => {
  const wms = (ex: string) => `<WMS_Capabilities version="1.3.0"><Service><Name>WMS</Name><Title>t</Title></Service><Capability><Request/><Layer><Name>a</Name><Title>a</Title>${ex}</Layer></Capability></WMS_Capabilities>`;
  const extent = (w: number, s: number, e: number, n: number) => DETECTORS.WMS.inspect(answer(wms(`<EX_GeographicBoundingBox><westBoundLongitude>${w}</westBoundLongitude><southBoundLatitude>${s}</southBoundLatitude><eastBoundLongitude>${e}</eastBoundLongitude><northBoundLatitude>${n}</northBoundLatitude></EX_GeographicBoundingBox>`))).findings.layers[0]!.wgs84;
  assert.equal(extent(-500, -95, 500, 300), null, 'off the Earth');
  assert.equal(extent(10, 50, 5, 40), null, 'south above north');
  assert.deepEqual(extent(5, 40, 10, 50), [5, 40, 10, 50]);
  const across = extent(170, -20, -170, -10);
  assert.deepEqual(across, [170, -20, -170, -10], 'west above east: across the antimeridian');
  const entry = { ...emptyFindings('valid', null), endpoint: 'http://x.org/ows', type: 'WMS' as const, layers: [{ name: 'a', title: 'a', crs: [], wgs84: across, boxes: [] }], probedUrl: 'http://x.org/ows?x', checkedAt: '2026-01-01', foundOn: [] };
  const geo = JSON.parse([...formatServices([entry], 'geojson')].join('')) as { features: { geometry: { type: string; coordinates: number[][][][] } }[] };
  assert.equal(geo.features[0]!.geometry.type, 'MultiPolygon');
  assert.deepEqual(geo.features[0]!.geometry.coordinates.map((p) => [p[0]![0]![0], p[0]![1]![0]]), [[170, 180], [-180, -170]]);
});
