import { FocusCrawlError } from './errors.js';
import { crawlConfigSchema, type CrawlConfig, type CrawlConfigInput } from './config/crawl-config.js';
import { applyPreset } from './config/presets.js';
import { CrawlScope } from './engine/crawl-scope.js';
import { Crawler, type CrawlerOptions, type CrawlSummary } from './engine/crawler.js';
import type { Strategy } from './strategies/strategy.js';
import { HttpFetcher } from './fetch/http-fetcher.js';
import type { Fetcher } from './fetch/fetcher.js';
import { RecordingFetcher } from './fetch/recording-fetcher.js';
import { ReplayFetcher } from './fetch/replay-fetcher.js';
import { RobotsCache } from './fetch/robots-cache.js';
import { HostHealth, trackHealth } from './fetch/host-health.js';
import { TrapGuard } from './engine/trap-guard.js';
import { SqliteFrontier } from './frontier/sqlite-frontier.js';
import { hostOf, normalizeUrl } from './parse/normalize-url.js';
import { loadTopicFile, topicFromFile, type TopicFile } from './relevance/topic.js';
import { SqliteDb } from './store/sqlite-db.js';
import { SqliteStore } from './store/sqlite-store.js';
import { SqliteServiceRegistry } from './store/sqlite-service-registry.js';
import { parseServiceTypes, ServiceDetection } from './services/service-detection.js';
import { createStrategy, defaultStrategyName } from './strategies/registry.js';

/** An open crawl: the crawler and the resources to release. */
export interface OpenCrawl {
  config: CrawlConfig;
  crawler: Crawler;
  strategy: Strategy;
  db: SqliteDb;
  store: SqliteStore;
  /** The service registry (empty unless the crawl detects services). */
  services: SqliteServiceRegistry;
  frontier: SqliteFrontier;
  run(): Promise<CrawlSummary>;
  close(): Promise<void>;
}

function resolveTopic(topic: CrawlConfig['topic']): TopicFile | null {
  if (topic === null) return null;
  return typeof topic === 'string' ? loadTopicFile(topic) : topic;
}

/** The network (undici), or a recording with `replay`; wrapped to write a WARC with `record`. */
async function makeFetcher(config: CrawlConfig): Promise<Fetcher> {
  const base: Fetcher = config.replay
    ? await ReplayFetcher.open(config.replay, config.maxRedirects)
    : new HttpFetcher({
        userAgent: config.userAgent,
        connectTimeoutMs: config.connectTimeoutMs,
        headersTimeoutMs: config.headersTimeoutMs,
        bodyTimeoutMs: config.bodyTimeoutMs,
        totalTimeoutMs: config.totalTimeoutMs,
        lowSpeedLimit: config.lowSpeedLimit,
        lowSpeedTimeMs: config.lowSpeedTimeMs,
        maxBytes: config.maxBytes,
        maxDecompressedBytes: config.maxDecompressedBytes,
        maxRedirects: config.maxRedirects,
        connectionsPerOrigin: Math.max(config.perHost, 1),
      });
  return config.record ? RecordingFetcher.open(base, config.record) : base;
}

/** What a caller of the library may plug in besides the config. */
export interface CrawlParts {
  /** Replaces the network fetcher (tests, replay). */
  fetcher?: Fetcher;
  /** A strategy object instead of `config.strategy` (one that needs more than a topic, such as the group crawler's). */
  strategy?: Strategy;
  /** Called when a URL has been fetched (done or error). */
  onFetched?: CrawlerOptions['onFetched'];
}

