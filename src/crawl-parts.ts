import { FocusCrawlError } from './errors.js';
import { proxyFor, type CrawlConfig } from './config/crawl-config.js';
import { CrawlScope } from './engine/crawl-scope.js';
import { Crawler, type CrawlerOptions } from './engine/crawler.js';
import type { Strategy } from './strategies/strategy.js';
import type { Frontier } from './frontier/frontier.js';
import type { Store } from './store/store.js';
import type { ServiceRegistry } from './services/service-registry.js';
import { HttpFetcher } from './fetch/http-fetcher.js';
import { AddressPolicy, robotsFetcher } from './fetch/address-policy.js';
import type { Fetcher } from './fetch/fetcher.js';
import { resolveMapOf } from './fetch/resolve-map.js';
import { RobotsCache } from './fetch/robots-cache.js';
import { robotsAgentOf } from './fetch/robots-agent.js';
import { HostHealth, trackHealth } from './fetch/host-health.js';
import { TrapGuard } from './engine/trap-guard.js';
import { hostOf, normalizeUrl } from './parse/normalize-url.js';
import { topicFromFile, type Topic, type TopicFile } from './relevance/topic.js';
import { parseServiceTypes, ServiceDetection } from './services/service-detection.js';
import { createStrategy, defaultStrategyName } from './strategies/registry.js';
import type { LabelFeed } from './engine/label-feed.js';
import { PolitenessWatch } from './frontier/politeness-watch.js';
import { WatchedFrontier } from './frontier/watched-frontier.js';
import type { PolitenessStore } from './store/politeness-store.js';

/**
 * The parts every crawl is assembled from, whatever backend holds its frontier and repository:
 * the fetcher, the strategy and scope, the network guards and the Crawler. The embedded crawl
 * (crawl.ts) and the shared workers (distributed/shared-crawl.ts) build theirs here.
 */

// In a file of their own: status, drop and rebuild read them without loading the crawl.
export { heartbeatWindowMs, reapIntervalMs } from './frontier/lease-timing.js';
import { reapIntervalMs } from './frontier/lease-timing.js';

/** How often a running crawl records its hosts' politeness for readers (serve reads once a second). */
const POLITENESS_RECORD_MS = 2000;

/** The network (undici), or a recording with `replay`; wrapped to write a WARC with `record`. */
export async function makeFetcher(config: CrawlConfig): Promise<Fetcher> {
  // The WARC reader and writer (warcio) load only for --replay and --record.
  const resolve = resolveMapOf(config.resolve);
  const base: Fetcher = config.replay
    ? await (await import('./fetch/replay-fetcher.js')).ReplayFetcher.open(config.replay, config.maxRedirects)
    : new HttpFetcher({
        userAgent: config.userAgent,
        connectTimeoutMs: config.connectTimeoutMs,
        headersTimeoutMs: config.headersTimeoutMs,
        bodyTimeoutMs: config.bodyTimeoutMs,
        totalTimeoutMs: config.totalTimeoutMs,
        maxBytes: config.maxBytes,
        maxDecompressedBytes: config.maxDecompressedBytes,
        maxRedirects: config.maxRedirects,
        connectionsPerOrigin: Math.max(config.perHost, 1),
        lowSpeedLimit: config.lowSpeedLimit,
        lowSpeedTimeMs: config.lowSpeedTimeMs,
        addressPolicy: config.allowPrivate ? null : new AddressPolicy([...config.seeds, ...config.hosts, ...resolve.addresses()]),
        resolve,
        proxy: proxyFor(config.proxy),
        headers: config.headers,
        credentialHosts: seedHosts(config.seeds),
        cookies: config.cookies,
      });
  return config.record ? (await import('./fetch/recording-fetcher.js')).RecordingFetcher.open(base, config.record) : base;
}

/** The hosts of the seeds, as URL.host spells them. */
function seedHosts(seeds: readonly string[]): string[] {
  return seeds.map((s) => normalizeUrl(s)).filter((s): s is string => s !== null).map(hostOf);
}

/** What a caller of the library may plug in besides the config. */
export interface CrawlParts {
  /** Replaces the network fetcher (tests, replay). */
  fetcher?: Fetcher;
  /**
   * A strategy object instead of `config.strategy` (one that needs more than a topic, such as the
   * group crawler's). Pages are scored with the crawl's topic when it has one (the object sees
   * that score as PageView.relevance), else with the object's own `topic`.
   */
  strategy?: Strategy;
  /** Lets a crawl into an existing database replace the topic stored there with a different one (or none). */
  force?: boolean;
  /** What readers of the database are told is running: 'crawl' by default. */
  command?: string;
}

/** A --hosts entry as URLs spell their host: 'HTTP://A.org:8080/' and 'a.org:8080' are both 'a.org:8080'. */
function hostEntry(entry: string): string {
  const e = entry.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(e)) return e.toLowerCase();
  if (!URL.canParse(e)) throw new FocusCrawlError('USAGE', `--hosts: '${entry}' is not a host`);
  return new URL(e).host;
}

