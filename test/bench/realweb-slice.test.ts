import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { startCrawl } from '../../src/crawl.js';
import { grade } from '../../bench/realweb/grade.js';
import { serveBuiltSite } from '../../bench/realweb/serve-sites.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures');

/** Crawls a committed slice (its README.md under test/fixtures) and grades the crawl log's order. */
export async function crawlSlice(
  share: number,
  strategy?: string,
  o: { slice?: string; strategyOptions?: Record<string, number> } = {},
): Promise<{ recall: number; pages: number; targets: number; fetched: number }> {
  const fixture = join(fixtures, o.slice ?? 'realweb-slice');
  const pages = JSON.parse(gunzipSync(readFileSync(join(fixture, 'pages.json.gz'))).toString('utf8')) as Record<string, string>;
  const labels = readFileSync(join(fixture, 'labels.txt'), 'utf8').split('\n').filter(Boolean);
  const site = await serveBuiltSite({ port: 0, encoding: 'utf-8', page: async (file) => {
    const html = pages[file === 'start.html' ? '/' : `/p/${file}`];
    return html === undefined ? null : Buffer.from(html);
  } });
  const tmp = mkdtempSync(join(tmpdir(), 'fc-realweb-slice-'));
  try {
    const budget = Math.round(share * Object.keys(pages).length);
    const crawl = await startCrawl({
      seeds: [site.origin + '/'],
      topic: join(fixture, 'topic.yaml'),
      ...(strategy ? { strategy } : {}),
      ...(o.strategyOptions ? { strategyOptions: o.strategyOptions } : {}),
      maxPages: budget,
      concurrency: 1,
      perHost: 1,
      delayMs: 0,
      maxDepth: 1_000_000,
      db: join(tmp, 'c.db'),
    });
    let order: string[];
    try {
      await crawl.run();
      await crawl.db.settle();
      order = crawl.db.db.prepare("SELECT url FROM crawl_log WHERE state IN ('done', 'error') ORDER BY seq").pluck().all() as string[];
    } finally {
      await crawl.close();
    }
    const g = grade(order, new Set(labels.map((l) => site.origin + l)), { b: budget });
    return { recall: g.recall['b']!, pages: Object.keys(pages).length, targets: labels.length, fetched: g.fetched };
  } finally {
    await site.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

// The slice is SQLAlchemy's Sphinx documentation: every page carries a sidebar of about 40 links,
// so a strategy that gives all links of a page the same score (best-first) wanders the sidebar.
// At 30% of the pages (57) best-first found 4 of the 17 targets on 2026-11-23 (first discovery
// fixing a URL's priority); shark-search 12, inherit-recover 13, breadth-first 7. With the raise on
// rediscovery and the adaptive default: adaptive 13, best-first 13, shark 13, learned 13, bfs 7.
test('the default strategy finds its share of a real documentation slice at 30% of its pages', async () => {
  const r = await crawlSlice(0.3);
  assert.equal(r.fetched, Math.round(0.3 * r.pages));
  // What today's default (adaptive) reaches here, 13/17 = 0.765, minus one target. Raise it when the
  // default improves, so that a later regression fails this test.
  const THRESHOLD = 12 / 17 - 1e-9;
  assert.ok(r.recall >= THRESHOLD, `recall ${r.recall.toFixed(3)} of ${r.targets} targets after ${r.fetched} of ${r.pages} pages, below ${THRESHOLD}`);
});

// The second slice is CMake's reference (Sphinx): the policy pages with the variables' pages beside
// them, every title ending in "— CMake 3.25.1 Documentation", and a topic that names the product
// ("cmake_policy", "cmake_minimum_required") as users do. Before adaptive read the site's name
// out of the titles, "cmake" in every variable's anchor (CMAKE_...) outranked the policies'
// ("CMP0002: ..."): on the whole site it found 2.8% of the policies at 20% of the pages.
test('the default strategy finds the policies of a real reference site whose name is the topic\'s heaviest word', async () => {
  const budget = 0.1;
  const r = await crawlSlice(budget, undefined, { slice: 'realweb-slice-cmake' });
  const blind = await crawlSlice(budget, 'adaptive', { slice: 'realweb-slice-cmake', strategyOptions: { siteTerm: 1, siblings: 1 } });
  assert.equal(r.fetched, Math.round(budget * r.pages));
  // On 2026-11-24 the default found 56 of the 143 policies in 85 of 852 pages, and without the
  // site's name and the siblings 4. The threshold is 56 minus a margin of 6: raise it when the
  // default improves.
  const THRESHOLD_CMAKE = 50 / 143 - 1e-9;
  assert.ok(r.recall >= THRESHOLD_CMAKE, `recall ${r.recall.toFixed(3)} below ${THRESHOLD_CMAKE}`);
  assert.ok(blind.recall < r.recall, `without the site name: ${blind.recall.toFixed(3)}, with: ${r.recall.toFixed(3)}`);
});

// The third slice is libvirt's website (its C API reference dropped): the start page's body links
// 35 pages without a topic word, and its menu, last in every page's HTML, holds "Docs", the only
// way to the manual pages. Without stall hubs adaptive fetched the body's links first and found
// none of the manual pages in 20% of the site.
test("the default strategy reads a real site's menu when its start page's links say nothing of the topic", async () => {
  const budget = 0.2;
  const r = await crawlSlice(budget, undefined, { slice: 'realweb-slice-libvirt' });
  const blind = await crawlSlice(budget, 'adaptive', { slice: 'realweb-slice-libvirt', strategyOptions: { stall: 0 } });
  assert.equal(r.fetched, Math.round(budget * r.pages));
  // On 2026-11-25 the default found 18 of the 39 manual pages in 32 of 160 pages, and without
  // stall hubs none. The threshold is 18 minus a margin of 3: raise it when the default improves.
  const THRESHOLD_LIBVIRT = 15 / 39 - 1e-9;
  assert.ok(r.recall >= THRESHOLD_LIBVIRT, `recall ${r.recall.toFixed(3)} below ${THRESHOLD_LIBVIRT}`);
  assert.ok(blind.recall < r.recall, `without stall hubs: ${blind.recall.toFixed(3)}, with: ${r.recall.toFixed(3)}`);
});
