import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pageSaysCapabilities, parseServiceTypes, ServiceDetection } from '../../src/services/service-detection.js';

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

test("the endpoint keeps a query piece that is no UTF-8 (a GBK file name) or has no value byte for byte; other pieces in one spelling", () => {
  const cases: [string, string][] = [
    ['http://x.org/cgi-bin/mapserv?map=%D6%D0%B9%FA.map&SERVICE=WMS&REQUEST=GetCapabilities', 'http://x.org/cgi-bin/mapserv?map=%D6%D0%B9%FA.map'],
    ['http://x.org/wms?token&SERVICE=WMS&REQUEST=GetMap', 'http://x.org/wms?token'],
    ['http://x.org/wms?%53ERVICE=WMS&request=GetCapabilities&map=/a.map', 'http://x.org/wms?map=%2Fa.map'],
    ['http://x.org/wms?map=%2Fa.map&SERVICE=WMS&REQUEST=GetCapabilities', 'http://x.org/wms?map=%2Fa.map'],
    ['http://x.org/wms?q=a%20b&SERVICE=WMS&REQUEST=GetCapabilities', 'http://x.org/wms?q=a+b'],
    ['http://x.org/wms?&SERVICE=WMS&&REQUEST=GetCapabilities&', 'http://x.org/wms'],
  ];
  for (const [link, endpoint] of cases) assert.equal(all.candidate(link)?.endpoint, endpoint, link);
});

test('an `id` names the service unless the request is CSW GetRecordById, whose record it names', () => {
  assert.equal(all.candidate('http://x.org/wms.php?id=12&SERVICE=WMS&REQUEST=GetMap&LAYERS=a')?.endpoint, 'http://x.org/wms.php?id=12');
  assert.notEqual(all.candidate('http://x.org/wms.php?id=12&SERVICE=WMS&REQUEST=GetCapabilities')?.endpoint, all.candidate('http://x.org/wms.php?id=13&SERVICE=WMS&REQUEST=GetCapabilities')?.endpoint);
  assert.equal(all.candidate('http://x.org/csw?service=CSW&request=GetRecordById&id=abc-1&elementSetName=full')?.endpoint, 'http://x.org/csw');
  // A request named like an object's own members is a request like any other.
  for (const r of ['constructor', '__proto__', 'toString']) assert.equal(all.candidate(`http://x.org/wms?map=a.map&service=WMS&request=${r}`)?.endpoint, 'http://x.org/wms?map=a.map', r);
});

