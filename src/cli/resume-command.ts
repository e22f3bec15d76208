import type { Command } from 'commander';
import { resumeCrawl, type ResumeOverrides } from '../crawl.js';
import { positiveInt, tcpPort } from './option-parsers.js';
import { proxySetting, requestHeader } from './crawl-option-parsers.js';
import { runToEnd } from './run-to-end.js';
import { FocusCrawlError } from '../errors.js';
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
    .option('--metrics-port <n>', 'serve Prometheus metrics at http://127.0.0.1:N/metrics while the crawl runs, as crawl --metrics-port', tcpPort(false))
    .action(async (o: SharedFlags & { db?: string; maxPages?: number; concurrency?: number; topic?: string; force?: boolean; allowPrivate?: boolean; proxy?: string; header?: Record<string, string>; metricsPort?: number }) => {
      const target = sharedTarget(o);
      if (target && (o.db || o.topic !== undefined || o.allowPrivate)) throw new FocusCrawlError('USAGE', 'resume of a shared crawl takes --max-pages and --concurrency; --db, --topic and --allow-private are for the embedded crawl');
      // Bound before the crawl opens, so a port in use fails with the database untouched. A crawl
      // resumed after kill -9 (the usual way to continue one) had no way to its metrics.
      // Loaded when asked for: prom-client is much of the CLI's start-up.
      const metrics = o.metricsPort !== undefined ? await (await import('./metrics-endpoint.js')).metricsEndpoint(o.metricsPort) : null;
      try {
        if (target) {
          const { openSharedWorker } = await import('../distributed/shared-crawl.js');
          const worker = await openSharedWorker(target, { ...(o.concurrency ? { concurrency: o.concurrency } : {}), ...(o.maxPages ? { maxPages: o.maxPages } : {}), ...(o.proxy ? { proxy: o.proxy } : {}), ...(o.header ? { headers: o.header } : {}) });
          metrics?.attach(worker.crawler);
          await runToEnd(worker);
          return;
        }
        const overrides: ResumeOverrides = {};
        if (o.maxPages) overrides.maxPages = o.maxPages;
        if (o.concurrency) overrides.concurrency = o.concurrency;
        if (o.allowPrivate) overrides.allowPrivate = true;
        if (o.proxy) overrides.proxy = o.proxy;
        if (o.header) overrides.headers = o.header;
        const crawl = await resumeCrawl(o.db ?? 'focuscrawl.db', overrides, { ...(o.topic !== undefined ? { topic: o.topic } : {}), force: o.force === true });
        metrics?.attach(crawl.crawler);
        await runToEnd(crawl);
      } finally {
        await metrics?.close();
      }
    });
}
