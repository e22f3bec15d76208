import type { Command } from 'commander';
import { FocusCrawlError } from '../errors.js';
import { sharedTarget, type SharedFlags } from '../distributed/shared-target.js';
import { positiveInt, tcpPort } from './option-parsers.js';
import { proxySetting, requestHeader } from './crawl-option-parsers.js';
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
    .option('--metrics-port <n>', "serve this worker's Prometheus metrics at http://127.0.0.1:N/metrics while it runs, as crawl --metrics-port (one port per worker on a machine)", tcpPort(false))
    .action(async (o: SharedFlags & { concurrency?: number; proxy?: string; header?: Record<string, string>; metricsPort?: number }) => {
      const target = sharedTarget(o);
      if (!target) throw new FocusCrawlError('USAGE', 'worker needs a shared crawl: pass --name NAME with --redis URL and --pg URL (or FOCUSCRAWL_REDIS and FOCUSCRAWL_PG)');
      // Bound before the worker joins, so a port in use fails before any URL is leased.
      // Loaded when asked for: prom-client is much of the CLI's start-up.
      const metrics = o.metricsPort !== undefined ? await (await import('./metrics-endpoint.js')).metricsEndpoint(o.metricsPort) : null;
      try {
        const { openSharedWorker } = await import('../distributed/shared-crawl.js');
          const worker = await openSharedWorker(target, { ...(o.concurrency ? { concurrency: o.concurrency } : {}), ...(o.proxy ? { proxy: o.proxy } : {}), ...(o.header ? { headers: o.header } : {}) });
        metrics?.attach(worker.crawler);
        await runToEnd(worker);
      } finally {
        await metrics?.close();
      }
    });
}
