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
    .option('--allow-private', 'from now on also fetch private, loopback and link-local addresses (see crawl --allow-private)')
    .action(async (o: { db: string; maxPages?: number; concurrency?: number; topic?: string; force?: boolean; allowPrivate?: boolean }) => {
      const overrides: Record<string, number | boolean> = {};
      if (o.maxPages) overrides.maxPages = o.maxPages;
      if (o.concurrency) overrides.concurrency = o.concurrency;
      if (o.allowPrivate) overrides.allowPrivate = true;
      await runToEnd(await resumeCrawl(o.db, overrides, { ...(o.topic !== undefined ? { topic: o.topic } : {}), force: o.force === true }));
    });
}
