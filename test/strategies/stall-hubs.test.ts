import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StallHubs } from '../../src/strategies/stall-hubs.js';

const menu = (n: number) => Array.from({ length: n }, (_x, i) => ({ url: `http://a.test/menu${i}`, anchor: `Section ${i}`, data: null }));

test('a host offers at most maxOffers hubs over a whole crawl, and stall 0 offers none', () => {
  const hubs = new StallHubs({ stall: 1, perStall: 2, maxHosts: 10, maxHubs: 64, maxOffers: 3 });
  const offered: string[] = [];
  for (let i = 0; i < 20; i++) {
    hubs.fetched('a.test', `http://a.test/p${i}`, `p${i}`, 1, 0.1, false, menu(10));
    offered.push(...hubs.reoffers().map((r) => r.url));
  }
  assert.deepEqual(offered, ['http://a.test/menu0', 'http://a.test/menu1', 'http://a.test/menu2']);
  // Another host has its own count.
  hubs.fetched('b.test', 'http://b.test/', 'b', 0, 1, false, [{ url: 'http://b.test/docs', anchor: 'Docs', data: null }]);
  assert.deepEqual(hubs.reoffers().map((r) => [r.url, r.priority, r.depth, r.parent]), [['http://b.test/docs', 1.05, 1, 'b']]);

  const off = new StallHubs({ stall: 0, perStall: 2, maxHosts: 10, maxHubs: 64, maxOffers: 3 });
  for (let i = 0; i < 20; i++) off.fetched('a.test', `http://a.test/p${i}`, `p${i}`, 1, 0.1, false, menu(10));
  assert.deepEqual(off.reoffers(), []);
});
