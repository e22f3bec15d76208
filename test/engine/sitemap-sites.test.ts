import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SitemapSites } from '../../src/engine/sitemap-sites.js';

test('SitemapSites keeps the sites met most recently, and a sitemap of a forgotten site read later does not grow it past the bound', () => {
  const sites = new SitemapSites(1000);
  for (let i = 0; i < 5000; i++) {
    sites.offered(`http://s${i}.test`).add(`http://s${i}.test/sitemap.xml`);
    // Its sitemap is read long after the site was met (it waited in the frontier): its child files count for it again.
    if (i >= 3000) sites.offered(`http://s${i - 3000}.test`).add(`http://s${i - 3000}.test/child.xml`);
    assert.ok(sites.size <= 1000, `${sites.size} sites at ${i}`);
  }
  assert.equal(sites.has('http://s4999.test'), true);
  assert.equal(sites.has('http://s0.test'), false, 'the oldest are forgotten');
  assert.deepEqual([...sites.offered('http://s4999.test')], ['http://s4999.test/sitemap.xml'], 'a site remembered keeps its files');
});
