import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCrawl } from '../../src/crawl.js';
import { startPortalWeb } from '../../src/bench/portal-web.js';

const SMALL = { seed: 3, newsPages: 300, servicePages: 20, endpoints: 30, hiddenShare: 0.25, zhShare: 0.3 };

async function crawl(seed: string, strategy: string) {
  const db = join(mkdtempSync(join(tmpdir(), 'fc-portal-')), 'c.db');
  const c = await startCrawl({ seeds: [seed], preset: 'wms', strategy, db, maxPages: 10_000, concurrency: 5, perHost: 5, delayMs: 0 });
  const summary = await c.run();
  const valid = (await c.services.entries()).filter((e) => e.type === 'WMS' && e.status === 'valid').map((e) => e.endpoint);
  await c.close();
  return { fetched: summary.stats.fetched, valid };
}

test('the generated portal: a breadth-first crawl to the end finds exactly the labelled WMS; weighted-levels fetches far fewer pages', async () => {
  const web = await startPortalWeb(SMALL);
  try {
    assert.equal(web.truth.size, 21, '7 of every 10 endpoints are valid WMS');
    const bfs = await crawl(web.homeSeed, 'bfs');
    assert.deepEqual(new Set(bfs.valid), web.truth);
    const wl = await crawl(web.homeSeed, 'weighted-levels');
    assert.ok(wl.valid.every((e) => web.truth.has(e)));
    assert.ok(wl.fetched * 2 < bfs.fetched, `weighted-levels ${wl.fetched} pages, bfs ${bfs.fetched}`);
  } finally {
    await web.close();
  }
});