/** Stores what a learning strategy learned, through the writer: a resumed crawl restores it. */
function strategyCheckpoint(db: SqliteDb, strategy: Strategy): () => void {
  const save = db.prepareWrite('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  return () => db.write(save, ['strategyState', JSON.stringify(strategy.snapshot!())]);
}

/**
 * What a resumed crawl needs from earlier runs besides its frontier: the fetches per URL pattern
 * (so the pattern cap holds across runs) and the errors that made no request (not in the budget).
 */
function restoreEarlierRuns(db: SqliteDb, traps: TrapGuard): number {
  const noRequest = "(reason LIKE 'host unreachable: %' OR reason LIKE 'robots.txt unreachable%')";
  if (traps.options.maxUrlsPerPattern > 0) {
    const fetched = db.db.prepare(`SELECT url FROM urls WHERE probe IS NULL AND (state = 2 OR (state = 3 AND NOT ${noRequest}))`).pluck();
    for (const url of fetched.iterate() as Iterable<string>) traps.fetched(url);
  }
  return db.db.prepare(`SELECT count(*) FROM urls WHERE state = 3 AND ${noRequest}`).pluck().get() as number;
}

function build(config: CrawlConfig, db: SqliteDb, topicFile: TopicFile | null, network: Fetcher, parts: CrawlParts = {}): OpenCrawl {
  // Every request (pages, robots.txt, probes) reports to the host health; the crawler reads it.
  const health = new HostHealth({ maxFailures: config.hostMaxFailures, downMs: config.hostDownMs, backoffBaseMs: config.retryBaseMs });
  const http = trackHealth(network, health);
  const traps = new TrapGuard({ maxUrlsPerPattern: config.maxUrlsPerPattern, maxParamValues: config.maxParamValues });
  const notFetchedBefore = restoreEarlierRuns(db, traps);
  const topic = topicFile ? topicFromFile(topicFile) : null;
  const strategy = parts.strategy ?? createStrategy(config.strategy ?? defaultStrategyName(topic !== null), topic, config.strategyOptions);
  const learned = strategy.restore ? db.getMeta('strategyState') : null;
  if (learned && strategy.restore) strategy.restore(JSON.parse(learned));
  const frontier = new SqliteFrontier(db, { perHost: config.perHost, delayMs: config.delayMs }, config.seenCache);
  const store = new SqliteStore(db);
  const services = new SqliteServiceRegistry(db);
  const types = parseServiceTypes(config.detect);
  const robots = config.robots ? new RobotsCache(http, { agent: 'focuscrawl', unreachableRetryMs: config.robotsRetryMs }) : null;
  const seedHosts = config.seeds.map((s) => normalizeUrl(s)).filter((s): s is string => s !== null).map(hostOf);
  const scope = new CrawlScope(seedHosts, {
    mode: config.scope,
    hosts: config.hosts,
    allow: config.allow.map((r) => new RegExp(r)),
    deny: config.deny.map((r) => new RegExp(r)),
  });
  const crawler = new Crawler({
    frontier,
    store,
    fetcher: http,
    robots,
    strategy,
    scope,
    maxPages: config.maxPages,
    maxDepth: config.maxDepth,
    concurrency: config.concurrency,
    retry: { maxRetries: config.retries, baseDelayMs: config.retryBaseMs, maxRetryAfterMs: 60_000 },
    flush: () => db.flush(),
    congested: () => db.congested,
    services: types.length ? { detection: new ServiceDetection(types), registry: services } : null,
    onFetched: parts.onFetched,
    stopWhenStalled: config.stopWhenStalled,
    checkpoint: strategy.snapshot ? strategyCheckpoint(db, strategy) : undefined,
    rediscovery: config.rediscovery,
    health,
    traps,
    notFetchedBefore,
  });
  return {
    config,
    crawler,
    strategy,
    db,
    store,
    services,
    frontier,
    async run() {
      const summary = await crawler.run();
      // Why the last run ended, for status: a crawl that ran dry says so after the process is gone.
      db.flush();
      await db.settle();
      db.setMetaNow('lastRun', JSON.stringify({ reason: summary.reason, endedAt: new Date().toISOString(), fetched: summary.stats.fetched, discardedBy: summary.stats.discardedBy }));
      // The last pages' batch of the full-text index; close() (or search) waits for it.
      store.indexPending();
      db.flush();
      return summary;
    },
    async close() {
      await http.close();
      await db.close();
    },
  };
}

/**
 * Starts a crawl into `config.db` (created if missing). Seeds are added to whatever the database
 * already holds, so starting again on an existing database continues it.
 */
export async function startCrawl(input: CrawlConfigInput, opts: CrawlParts = {}): Promise<OpenCrawl> {
  const parsed = crawlConfigSchema.safeParse(applyPreset(input));
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new FocusCrawlError('CONFIG', `crawl option '${i.path.join('.') || '(top level)'}': ${i.message}`);
  }
  const config = parsed.data;
  if (!config.seeds.length) throw new FocusCrawlError('USAGE', 'no seed URLs: pass --seeds URL... or --seeds-file FILE');
  if (config.stopWhenStalled > 0 && config.topic === null) throw new FocusCrawlError('USAGE', '--stop-when-stalled needs a topic: pass --topic FILE');
  const topicFile = resolveTopic(config.topic);
  const db = new SqliteDb(config.db, { create: true, writer: 'thread' });
  try {
    // Stored inline so that resume needs neither the config nor the topic file.
    db.setMetaNow('config', JSON.stringify({ ...config, topic: topicFile }));
    const crawl = build({ ...config, topic: topicFile }, db, topicFile, opts.fetcher ?? (await makeFetcher(config)), opts);
    await crawl.crawler.addSeeds(config.seeds);
    return crawl;
  } catch (err) {
    await db.close();
    throw err;
  }
}

/** Reopens a crawl database and continues where it stopped; `overrides` may raise maxPages etc. */
export async function resumeCrawl(dbPath: string, overrides: Partial<CrawlConfig> = {}, opts: { fetcher?: Fetcher } = {}): Promise<OpenCrawl> {
  const db = new SqliteDb(dbPath, { create: false, writer: 'thread' });
  try {
    const stored = db.getMeta('config');
    if (!stored) throw new FocusCrawlError('STORE', `${dbPath} holds no crawl to resume (no stored config)`);
    if (db.getMeta('driver') === 'group') {
      throw new FocusCrawlError('USAGE', `${dbPath} holds a group crawl: run 'focuscrawl group' again with the same --db, --sites and --examples to continue it`);
    }
    const config = crawlConfigSchema.parse({ ...(JSON.parse(stored) as object), ...overrides, db: dbPath });
    db.setMetaNow('config', JSON.stringify(config));
    return build(config, db, config.topic as TopicFile | null, opts.fetcher ?? (await makeFetcher(config)));
  } catch (err) {
    await db.close();
    throw err;
  }
}
