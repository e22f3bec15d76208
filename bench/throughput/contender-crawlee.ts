import { CheerioCrawler, Configuration } from 'crawlee';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, measure } from './report.js';

/** Crawlee's CheerioCrawler with enqueueLinks, with its default persistence or with it off. */
const origin = arg('origin');
const concurrency = Number(arg('concurrency'));
const maxPages = Number(arg('max-pages'));
const persist = arg('persist', 'true') === 'true';
process.env.CRAWLEE_STORAGE_DIR = mkdtempSync(join(tmpdir(), 'crawlee-bench-'));
process.env.CRAWLEE_LOG_LEVEL ??= 'WARNING';
const m = measure(`Crawlee CheerioCrawler (persistence ${persist ? 'default' : 'off'})`);
let pages = 0;
const config = new Configuration({ persistStorage: persist, purgeOnStart: true });
const crawler = new CheerioCrawler(
  {
    maxRequestsPerCrawl: maxPages,
    maxConcurrency: concurrency,
    minConcurrency: concurrency,
    autoscaledPoolOptions: { desiredConcurrency: concurrency },
    async requestHandler({ enqueueLinks }) {
      pages++;
      await enqueueLinks({ strategy: 'same-hostname' });
    },
  },
  config,
);
await crawler.run([origin + '/']);
console.log(JSON.stringify(m.finish(pages)));
