import { Gauge, Registry } from 'prom-client';
import type { CrawlReader } from '../store/crawl-reader.js';
import { optionalGauge } from './optional-gauge.js';

const STATES = ['waiting', 'fetching', 'done', 'error', 'discarded'] as const;

/**
 * The metrics `serve` can give from the read model alone (a crawl in another process, or one that
 * has ended): gauges read at scrape time. Fetch latency, bytes and the seen cache live only in the
 * crawling process: scrape `crawl --metrics-port` for those.
 */
export function readerMetrics(reader: CrawlReader, registry = new Registry()): Registry {
  const registers = [registry];
  new Gauge({
    name: 'focuscrawl_frontier_urls',
    help: 'URLs in the frontier by state',
    labelNames: ['state'],
    registers,
    async collect() {
      const c = await reader.urlCounts();
      for (const s of STATES) this.set({ state: s }, c[s]);
    },
  });
  new Gauge({
    name: 'focuscrawl_pages_stored',
    help: 'Pages stored in the repository',
    registers,
    async collect() {
      this.set(await reader.pageCount());
    },
  });
  optionalGauge({
    name: 'focuscrawl_relevant_pages',
    help: 'Relevant pages (relevance at or above the topic threshold) over the whole crawl; absent without a topic',
    registers,
    read: async () => {
      const threshold = (await reader.config())?.topic?.threshold;
      return threshold === undefined ? null : reader.countRelevant(threshold);
    },
  });
  new Gauge({
    name: 'focuscrawl_discarded_urls',
    help: 'Discarded URLs over the whole crawl, by kind of reason',
    labelNames: ['kind'],
    registers,
    async collect() {
      this.reset();
      for (const [kind, n] of Object.entries(await reader.discardedByKind())) this.set({ kind }, n);
    },
  });
  return registry;
}
