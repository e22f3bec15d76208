import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';
import { solarTargets } from '../../src/bench/generated-site.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { startCrawl } from '../../src/crawl.js';
import { strategyNames } from '../../src/strategies/registry.js';

const spec = { pages: 300, seed: 11, words: [120, 200] as [number, number], links: [8, 14] as [number, number] };
let site: RunningSite;
before(async () => {
  site = await serveSite(spec);
});
after(() => site.close());

for (const name of strategyNames()) {
  test(`${name} crawls through the engine; graded against the generator's labels`, async () => {
    const crawl = await startCrawl({
      seeds: [site.origin + '/'],
      topic: DEMO_TOPIC,
      strategy: name,
      maxPages: 60,
      delayMs: 0,
      perHost: 8,
      db: join(mkdtempSync(join(tmpdir(), `fc-${name}-`)), 'c.db'),
    });
    try {
      const summary = await crawl.run();
      await crawl.db.settle();
      const done = (crawl.db.db.prepare("SELECT url FROM crawl_log WHERE state = 'done'").pluck().all() as string[]);
      const targets = new Set(solarTargets(spec, site.origin));
      const found = done.filter((u) => targets.has(u)).length;
      // weighted-levels discards priority-0 links, so it may stop before the budget.
      assert.ok(summary.stats.fetched > 5 && summary.stats.fetched <= 60, `${name} fetched ${summary.stats.fetched}`);
      assert.ok(found > 0, `${name} found ${found} solar pages`);
    } finally {
      await crawl.close();
    }
  });
}
