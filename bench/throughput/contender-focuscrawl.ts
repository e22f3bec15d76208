import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCrawl } from '../../src/crawl.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { arg, measure } from './report.js';

/** focuscrawl as a user runs it: robots.txt, politeness bookkeeping, every page stored with full text in SQLite + FTS5. */
const origin = arg('origin');
const concurrency = Number(arg('concurrency'));
const maxPages = Number(arg('max-pages'));
const strategy = arg('strategy', 'bfs');
const db = join(mkdtempSync(join(tmpdir(), 'fc-bench-')), 'bench.db');
const m = measure(`focuscrawl ${strategy}${strategy === 'bfs' ? '' : ' + topic scoring'} (SQLite, full text, FTS5)`);
const crawl = await startCrawl({
  seeds: [origin + '/'],
  db,
  strategy,
  topic: strategy === 'bfs' ? null : DEMO_TOPIC,
  maxPages,
  concurrency,
  perHost: concurrency,
  delayMs: 0,
  maxDepth: 1000,
  // The site is one URL pattern (/p/N.html): the per-pattern trap cap (1,000 by default) would end the crawl there.
  maxUrlsPerPattern: 0,
});
const summary = await crawl.run();
await crawl.close();
console.log(JSON.stringify(m.finish(summary.stats.done)));
