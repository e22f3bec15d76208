import type { Command } from 'commander';
import { resumeCrawl, type ResumeOverrides } from '../crawl.js';
import { positiveInt, proxySetting, requestHeader } from './option-parsers.js';
import { runToEnd } from './run-to-end.js';
import { FocusCrawlError } from '../errors.js';
import { openSharedWorker } from '../distributed/shared-crawl.js';
import { sharedTarget, type SharedFlags } from '../distributed/shared-target.js';
import { withSharedOptions } from './shared-options.js';

export function registerResume(program: Command): void {
  withSharedOptions(program.command('resume').description('continue a crawl from its database after a stop, a crash or kill -9 (a shared crawl: work on it, as a worker)'))
    .option('--db <file>', 'crawl database (default focuscrawl.db)')
    .option('--max-pages <n>', 'raise the page budget (a lower one is refused)', positiveInt)
    .option('--concurrency <n>', 'requests in flight over all hosts', positiveInt)
    .option('--topic <file>', 'give a crawl that has no topic one (replacing a different one needs --force)')
    .option('--force', 'let --topic replace the topic the crawl has')
    .option('--allow-private', 'from now on also fetch private, loopback and link-local addresses (see crawl --allow-private)')
    .option('--proxy <url>', "this run's proxy, as crawl --proxy (a proxy is never stored with the crawl)", proxySetting)
    .option('--header <header>', "this run's request headers, as crawl --header (headers are never stored with the crawl)", requestHeader)
    .action(async (o: SharedFlags & { db?: string; maxPages?: number; concurrency?: number; topic?: string; force?: boolean; allowPrivate?: boolean; proxy?: string; header?: Record<string, string> }) => {
      const target = sharedTarget(o);
      if (target) {
        if (o.db || o.topic !== undefined || o.allowPrivate) throw new FocusCrawlError('USAGE', 'resume of a shared crawl takes --max-pages and --concurrency; --db, --topic and --allow-private are for the embedded crawl');
        await runToEnd(await openSharedWorker(target, { ...(o.concurrency ? { concurrency: o.concurrency } : {}), ...(o.maxPages ? { maxPages: o.maxPages } : {}), ...(o.proxy ? { proxy: o.proxy } : {}), ...(o.header ? { headers: o.header } : {}) }));
        return;
      }
      const overrides: ResumeOverrides = {};
      if (o.maxPages) overrides.maxPages = o.maxPages;
      if (o.concurrency) overrides.concurrency = o.concurrency;
      if (o.allowPrivate) overrides.allowPrivate = true;
      if (o.proxy) overrides.proxy = o.proxy;
      if (o.header) overrides.headers = o.header;
      await runToEnd(await resumeCrawl(o.db ?? 'focuscrawl.db', overrides, { ...(o.topic !== undefined ? { topic: o.topic } : {}), force: o.force === true }));
    });
}
