import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { openReader } from '../../src/cli/open-reader.js';
import { startCrawl } from '../../src/crawl.js';
import { loadTopicFile, topicFromFile } from '../../src/relevance/topic.js';
import { LearnedStrategy, type LinkFeatures } from '../../src/strategies/learned.js';
import { SqliteLabelStore } from '../../src/store/sqlite-label-store.js';

let site: RunningSite;
const db = join(mkdtempSync(join(tmpdir(), 'fc-labels-')), 'l.db');
before(async () => {
  site = await serveSite({ pages: 60, seed: 9, words: [120, 240], links: [5, 10] });
});
after(() => site.close());

test('labels stored by the dashboard train the learned strategy when the crawl starts again', async () => {
  const topic = topicFromFile(loadTopicFile(DEMO_TOPIC));
  const first = await startCrawl({ seeds: [site.origin + '/'], topic: DEMO_TOPIC, strategy: 'learned', db, maxPages: 25, delayMs: 0, perHost: 4, sitemaps: false });
  await first.run();
  await first.close();

  // Two stored non-seed pages, labelled the way serve's POST /api/labels stores them.
  const open = await openReader({ db });
  const [yes, no] = (await open.reader.relevantPages(0, 50)).filter((p) => p.depth > 0);
  assert.ok(yes && no);
  const labels = new SqliteLabelStore(db);
  // The strategy learns them in the order given (SGD is order-sensitive, and the two links share most features).
  await labels.label(no.url, false);
  await labels.label(yes.url, true);
  await labels.close();
  const byUrl = new Map((await open.reader.labelledPages()).map((p) => [p.url, p]));
  await open.close();
  const fYes = byUrl.get(yes.url)?.linkData?.f as LinkFeatures;
  const fNo = byUrl.get(no.url)?.linkData?.f as LinkFeatures;
  assert.ok(fYes?.sparse.length && fNo?.sparse.length, 'the links that led to the pages carry their features');

  const untrained = new LearnedStrategy(topic);
  const strategy = new LearnedStrategy(topic);
  const again = await startCrawl({ seeds: [site.origin + '/'], topic: DEMO_TOPIC, strategy: 'learned', db, maxPages: 25, delayMs: 0, sitemaps: false }, { strategy });
  try {
    assert.ok(again.notes.some((n) => /learned from 2 pages labelled in the dashboard/.test(n)), again.notes.join('\n'));
    assert.ok(strategy.probability(fYes) > untrained.probability(fYes), 'a link like the one to the page labelled relevant scores higher');
    assert.ok(strategy.probability(fNo) < untrained.probability(fNo), 'a link like the one to the page labelled not relevant scores lower');
  } finally {
    await again.close();
  }
});
