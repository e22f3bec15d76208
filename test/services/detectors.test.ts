import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DETECTORS } from '../../src/services/service-detection.js';
import type { ServiceType } from '../../src/services/service-record.js';
import { parseXml, XmlError } from '../../src/services/xml-tree.js';

const FIXTURES = new URL('../../../test/fixtures/services/', import.meta.url);
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(name, FIXTURES)));
const inspect = (type: ServiceType, body: Uint8Array | string, opts: { status?: number; step?: string } = {}) =>
  DETECTORS[type].inspect(
    { url: 'http://x.org/ows', status: opts.status ?? 200, contentType: 'text/xml', body: typeof body === 'string' ? new TextEncoder().encode(body) : body },
    opts.step,
  );

test('WMS 1.3.0 (GeoServer): metadata, named layers only, CRS inherited and bounding boxes', () => {
  const { findings: f } = inspect('WMS', fixture('wms-130-geoserver.xml'));
  assert.equal(f.status, 'valid');
  assert.deepEqual([f.version, f.title, f.provider], ['1.3.0', 'GeoServer Web Map Service', 'The Ancient Geographers']);
  assert.deepEqual(f.keywords, ['WFS', 'WMS', 'GEOSERVER']);
  assert.deepEqual(f.layers.map((l) => l.name), ['topp:states', 'nurc:mosaic']);
  const states = f.layers[0]!;
  assert.deepEqual(states.crs, ['EPSG:4326', 'CRS:84', 'EPSG:3857']);
  assert.deepEqual(states.wgs84, [-124.73, 24.96, -66.97, 49.37]);
  assert.deepEqual(states.boxes, [{ crs: 'EPSG:3857', bbox: [-13885038, 2870337, -7455049, 6338174] }]);
  assert.deepEqual(f.layers[1]!.wgs84, [-180, -90, 180, 90], 'a layer without its own extent inherits its parent\'s');
});

test('WMS 1.1.1 (ArcGIS style, with a DOCTYPE): SRS and LatLonBoundingBox', () => {
  const { findings: f } = inspect('WMS', fixture('wms-111-esri.xml'));
  assert.equal(f.status, 'valid');
  assert.deepEqual([f.version, f.title, f.provider, f.abstract], ['1.1.1', 'Hydrography', 'National Water Agency', null]);
  assert.deepEqual(f.layers.map((l) => [l.name, l.title, l.crs, l.wgs84]), [
    ['0', 'Rivers', ['EPSG:4269', 'EPSG:4326'], [-179.2, 17.6, -65, 71.4]],
    ['1', 'Lakes & reservoirs', ['EPSG:4269'], [-124, 25, -67, 49]],
  ]);
});

test('WMTS, WFS 1.0.0 and 2.0.0, WCS 1.0.0 and 2.0.1, CSW', () => {
  const wmts = inspect('WMTS', fixture('wmts-100.xml')).findings;
  assert.deepEqual([wmts.status, wmts.title, wmts.provider, wmts.versions], ['valid', '天地图 tiles', 'Tile provider', ['1.0.0']]);
  assert.deepEqual(wmts.layers, [{ name: 'vec', title: 'Vector base map', crs: ['urn:ogc:def:crs:EPSG::4490', 'urn:ogc:def:crs:EPSG::3857'], wgs84: [73.5, 3.8, 135.1, 53.6], boxes: [] }]);

  const wfs1 = inspect('WFS', fixture('wfs-100.xml')).findings;
  assert.deepEqual([wfs1.status, wfs1.version, wfs1.title, wfs1.keywords], ['valid', '1.0.0', 'Cadastre de Québec', ['cadastre', 'parcelles']]);
  assert.deepEqual(wfs1.layers.map((l) => [l.name, l.crs, l.wgs84]), [['parcels', ['EPSG:32198'], [-79.8, 45, -57.1, 62.6]]]);
  const wfs2 = inspect('WFS', fixture('wfs-200.xml')).findings;
  assert.deepEqual([wfs2.status, wfs2.versions, wfs2.provider], ['valid', ['2.0.0', '1.1.0'], 'City survey']);
  assert.deepEqual(wfs2.layers[0]!.crs, ['urn:ogc:def:crs:EPSG::25832', 'urn:ogc:def:crs:EPSG::4326']);

  const wcs1 = inspect('WCS', fixture('wcs-100.xml')).findings;
  assert.deepEqual([wcs1.status, wcs1.title, wcs1.keywords, wcs1.layers[0]!.wgs84], ['valid', 'Elevation', ['DEM', 'elevation'], [100, 20, 125, 40]]);
  const wcs2 = inspect('WCS', fixture('wcs-201.xml')).findings;
  assert.deepEqual([wcs2.status, wcs2.version, wcs2.layers[0]!.name], ['valid', '2.0.1', 'mean_summer_airtemp']);

  const csw = inspect('CSW', fixture('csw-202.xml')).findings;
  assert.deepEqual([csw.status, csw.title, csw.versions, csw.layers], ['valid', 'pycsw Geospatial Catalogue', ['2.0.2', '3.0.0'], []]);
});

