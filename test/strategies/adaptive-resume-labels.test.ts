import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { serveSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { openReader } from '../../src/cli/open-reader.js';
import { startCrawl } from '../../src/crawl.js';
import { SqliteLabelStore } from '../../src/store/sqlite-label-store.js';

const storedTotal = (db: string): number => {
  const d = new Database(db, { readonly: true });
  try {
    const v = d.prepare("SELECT value FROM meta WHERE key = 'strategyState'").pluck().get() as string;
    return (JSON.parse(v) as { snapshot: { stats: { total: number } } }).snapshot.stats.total;
  } finally {
    d.close();
  }
};

test('an embedded crawl started again restores what adaptive learned and does not learn the same dashboard labels twice', async () => {
  const site = await serveSite({ pages: 40, seed: 9, words: [120, 240], links: [5, 10] });
  const db = join(mkdtempSync(join(tmpdir(), 'fc-adaptive-labels-')), 'a.db');
  const config = { seeds: [site.origin + '/'], topic: DEMO_TOPIC, strategy: 'adaptive', db, maxPages: 12, delayMs: 0, sitemaps: false };
  try {
    const first = await startCrawl(config);
    await first.run();
    await first.close();
    const open = await openReader({ db });
    const pages = (await open.reader.relevantPages(0, 50)).filter((p) => p.depth > 0).slice(0, 2);
    await open.close();
    assert.equal(pages.length, 2);
    const labels = new SqliteLabelStore(db);
    for (const p of pages) await labels.label(p.url, true);
    await labels.close();

    const totals: number[] = [];
    const notes: string[][] = [];
    for (let i = 0; i < 3; i++) {
      const again = await startCrawl(config);
      try {
        notes.push(again.notes);
        await again.run();
      } finally {
        await again.close();
      }
      totals.push(storedTotal(db));
    }
    assert.deepEqual(notes.map((n) => n.some((x) => /learned from 2 pages labelled in the dashboard/.test(x))), [true, false, false]);
    assert.ok(!notes.flat().some((n) => /did not restore/.test(n)), notes.flat().join('\n'));
    assert.equal(new Set(totals).size, 1, `the budget was spent, yet the stored statistics moved: ${totals.join(', ')}`);
  } finally {
    await site.close();
  }
});
