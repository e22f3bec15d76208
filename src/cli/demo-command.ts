import { openReader } from './open-reader.js';
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { solarTargets } from '../bench/generated-site.js';
import { serveSite } from '../bench/site-server.js';
import { defaultStrategyName } from '../strategies/registry.js';
import { startCrawl } from '../crawl.js';
import { assertNotRunning } from '../store/crawl-lock.js';
import { FocusCrawlError } from '../errors.js';
import { positiveInt } from './option-parsers.js';
import { runToEnd } from './run-to-end.js';

const DEFAULT_DB = 'focuscrawl-demo.db';
export const DEMO_TOPIC = fileURLToPath(new URL('../../../topics/demo-solar.yaml', import.meta.url));

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('serve a generated site about solar energy and more on 127.0.0.1 and crawl it for solar pages')
    .option('--pages <n>', 'pages in the generated site (default 2000)', positiveInt, 2000)
    .option('--max-pages <n>', 'page budget (default 500)', positiveInt, 500)
    .option('--strategy <name>', `crawl ordering (default ${defaultStrategyName(true)}, the default with a topic)`, defaultStrategyName(true))
    .option('--db <file>', `crawl database, created fresh (default ${DEFAULT_DB})`, DEFAULT_DB)
    .action(async (o: { pages: number; maxPages: number; strategy: string; db: string }) => {
      // A demo crawl still running on the default database must not lose its file under it.
      assertNotRunning(o.db);
      for (const suffix of ['', '-wal', '-shm']) {
        if (!existsSync(o.db + suffix)) continue;
        if (o.db !== DEFAULT_DB) throw new FocusCrawlError('USAGE', `${o.db} exists: the demo writes a fresh database, pick another --db`);
        rmSync(o.db + suffix);
      }
      const spec = { pages: o.pages, seed: 1 };
      const site = await serveSite(spec);
      try {
        process.stderr.write(`serving a generated ${o.pages}-page site at ${site.origin}\n`);
        const crawl = await startCrawl({
          seeds: [site.origin + '/'],
          topic: DEMO_TOPIC,
          strategy: o.strategy,
          maxPages: o.maxPages,
          concurrency: 16,
          perHost: 16,
          delayMs: 0,
          db: o.db,
        }, { command: 'demo' });
        const store = crawl.store;
        await runToEnd(crawl);
        // Graded against the generator's labels, never against the crawler's own scorer.
        const targets = new Set(solarTargets(spec, site.origin));
        const { reader, close } = await openReader({ db: o.db });
        const found: string[] = [];
        let fetched = 0;
        for await (const e of reader.logEntries()) {
          if (e.state === 'discarded') continue;
          fetched++;
          if (e.state === 'done' && (targets.has(e.url) || (e.url === site.origin + '/' && targets.has(site.origin + '/p/0')))) found.push(e.url);
        }
        await close();
        void store;
        process.stdout.write(
          `ground truth: ${found.length} of the site's ${targets.size} solar pages fetched among ${fetched} fetches ` +
            `(harvest ${((100 * found.length) / Math.max(1, fetched)).toFixed(1)}%, recall ${targets.size ? `${((100 * found.length) / targets.size).toFixed(1)}%` : '- (the site has none)'})\n` +
            `try: npx focuscrawl search --db ${o.db} "solar inverter"   or   npx focuscrawl search --db ${o.db} 光伏\n`,
        );
      } finally {
        await site.close();
      }
    });
}
