import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { resumeCrawl, startCrawl } from '../../src/crawl.js';

let site: RunningSite;
before(async () => {
  site = await serveSite({ pages: 120, seed: 5, words: [80, 120], links: [6, 10] });
});
after(() => site.close());

test('what adaptive learned is stored with the crawl and restored by resume', async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'fc-state-')), 'c.db');
  const first = await startCrawl({ seeds: [site.origin + '/'], topic: DEMO_TOPIC, maxPages: 30, delayMs: 0, concurrency: 1, db });
  let learned: string;
  try {
    assert.equal(first.strategy.name, 'adaptive', 'the default with a topic');
    await first.run();
    learned = JSON.stringify(first.strategy.snapshot!());
    assert.ok((JSON.parse(learned) as { stats: { total: number } }).stats.total > 0, 'it learned from the pages it fetched');
  } finally {
    await first.close();
  }
  const again = await resumeCrawl(db, { maxPages: 40 });
  try {
    assert.equal(JSON.stringify(again.strategy.snapshot!()), learned, 'restored as it was left');
    const s = await again.run();
    assert.equal(s.stats.fetched, 10);
  } finally {
    await again.close();
  }
});
