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

test('hubs kept per host are bounded by the offers left, the host fetched from most recently is kept, and a hub keeps the shallowest page that carried it', () => {
  const hubs = new StallHubs({ stall: 100, perStall: 2, maxHosts: 2, maxHubs: 64, maxOffers: 5 });
  // The main site records at most its 5 offers' worth of a 40-link menu.
  hubs.fetched('main.test', 'http://main.test/p0', 'p0', 3, 0.1, false, menu(40).map((h) => ({ ...h, url: h.url.replace('a.test', 'main.test') })));
  assert.deepEqual(hubs.sizes(), { hosts: 1, hubs: 5, done: 1 });
  // Seen again from a shallower page: that page becomes its parent.
  hubs.fetched('main.test', 'http://main.test/p1', 'p1', 0, 0.1, false, [{ url: 'http://main.test/menu0', anchor: 'Home', data: null }]);
  // Two other hosts: the one forgotten is a.test, fetched from less recently than main.test.
  hubs.fetched('a.test', 'http://a.test/', 'a', 0, 0.1, false, menu(3));
  hubs.fetched('main.test', 'http://main.test/p2', 'p2', 1, 0.1, false, []);
  hubs.fetched('b.test', 'http://b.test/', 'b', 0, 0.1, false, []);
  assert.equal(hubs.sizes().hosts, 2);
  const copy = new StallHubs({ stall: 1, perStall: 1, maxHosts: 2, maxHubs: 64, maxOffers: 5 });
  copy.restore(hubs.snapshot());
  copy.fetched('main.test', 'http://main.test/p3', 'p3', 1, 0.1, false, []);
  assert.deepEqual(copy.reoffers().map((r) => [r.url, r.depth, r.parent, r.anchor]), [['http://main.test/menu0', 1, 'p1', 'Home']]);
  copy.fetched('a.test', 'http://a.test/p9', 'p9', 1, 0.1, false, []);
  assert.deepEqual(copy.reoffers(), [], "a.test's hubs were forgotten");
});
