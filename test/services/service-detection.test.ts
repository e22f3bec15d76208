import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServiceTypes, ServiceDetection } from '../../src/services/service-detection.js';

const all = new ServiceDetection();

test('SERVICE and REQUEST decide the type, case-insensitively, and the link is probed instead of followed', () => {
  const c = all.candidate('http://geo.example.org/cgi-bin/mapserv?map=/maps/hydro.map&service=wms&VERSION=1.3.0&request=GetMap&LAYERS=lakes&BBOX=1,2,3,4');
  assert.deepEqual(c, {
    type: 'WMS',
    endpoint: 'http://geo.example.org/cgi-bin/mapserv?map=%2Fmaps%2Fhydro.map',
    probeUrl: 'http://geo.example.org/cgi-bin/mapserv?map=%2Fmaps%2Fhydro.map&SERVICE=WMS&REQUEST=GetCapabilities',
    request: true,
  });
  assert.equal(all.candidate('http://x.org/ows?REQUEST=GetFeature&typeName=a')?.type, 'WFS');
  assert.equal(all.candidate('http://x.org/ows?request=getcoverage&coverage=dem')?.type, 'WCS');
  assert.equal(all.candidate('http://x.org/service?Service=WMTS&Request=GetTile')?.type, 'WMTS');
  assert.equal(all.candidate('http://x.org/catalog?service=CSW&request=GetRecords')?.type, 'CSW');
  assert.equal(all.candidate('http://x.org/sos?service=SOS&request=GetCapabilities'), null, 'a service type no detector knows');
});

test('GetCapabilities without SERVICE follows the path, else WMS; the same endpoint is recognised in any parameter order', () => {
  assert.equal(all.candidate('http://x.org/geoserver/wfs?request=GetCapabilities')?.type, 'WFS');
  assert.equal(all.candidate('http://x.org/maps?request=GetCapabilities')?.type, 'WMS');
  const a = all.candidate('http://x.org/m?map=a.map&SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.1.1');
  const b = all.candidate('http://x.org/m?REQUEST=GetMap&map=a.map&service=WMS');
  assert.equal(a?.endpoint, b?.endpoint);
  assert.equal(a?.probeUrl, b?.probeUrl);
});

test('path hints make candidates that are still followed as pages; ordinary links are not candidates', () => {
  const geo = all.candidate('http://x.org/geoserver/web/');
  assert.equal(geo?.type, 'WMS');
  assert.equal(geo?.request, false);
  assert.equal(all.candidate('http://x.org/arcgis/services/Hydro/MapServer/WMSServer')?.type, 'WMS');
  assert.equal(all.candidate('http://x.org/geoserver/topp/wfs')?.type, 'WFS');
  assert.equal(all.candidate('http://x.org/news/wms-day-2024.html'), null, 'a word inside a segment is no hint');
  assert.equal(all.candidate('http://x.org/about/team.html'), null);
  assert.equal(all.candidate('http://x.org/museum/collections/paintings'), null, 'collections alone is too common to mean OGC API');
});

test('static capabilities documents and OGC API paths', () => {
  const doc = all.candidate('http://x.org/tiles/1.0.0/WMTSCapabilities.xml');
  assert.deepEqual([doc?.type, doc?.probeUrl, doc?.request], ['WMTS', 'http://x.org/tiles/1.0.0/WMTSCapabilities.xml', true]);
  const api = all.candidate('http://x.org/mapserv/hydro/ogcapi/collections/lakes/items?f=html');
  assert.deepEqual([api?.type, api?.endpoint, api?.probeUrl], ['OGC API', 'http://x.org/mapserv/hydro/ogcapi', 'http://x.org/mapserv/hydro/ogcapi?f=json']);
  assert.equal(all.candidate('http://x.org/pygeoapi/collections/obs?f=json')?.endpoint, 'http://x.org/pygeoapi');
});

test('only enabled types are candidates, and type lists are checked', () => {
  const wmsOnly = new ServiceDetection(['WMS']);
  assert.equal(wmsOnly.candidate('http://x.org/ows?service=WFS&request=GetCapabilities'), null);
  assert.equal(wmsOnly.candidate('http://x.org/ows?service=WMS&request=GetCapabilities')?.type, 'WMS');
  assert.deepEqual(parseServiceTypes(['wms', 'ogcapi']), ['WMS', 'OGC API']);
  assert.equal(parseServiceTypes(['all']).length, 6);
  assert.throws(() => parseServiceTypes(['wsm']), /unknown service type 'wsm'/);
});
