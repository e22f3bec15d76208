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

const fixture = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'realweb-slice');

/** Crawls the committed slice (test/fixtures/realweb-slice/README.md) and grades the crawl log's order. */
export async function crawlSlice(share: number, strategy?: string): Promise<{ recall: number; pages: number; targets: number; fetched: number }> {
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
