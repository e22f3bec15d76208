import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';

const FIXTURES = new URL('../../../test/fixtures/services/', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'fc-cli-services-'));
const db = join(dir, 's.db');
let server: Server;
let origin: string;
let crawlOut: string;
let secretFetched = false;

/** A portal whose service links answer with the capabilities fixtures. */
const DOCS: Record<string, string> = {
  '/geoserver/wms': 'wms-130-geoserver.xml',
  '/arcgis/services/Hydro/MapServer/WMSServer': 'wms-111-esri.xml',
  '/geoserver/wfs': 'wfs-200.xml',
  '/broken/wms': 'wms-exception-111.xml',
};

before(async () => {
  server = createServer((req, res) => {
    const [path] = (req.url ?? '/').split('?') as [string];
    const doc = DOCS[path];
    if (path === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
    if (path === '/secret') secretFetched = true;
    if (path === '/xxe/wms') {
      // An external entity pointing at this very server: the parser must never fetch it.
      return void res.writeHead(200, { 'content-type': 'text/xml' }).end(`<?xml version="1.0"?>
        <!DOCTYPE WMS_Capabilities [<!ENTITY xxe SYSTEM "${origin}/secret">]>
        <WMS_Capabilities version="1.3.0"><Service><Title>&xxe;</Title></Service><Capability/></WMS_Capabilities>`);
    }
    if (path === '/huge/wms') {
      // Larger than the default 5 MiB limit, sent without a length.
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.write('<WMS_Capabilities version="1.3.0"><Service><Abstract>');
      for (let i = 0; i < 6; i++) res.write('x'.repeat(1 << 20));
      return void res.end('</Abstract></Service><Capability/></WMS_Capabilities>');
    }
    if (doc) return void res.writeHead(200, { 'content-type': 'text/xml' }).end(readFileSync(new URL(doc, FIXTURES)));
    if (path === '/') {
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Geoportal</title>
        <a href="/catalog.html">Map services catalogue</a> <a href="/news.html">News</a>`);
    }
    if (path === '/catalog.html') {
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>WMS catalogue</title><p>Web map services (WMS) of the agency.</p>
        <a href="/geoserver/wms?service=WMS&amp;request=GetCapabilities">States WMS</a>
        <a href="/arcgis/services/Hydro/MapServer/WMSServer?request=GetCapabilities&amp;service=WMS">Hydrography</a>
        <a href="/geoserver/wfs?service=WFS&amp;version=2.0.0&amp;request=GetCapabilities">Buildings WFS</a>
        <a href="/broken/wms?SERVICE=WMS&amp;REQUEST=GetCapabilities">Old service</a>
        <a href="/gone/wms?SERVICE=WMS&amp;REQUEST=GetCapabilities">Gone</a>
        <a href="/xxe/wms?SERVICE=WMS&amp;REQUEST=GetCapabilities">Entities</a>
        <a href="/huge/wms?SERVICE=WMS&amp;REQUEST=GetCapabilities">Huge</a>`);
    }
    if (path === '/news.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>News</title><p>The football season starts.</p>');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const r = await runCli(['crawl', '--preset', 'wms', '--seeds', origin + '/', '--db', db, '--delay-ms', '0', '--no-sitemaps']);
  assert.equal(r.code, 0, r.stderr);
  crawlOut = r.stdout;
});
after(() => new Promise<void>((r) => server.close(() => r())));

test('crawl --preset wms reports services found per page downloaded', () => {
  // 3 pages + 7 probes = 10 fetches; 3 valid services.
  assert.match(crawlOut, /services \(whole crawl\): 3 valid, 1 exception, 3 invalid; 0\.3000 valid services per page downloaded \(10 fetched in the whole crawl\); 7 probes this run/);
});

test('services --format json lists every endpoint with its layers and the pages that linked to it', async () => {
  const r = await runCli(['services', '--db', db]);
  assert.equal(r.code, 0, r.stderr);
  const list = JSON.parse(r.stdout) as { endpoint: string; type: string; status: string; version: string; layers: { name: string }[]; found_on: string[]; reason: string | null }[];
  assert.deepEqual(list.map((e) => [e.type, e.status, e.endpoint.replace(origin, '')]), [
    ['WFS', 'valid', '/geoserver/wfs'],
    ['WMS', 'valid', '/arcgis/services/Hydro/MapServer/WMSServer'],
    ['WMS', 'valid', '/geoserver/wms'],
    ['WMS', 'exception', '/broken/wms'],
    ['WMS', 'invalid', '/gone/wms'],
    ['WMS', 'invalid', '/huge/wms'],
    ['WMS', 'invalid', '/xxe/wms'],
  ]);
  assert.deepEqual(list[2]!.layers.map((l) => l.name), ['topp:states', 'nurc:mosaic']);
  assert.deepEqual(list[2]!.found_on, [origin + '/catalog.html']);
  assert.equal(list[4]!.reason, 'HTTP 404');
  assert.match(list[5]!.reason!, /body exceeds the limit of 5242880 bytes/);
  assert.match(list[6]!.reason!, /undefined entity/);
  assert.equal(secretFetched, false, 'the external entity was never fetched');
  const valid = await runCli(['services', '--db', db, '--status', 'valid']);
  assert.equal((JSON.parse(valid.stdout) as unknown[]).length, 3);
});

test('services --format csv has one row per service; geojson one feature per layer extent', async () => {
  const csv = await runCli(['services', '--db', db, '--format', 'csv', '--out', join(dir, 's.csv')]);
  assert.equal(csv.code, 0, csv.stderr);
  const lines = readFileSync(join(dir, 's.csv'), 'utf8').trim().split('\r\n');
  assert.equal(lines[0], 'endpoint,type,version,versions,status,reason,title,abstract,keywords,provider,layer_count,layers,conformance,found_on,probed_url,checked_at');
  assert.equal(lines.length, 8);
  const geo = await runCli(['services', '--db', db, '--format', 'geojson']);
  const fc = JSON.parse(geo.stdout) as { type: string; features: { geometry: { coordinates: number[][][] }; properties: { layer: string; type: string } }[] };
  assert.equal(fc.type, 'FeatureCollection');
  // GeoServer: 2 layers, ArcGIS: 2, WFS: 1 feature type; all with a WGS 84 extent.
  assert.deepEqual(fc.features.map((f) => f.properties.layer).sort(), ['0', '1', 'city:buildings', 'nurc:mosaic', 'topp:states']);
  const states = fc.features.find((f) => f.properties.layer === 'topp:states')!;
  assert.deepEqual(states.geometry.coordinates[0]![0], [-124.73, 24.96]);
  // Without --format, the --out file's extension picks it.
  assert.equal((await runCli(['services', '--db', db, '--out', join(dir, 'by-name.csv')])).code, 0);
  assert.equal(readFileSync(join(dir, 'by-name.csv'), 'utf8').split('\r\n')[0], lines[0]);
  assert.equal((await runCli(['services', '--db', db, '--out', join(dir, 'by-name.geojson')])).code, 0);
  assert.equal((JSON.parse(readFileSync(join(dir, 'by-name.geojson'), 'utf8')) as { type: string }).type, 'FeatureCollection');
});

test('status counts the registry', async () => {
  const r = await runCli(['status', '--db', db]);
  assert.match(r.stdout, /services: 3 valid, 1 exception, 3 invalid/);
});

test('bad service flags name the problem and exit 2', async () => {
  const bad = await runCli(['crawl', '--seeds', 'http://127.0.0.1:1/', '--detect', 'wms,wsm', '--db', join(dir, 'x.db')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--detect: unknown service type 'wsm'/);
  const empty = await runCli(['crawl', '--seeds', 'http://127.0.0.1:1/', '--detect', '', '--db', join(dir, 'x.db')]);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /--detect: no service type given/);
  const preset = await runCli(['crawl', '--seeds', 'http://127.0.0.1:1/', '--preset', 'wfs']);
  assert.equal(preset.code, 2);
  assert.match(preset.stderr, /--preset/);
  const missing = await runCli(['services', '--db', join(dir, 'none.db')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no crawl database at .*none\.db/);
});

test('services of a crawl that never looked for them: an empty list, and one line saying why', async () => {
  const plain = join(dir, 'plain.db');
  const c = await runCli(['crawl', '--seeds', origin + '/', '--db', plain, '--delay-ms', '0', '--no-sitemaps', '--max-pages', '2']);
  assert.equal(c.code, 0, c.stderr);
  const r = await runCli(['services', '--db', plain]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), []);
  assert.match(r.stderr, /^focuscrawl: .*plain\.db was crawled without service detection, so it has no services to list \(crawl with --preset wms or --detect TYPES\)\n$/);
  const detected = await runCli(['services', '--db', db]);
  assert.equal(detected.stderr, '', 'no such line for a crawl that looked');
});
