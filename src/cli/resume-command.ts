import type { Command } from 'commander';
import { resumeCrawl } from '../crawl.js';
import { positiveInt } from './option-parsers.js';
import { runToEnd } from './run-to-end.js';

export function registerResume(program: Command): void {
  program
    .command('resume')
    .description('continue a crawl from its database after a stop, a crash or kill -9')
    .requiredOption('--db <file>', 'crawl database')
    .option('--max-pages <n>', 'raise the page budget', positiveInt)
    .option('--concurrency <n>', 'requests in flight over all hosts', positiveInt)
    .option('--topic <file>', 'give a crawl that has no topic one (replacing a different one needs --force)')
    .option('--force', 'let --topic replace the topic the crawl has')
    .action(async (o: { db: string; maxPages?: number; concurrency?: number; topic?: string; force?: boolean }) => {
      const overrides: Record<string, number> = {};
      if (o.maxPages) overrides.maxPages = o.maxPages;
      if (o.concurrency) overrides.concurrency = o.concurrency;
      await runToEnd(await resumeCrawl(o.db, overrides, { ...(o.topic !== undefined ? { topic: o.topic } : {}), force: o.force === true }));
    });
}
