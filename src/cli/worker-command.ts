import type { Command } from 'commander';
import { FocusCrawlError } from '../errors.js';
import { openSharedWorker } from '../distributed/shared-crawl.js';
import { sharedTarget, type SharedFlags } from '../distributed/shared-target.js';
import { positiveInt, proxySetting, requestHeader } from './option-parsers.js';
import { runToEnd } from './run-to-end.js';
import { withSharedOptions } from './shared-options.js';

export function registerWorker(program: Command): void {
  withSharedOptions(
    program
      .command('worker')
      .description('work on a shared crawl (Redis frontier, PostgreSQL repository) until it ends; start any number, on any machine'),
  )
    .option('--concurrency <n>', "this worker's requests in flight (default: the crawl's)", positiveInt)
    .option('--proxy <url>', "this worker's proxy, as crawl --proxy (default: HTTP_PROXY/HTTPS_PROXY with NO_PROXY when set)", proxySetting)
    .option('--header <header>', "this worker's request headers, as crawl --header (headers are never stored with the crawl)", requestHeader)
    .action(async (o: SharedFlags & { concurrency?: number; proxy?: string; header?: Record<string, string> }) => {
      const target = sharedTarget(o);
      if (!target) throw new FocusCrawlError('USAGE', 'worker needs a shared crawl: pass --name NAME with --redis URL and --pg URL (or FOCUSCRAWL_REDIS and FOCUSCRAWL_PG)');
      await runToEnd(await openSharedWorker(target, { ...(o.concurrency ? { concurrency: o.concurrency } : {}), ...(o.proxy ? { proxy: o.proxy } : {}), ...(o.header ? { headers: o.header } : {}) }));
    });
}
