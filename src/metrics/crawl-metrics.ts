import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CrawlEventBus } from '../engine/crawl-events.js';
import type { CrawlStats } from '../engine/crawl-stats.js';
import { optionalGauge } from './optional-gauge.js';

/** What a running crawl offers the metrics: its typed events and its live statistics. */
export interface MetricsSource {
  events: CrawlEventBus;
  stats: CrawlStats;
  /** False for a crawl without a topic: nothing is judged relevant. */
  hasTopic: boolean;
}

const STATES = ['waiting', 'fetching', 'done', 'error', 'discarded'] as const;

/**
 * The Prometheus metrics of a running crawl. Counters and the latency histogram follow the event
 * bus (so no fetch is missed between scrapes); gauges are read from crawler.stats at scrape time,
 * which the crawl loop keeps current anyway. Names are shared with readerMetrics where both can say
 * the same thing, so one dashboard panel works for `crawl --metrics-port` and `serve`.
 */
export function crawlMetrics(source: MetricsSource, registry = new Registry()): { registry: Registry; detach: () => void } {
  const registers = [registry];
  const fetches = new Counter({ name: 'focuscrawl_fetches_total', help: 'URLs that reached a final state after a fetch attempt, by outcome (done, error, not_requested)', labelNames: ['outcome'], registers });
  const bytes = new Counter({ name: 'focuscrawl_fetched_bytes_total', help: 'Response bytes received', registers });
  const latency = new Histogram({
    name: 'focuscrawl_fetch_duration_seconds',
    help: 'Time from request to the end of the body, per fetch that made a request',
    // Local sites answer in milliseconds, slow hosts in tens of seconds (the total timeout).
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const discarded = new Counter({ name: 'focuscrawl_discarded_total', help: 'URLs discarded before or instead of a fetch, by kind of reason', labelNames: ['kind'], registers });
  const retries = new Counter({ name: 'focuscrawl_retries_total', help: 'Failed fetches that wait for another attempt', registers });
  const probes = new Counter({ name: 'focuscrawl_service_probes_total', help: 'Service probes judged, by status', labelNames: ['status'], registers });
  const congestions = new Counter({ name: 'focuscrawl_writer_congestions_total', help: 'Times the store became congested (the crawl stopped claiming until it cleared)', registers });
  const congested = new Gauge({ name: 'focuscrawl_writer_congested', help: '1 while the store cannot keep up and the crawl stops claiming', registers });
  new Gauge({
    name: 'focuscrawl_frontier_urls',
    help: 'URLs in the frontier by state',
    labelNames: ['state'],
    registers,
    collect() {
      for (const s of STATES) this.set({ state: s }, source.stats.frontier[s]);
    },
  });
  optionalGauge({
    name: 'focuscrawl_relevant_pages',
    help: 'Relevant pages (relevance at or above the topic threshold); in a crawl, those found in this run; absent without a topic',
    registers,
    read: () => (source.hasTopic ? source.stats.relevant : null),
  });
  // The seen cache counts inside the frontier; the counters follow its running totals at scrape time.
  const seenHits = new Counter({ name: 'focuscrawl_seen_cache_hits_total', help: 'URL-seen cache hits (with --seen-cache)', registers });
  const seenMisses = new Counter({ name: 'focuscrawl_seen_cache_misses_total', help: 'URL-seen cache misses, answered by the database index (with --seen-cache)', registers });
  let seenAt = { cacheHits: 0, cacheMisses: 0 };
  const syncSeen = () => {
    const now = source.stats.seen;
    if (!now) return;
    if (now.cacheHits > seenAt.cacheHits) seenHits.inc(now.cacheHits - seenAt.cacheHits);
    if (now.cacheMisses > seenAt.cacheMisses) seenMisses.inc(now.cacheMisses - seenAt.cacheMisses);
    seenAt = { ...now };
  };
  new Gauge({ name: 'focuscrawl_seen_cache_enabled', help: '1 when the crawl uses a URL-seen cache', registers, collect() { syncSeen(); this.set(source.stats.seen ? 1 : 0); } });

  const off = [
    source.events.on('fetched', (e) => {
      fetches.inc({ outcome: e.requested ? e.state : 'not_requested' });
      if (!e.requested) return;
      bytes.inc(e.bytes);
      latency.observe(e.fetchMs / 1000);
    }),
    source.events.on('discarded', (e) => discarded.inc({ kind: e.kind })),
    source.events.on('retried', () => retries.inc()),
    source.events.on('probe', (e) => probes.inc({ status: e.status })),
    source.events.on('backlog', (e) => {
      congested.set(e.congested ? 1 : 0);
      if (e.congested) congestions.inc();
    }),
  ];
  return { registry, detach: () => off.forEach((f) => f()) };
}
