import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyFindings, type ServiceRecord, type ServiceType } from '../../src/services/service-record.js';
import type { ServiceRegistry } from '../../src/services/service-registry.js';

const record = (endpoint: string, type: ServiceType, status: ServiceRecord['status'], extra: Partial<ServiceRecord> = {}): ServiceRecord => ({
  ...emptyFindings(status, status === 'valid' ? null : 'no capabilities'),
  endpoint, type, probedUrl: endpoint + '?request=GetCapabilities', checkedAt: '2026-01-01T00:00:00Z', ...extra,
});

const layer = (name: string) => ({ name, title: name.toUpperCase(), crs: ['EPSG:4326'], wgs84: [5, 45, 10, 48] as [number, number, number, number], boxes: [] });

/** The ServiceRegistry contract, run once per backend. `make` returns an empty registry. */
export function describeServiceRegistry(name: string, make: () => Promise<{ registry: ServiceRegistry; flush: () => Promise<void>; close: () => Promise<void> }>): void {
  test(`${name}: one entry per endpoint and type, replaced when probed again; valid first; counts by status`, async () => {
    const { registry, flush, close } = await make();
    try {
      await registry.save(record('http://m.test/wms', 'WMS', 'invalid'));
      await registry.save(record('http://m.test/wfs', 'WFS', 'exception'));
      await registry.save(record('http://m.test/wms', 'WMS', 'valid', { title: 'Rivers', layers: [layer('rivers')], keywords: ['hydro'], versions: ['1.3.0'] }));
      await registry.save(record('http://m.test/wms', 'WFS', 'invalid'));
      await flush();
      const all = await registry.entries();
      assert.deepEqual(all.map((e) => [e.endpoint, e.type, e.status]), [
        ['http://m.test/wms', 'WMS', 'valid'],
        ['http://m.test/wfs', 'WFS', 'exception'],
        ['http://m.test/wms', 'WFS', 'invalid'],
      ]);
      assert.deepEqual([all[0]!.title, all[0]!.keywords, all[0]!.versions, all[0]!.layers], ['Rivers', ['hydro'], ['1.3.0'], [layer('rivers')]]);
      assert.deepEqual(await registry.counts(), { valid: 1, exception: 1, invalid: 1 });
      assert.deepEqual((await registry.entries(2)).map((e) => [e.endpoint, e.type]), [['http://m.test/wms', 'WMS'], ['http://m.test/wfs', 'WFS']], 'a limit keeps the first, in the same order');
    } finally {
      await close();
    }
  });

  test(`${name}: sources are kept once each and move with a retyped document; follow-ups set conformance and layers`, async () => {
    const { registry, flush, close } = await make();
    try {
      await registry.save(record('http://m.test/caps.xml', 'WMS', 'valid'));
      await registry.addSource('http://m.test/caps.xml', 'WMS', 'http://m.test/a');
      await registry.addSource('http://m.test/caps.xml', 'WMS', 'http://m.test/a');
      await registry.addSource('http://m.test/caps.xml', 'WMS', 'http://m.test/b');
      await registry.save(record('http://m.test/caps.xml', 'WFS', 'valid'));
      await registry.moveSources('http://m.test/caps.xml', 'WMS', 'WFS');
      await registry.save(record('http://m.test/ogcapi', 'OGC API', 'valid'));
      await registry.setConformance('http://m.test/ogcapi', 'OGC API', ['http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core']);
      await registry.setLayers('http://m.test/ogcapi', 'OGC API', [layer('a')]);
      await registry.addLayers('http://m.test/ogcapi', 'OGC API', [layer('b')]);
      await registry.save(record('http://m.test/fake', 'OGC API', 'valid', { title: 'Fake' }));
      await registry.invalidate('http://m.test/fake', 'OGC API', 'conformance declaration: HTTP 404');
      await flush();
      const fake = (await registry.entries()).find((e) => e.endpoint === 'http://m.test/fake')!;
      assert.deepEqual([fake.status, fake.reason, fake.title], ['invalid', 'conformance declaration: HTTP 404', 'Fake']);
      const byKey = new Map((await registry.entries()).map((e) => [`${e.type} ${e.endpoint}`, e]));
      assert.deepEqual(byKey.get('WFS http://m.test/caps.xml')?.foundOn.sort(), ['http://m.test/a', 'http://m.test/b']);
      assert.deepEqual(byKey.get('WMS http://m.test/caps.xml')?.foundOn ?? [], []);
      const api = byKey.get('OGC API http://m.test/ogcapi')!;
      assert.deepEqual(api.conformance, ['http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core']);
      assert.deepEqual(api.layers.map((l) => l.name), ['a', 'b']);
    } finally {
      await close();
    }
  });

  test(`${name}: paged layers are appended in time linear in them; a name already listed is not added again`, async () => {
    const { registry, flush, close } = await make();
    try {
      await registry.save(record('http://m.test/big', 'OGC API', 'valid'));
      await registry.setLayers('http://m.test/big', 'OGC API', [{ ...layer('x'), name: '' }]);
      // 20 pages of 1,000 collections: a correlated lookup per new layer did not finish in minutes.
      for (let p = 0; p < 20; p++) await registry.addLayers('http://m.test/big', 'OGC API', Array.from({ length: 1000 }, (_x, i) => layer(`p${p}-${i}`)));
      await registry.addLayers('http://m.test/big', 'OGC API', [layer('p0-1'), layer('fresh'), { ...layer('y'), name: '' }, layer('p19-999')]);
      await flush();
      const big = (await registry.entries()).find((e) => e.endpoint === 'http://m.test/big')!;
      assert.equal(big.layers.length, 1 + 20_000 + 1);
      assert.deepEqual(big.layers.slice(-2).map((l) => l.name), ['p19-999', 'fresh']);
    } finally {
      await close();
    }
  });
}