test('a document of another service type is invalid for the detector that asked', () => {
  assert.match(inspect('WMS', fixture('wfs-200.xml')).findings.reason!, /root element <WFS_Capabilities> is not a WMS capabilities document/);
  assert.match(inspect('WMTS', fixture('csw-202.xml')).findings.reason!, /not WMTS/);
  assert.match(inspect('CSW', fixture('wmts-100.xml')).findings.reason!, /not CSW/);
  assert.match(inspect('WMS', '<WMS_Capabilities version="1.3.0"><Service/></WMS_Capabilities>').findings.reason!, /without a Capability element/);
});

test('OGC API: a landing page asks for its conformance declaration and its collections, which become layers', () => {
  const landing = inspect('OGC API', fixture('ogcapi-landing.json'));
  assert.equal(landing.findings.status, 'valid');
  assert.equal(landing.findings.title, 'Hydrology OGC API');
  assert.deepEqual(landing.followUps, [
    { url: 'http://api.example.org/ogcapi/conformance?f=json', step: 'conformance' },
    { url: 'http://api.example.org/ogcapi/collections?f=json', step: 'collections' },
  ]);
  const conf = inspect('OGC API', fixture('ogcapi-conformance.json'), { step: 'conformance' });
  assert.ok(conf.findings.conformance.some((c) => c.includes('ogcapi-features-1')));
  const cols = inspect('OGC API', fixture('ogcapi-collections.json'), { step: 'collections' });
  assert.equal(cols.findings.status, 'valid');
  assert.deepEqual(cols.findings.layers, [
    { name: 'rivers', title: 'Rivers of Hubei', crs: ['http://www.opengis.net/def/crs/OGC/1.3/CRS84', 'http://www.opengis.net/def/crs/EPSG/0/4326'],
      wgs84: [108.3, 29.0, 116.1, 33.3], boxes: [] },
    { name: 'dem', title: 'dem', crs: [], wgs84: [108.3, 29.0, 116.1, 33.3], boxes: [] },
    { name: 'grid', title: 'Web Mercator grid', crs: [], wgs84: null,
      boxes: [{ crs: 'http://www.opengis.net/def/crs/EPSG/0/3857', bbox: [12056000, 3380000, 12924000, 3935000] }] },
  ]);
  assert.match(inspect('OGC API', '{"links":[]}', { step: 'collections' }).findings.reason!, /without a collections list/);
  const html = '{"links":[{"rel":"conformance","href":"/c","type":"text/html"},{"rel":"conformance","href":"/c?f=json","type":"application/json"}],"conformsTo":["http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core"]}';
  assert.deepEqual(inspect('OGC API', html).followUps, [], 'inline conformsTo and no data link: nothing to follow');
  assert.match(inspect('OGC API', '{"links":[{"rel":"self","href":"x"}]}').findings.reason!, /without a conformance link/);
  assert.match(inspect('OGC API', '{"title": ').findings.reason!, /not JSON/);
  assert.match(inspect('OGC API', fixture('html-pretender.xml')).findings.reason!, /markup/);
});

test('exception reports are abnormal services with their code and text', () => {
  const wms = inspect('WMS', fixture('wms-exception-111.xml')).findings;
  assert.equal(wms.status, 'exception');
  assert.equal(wms.reason, 'ServiceExceptionReport InvalidFormat: msLoadMap(): Unable to access file. (/maps/missing.map)');
  const ows = inspect('WFS', fixture('ows-exception.xml'), { status: 400 }).findings;
  assert.deepEqual([ows.status, ows.reason], ['exception', 'ExceptionReport OperationNotSupported: Service is disabled']);
});

test('HTML pretending to be a service, non-XML, empty answers and HTTP errors are invalid with the reason', () => {
  assert.match(inspect('WMS', fixture('html-pretender.xml')).findings.reason!, /an HTML page, not a WMS capabilities document/);
  assert.match(inspect('WMS', 'SERVICE=WMS is offline').findings.reason!, /not a usable XML document/);
  assert.equal(inspect('WMS', '').findings.reason, 'empty response');
  assert.equal(inspect('WMS', '', { status: 404 }).findings.reason, 'HTTP 404');
  assert.equal(inspect('WMS', '<html><body>Not found</body></html>', { status: 404 }).findings.reason, 'an HTML page (HTTP 404), not a WMS capabilities document');
});

test('XXE and entity bombs are never expanded: the document is rejected', () => {
  const xxe = inspect('WMS', fixture('xxe-file.xml')).findings;
  assert.equal(xxe.status, 'invalid');
  assert.match(xxe.reason!, /undefined entity.*never expanded/);
  assert.doesNotMatch(JSON.stringify(xxe), /root:/);
  const bomb = inspect('WMS', fixture('billion-laughs.xml')).findings;
  assert.equal(bomb.status, 'invalid');
  assert.match(bomb.reason!, /undefined entity/);
});

test('size, nesting depth and element count are limited', () => {
  const limits = { maxChars: 1000, maxDepth: 8, maxElements: 50 };
  assert.throws(() => parseXml('<a>' + 'x'.repeat(2000) + '</a>', limits), (e: Error) => e instanceof XmlError && /2007 characters exceeds the limit of 1000/.test(e.message));
  assert.throws(() => parseXml('<a>'.repeat(9) + '</a>'.repeat(9), limits), /nested deeper than 8/);
  assert.throws(() => parseXml('<a>' + '<b/>'.repeat(60) + '</a>', limits), /more than 50 elements/);
  const deep = '<a>'.repeat(100_000) + '</a>'.repeat(100_000);
  assert.match(inspect('WMS', deep).findings.reason!, /nested deeper than 64/);
});