test('credentials a page wrote into a service link are neither probed with nor registered', () => {
  const never = () => false;
  const kvp = all.candidate('http://demo:s3cret@x.org/wms?service=WMS&request=GetCapabilities');
  assert.equal(kvp?.endpoint, 'http://x.org/wms');
  assert.equal(kvp?.probeUrl, 'http://x.org/wms?SERVICE=WMS&REQUEST=GetCapabilities');
  assert.equal(all.candidate('http://demo:s3cret@x.org/ogcapi/collections?f=json')?.endpoint.includes('s3cret'), false, 'OGC API');
  assert.equal(all.documentCandidate('http://demo@x.org/caps/wms.xml', 'GetCapabilities', never)?.endpoint, 'http://x.org/caps/wms.xml');
  assert.equal(kvp?.endpoint, all.candidate('http://x.org/wms?request=GetMap&service=WMS')?.endpoint, 'the same service with or without them');
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

test('.xml files: candidates when the link\'s words or the page\'s say capabilities; the label comes from the URL alone', () => {
  const never = () => assert.fail('the page is asked only when the link says nothing');
  const doc = all.documentCandidate('http://x.org/files/hydro-2024.xml#top', 'Hydrology GetCapabilities', never);
  assert.deepEqual(doc, { type: 'WMS', endpoint: 'http://x.org/files/hydro-2024.xml', probeUrl: 'http://x.org/files/hydro-2024.xml', request: true, document: true });
  assert.equal(all.documentCandidate('http://x.org/t/tiles.xml', 'Tiles (WMTS): tiles.xml', never)?.type, 'WMS', 'an acronym next to the link makes it a candidate, not its type');
  assert.equal(all.documentCandidate('http://x.org/t/my_wfs_doc.xml', '服务能力文档', never)?.type, 'WFS', 'a type in the file name');
  assert.equal(all.documentCandidate('http://x.org/a/b.xml?v=2', 'service metadata', never)?.endpoint, 'http://x.org/a/b.xml?v=2');
  assert.ok(all.documentCandidate('http://x.org/a/b.xml', 'download', () => true), 'the page says so');
  assert.equal(all.documentCandidate('http://x.org/a/b.xml', 'download', () => false), null);
  assert.equal(all.documentCandidate('http://x.org/sitemap-1.xml', 'WMS capabilities', () => true), null, 'a sitemap never');
  assert.equal(all.documentCandidate('http://x.org/feed.xml', 'WMS news', () => true), null);
  assert.equal(all.documentCandidate('http://x.org/a/b.json', 'GetCapabilities', () => true), null);
  assert.equal(all.documentCandidate('http://x.org/a/wmsx.xml', 'newswms', () => false), null, 'acronyms are words, not parts of words');
  assert.equal(new ServiceDetection(['OGC API']).documentCandidate('http://x.org/a/b.xml', 'WMS GetCapabilities', never), null, 'no XML type enabled');
  assert.equal(new ServiceDetection(['CSW', 'WFS']).documentCandidate('http://x.org/a/b.xml', 'GetCapabilities', never)?.type, 'WFS', 'the first enabled XML type');
});

test('a page says capabilities by a capabilities word anywhere, or an acronym in its title or headings', () => {
  const page = (title: string, headings: string, text: string) => pageSaysCapabilities({ title, headings, text });
  assert.ok(page('Downloads', '', 'Each layer has a GetCapabilities document'));
  assert.ok(page('服务能力文档', '', ''));
  assert.ok(page('下载', '', '能力文档下载'));
  assert.ok(page('Downloads', 'WMTS tiles', ''));
  assert.ok(!page('Downloads', 'Files', 'Data for WMS and WFS clients'), 'an acronym in the body alone is not enough');
});

test('a document probe takes the type its root element names, when that type finds it valid', () => {
  const text = (s: string) => ({ url: 'http://x.org/a.xml', status: 200, contentType: 'application/xml', body: new TextEncoder().encode(s) });
  const fixture = (name: string) => new Uint8Array(readFileSync(new URL(name, new URL('../../../test/fixtures/services/', import.meta.url))));
  const answer = (name: string) => ({ url: 'http://x.org/a.xml', status: 200, contentType: 'application/xml', body: fixture(name) });
  const doc = { type: 'WMS' as const, endpoint: 'http://x.org/a.xml', document: true };
  assert.deepEqual([all.inspect(doc, answer('wfs-200.xml')).type, all.inspect(doc, answer('wfs-200.xml')).findings.status], ['WFS', 'valid']);
  assert.equal(all.inspect(doc, answer('wmts-100.xml')).type, 'WMTS', 'Capabilities in the WMTS namespace');
  assert.equal(all.inspect(doc, answer('csw-202.xml')).type, 'CSW');
  assert.equal(all.inspect(doc, answer('wms-111-esri.xml')).type, undefined, 'the type it was probed as');
  assert.equal(all.inspect({ ...doc, document: undefined }, answer('wfs-200.xml')).findings.status, 'invalid', 'a KVP probe is what it asked for');
  assert.equal(new ServiceDetection(['WMS']).inspect(doc, answer('wfs-200.xml')).findings.status, 'invalid', 'WFS not enabled');
  const rss = all.inspect(doc, text('<?xml version="1.0"?><!-- feed --><rss version="2.0"><channel/></rss>'));
  assert.deepEqual([rss.type, rss.findings.reason], [undefined, 'root element <rss> is not a WMS capabilities document']);
  assert.equal(all.inspect(doc, answer('wms-exception-111.xml')).findings.status, 'exception');
});