/**
 * A strategy object given by the caller, scoring pages with the crawl's topic. The crawl scores
 * with its strategy's topic: an object written with `topic: null` made a crawl given a topic store
 * every page without a relevance (and count none relevant), the topic silently unused.
 */
function scoringWith(strategy: Strategy, topic: Topic | null): Strategy {
  if (topic === null || strategy.topic === topic) return strategy;
  return new Proxy(strategy, {
    get(target, key) {
      if (key === 'topic') return topic;
      const value: unknown = Reflect.get(target, key, target);
      // Called on the object itself: a class with #private fields refuses a proxy as `this`.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The parts of a crawl that need no database: built first, so that invalid options create no file. */
export function plan(config: CrawlConfig, topicFile: TopicFile | null, parts: CrawlParts) {
  const topic = topicFile ? topicFromFile(topicFile) : null;
  const strategy = parts.strategy
    ? scoringWith(parts.strategy, topic)
    : createStrategy(config.strategy ?? defaultStrategyName(topic !== null), topic, config.strategyOptions);
  const scope = new CrawlScope(seedHosts(config.seeds), {
    mode: config.scope,
    hosts: config.hosts.map(hostEntry),
    allow: config.allow.map((r) => new RegExp(r)),
    deny: config.deny.map((r) => new RegExp(r)),
    maxUrlLength: config.maxUrlLength,
  });
  return { strategy, scope };
}

/** The network side of a crawl and its guards: the same whatever backend holds the frontier and the repository. */
export function crawlGuards(config: CrawlConfig, network: Fetcher) {
  // Every request (pages, robots.txt, probes) reports to the host health; the crawler reads it.
  const health = new HostHealth({ maxFailures: config.hostMaxFailures, downMs: config.hostDownMs, backoffBaseMs: config.retryBaseMs });
  const http = trackHealth(network, health);
  const traps = new TrapGuard({ maxUrlsPerPattern: config.maxUrlsPerPattern, maxParamValues: config.maxParamValues });
  const robots = config.robots ? new RobotsCache(robotsFetcher(http), { agent: robotsAgentOf(config.userAgent), unreachableRetryMs: config.robotsRetryMs }) : null;
  return { health, http, traps, robots };
}

/** A Crawler over any Frontier, Store and ServiceRegistry: the embedded crawl and the shared workers build theirs here. */
export function makeCrawler(
  config: CrawlConfig,
  planned: { strategy: Strategy; scope: CrawlScope },
  parts: {
    frontier: Frontier; store: Store; services: ServiceRegistry; guards: ReturnType<typeof crawlGuards>; checkpoint?: () => void; shared?: boolean;
    /** Where the hosts' politeness is recorded for readers; none: not recorded. */
    politeness?: PolitenessStore;
    /** The dashboard's labels, fed to the strategy while the crawl runs. */
    labels?: LabelFeed;
  },
): Crawler {
  const types = parseServiceTypes(config.detect);
  const { health, http, traps, robots } = parts.guards;
  const tasks: NonNullable<CrawlerOptions['tasks']> = [];
  let frontier = parts.frontier;
  if (parts.politeness) {
    const watch = new PolitenessWatch(config.replay ? 0 : config.delayMs);
    if (config.maxPagesPerHost > 0) watch.budget(config.maxPagesPerHost);
    frontier = new WatchedFrontier(frontier, watch);
    const store = parts.politeness;
    tasks.push({
      everyMs: POLITENESS_RECORD_MS,
      run: async () => {
        const budget = watch.drainBudget();
        if (budget !== undefined) await store.setBudget(budget);
        await store.record(watch.drain());
      },
    });
  }
  const feed = parts.labels;
  if (feed) tasks.push({ everyMs: config.labelPollMs, run: async () => void (await feed.poll()) });
  return new Crawler({
    frontier,
    tasks,
    store: parts.store,
    fetcher: http,
    robots,
    strategy: planned.strategy,
    scope: planned.scope,
    maxPages: config.maxPages,
    maxDepth: config.maxDepth,
    concurrency: config.concurrency,
    leaseMs: config.leaseMs,
    reapIntervalMs: reapIntervalMs(config.leaseMs),
    retry: { maxRetries: config.retries, baseDelayMs: config.retryBaseMs, maxRetryAfterMs: 60_000 },
    services: types.length ? { detection: new ServiceDetection(types), registry: parts.services } : null,
    stopWhenStalled: config.stopWhenStalled,
    checkpoint: parts.checkpoint,
    rediscovery: config.rediscovery,
    robotsAgent: robotsAgentOf(config.userAgent),
    delayMs: config.replay ? 0 : config.delayMs,
    // Every hop's wait and request inside one request's total time: a share of it per possible hop.
    maxHopWaitMs: Math.min(10_000, Math.floor(config.totalTimeoutMs / (config.maxRedirects + 2))),
    maxRedirects: config.maxRedirects,
    health,
    traps,
    sitemaps: config.sitemaps ? { maxUrls: config.sitemapMaxUrls, maxBytes: config.sitemapMaxBytes, perSite: config.sitemapsPerSite, levels: 2 } : null,
    ...(parts.shared ? { shared: true } : {}),
    ...(config.replay ? { replaying: true } : {}),
  });
}
