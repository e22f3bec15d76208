import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { FocusCrawlError } from '../errors.js';
import { checkSeedLengths, checkNewSettings, crawlConfigSchema, missingHeadersNote, proxyNote, storableConfig, type CrawlConfig, type CrawlConfigInput } from '../config/crawl-config.js';
import { applyPreset } from '../config/presets.js';
import { optionMessage } from '../config/option-issue.js';
import { checkInlineTopic, checkParts, checkStrategyPart, CRAWL_OPTION_NAMES, givenOnly, noSeeds } from '../config/library-arguments.js';
import { topicChange } from '../config/topic-change.js';
import { joinedSeeds, restartNote } from '../config/restart.js';
import type { RunnableCrawl } from '../crawl.js';
import { crawlGuards, makeCrawler, makeFetcher, plan } from '../crawl-parts.js';
import type { CrawlSummary } from '../engine/crawler.js';
import type { Fetcher } from '../fetch/fetcher.js';
import { RedisFrontier } from '../frontier/redis-frontier.js';
import { loadTopicFile, type TopicFile } from '../relevance/topic.js';
import { PgStore } from '../store/pg-store.js';
import { PgPolitenessStore } from '../store/pg-politeness-store.js';
import { LabelFeed } from '../engine/label-feed.js';
import type { Strategy } from '../strategies/strategy.js';
import { checkSharedTarget, pgSchema, redact, redisDatabase, redisPrefix, type SharedTarget } from './shared-target.js';
import { dropCrawlKeys } from './drop-crawl-keys.js';
import { CreationLock } from './creation-lock.js';
import { EvidenceExchange, type ExchangeCounts } from './evidence-exchange.js';
import { StrategyCheckpoint } from './strategy-checkpoint.js';
import { explainFailure, halfRebuilt, lostFrontier, runFailure } from './worker-failure.js';
import { parseStored } from '../store/stored-json.js';
import { topicKey } from '../strategies/strategy-state.js';

/** A shared crawl opened by this process: a worker, or the command that created and seeded it. */
export interface SharedCrawl extends RunnableCrawl {
  frontier: RedisFrontier;
  pg: PgStore;
  redis: Redis;
  target: SharedTarget;
  /** Of the seeds given to startSharedCrawl, those new to the crawl (the others were already known). */
  seedsAdded?: number;
}

/**
 * Seen-set buckets for a crawl of `maxPages` fetches: about 10 URLs seen a page, about 256 a
 * bucket, so buckets stay intsets (up to 512) even at twice the estimate. Fixed at creation.
 */
export function seenBucketBitsFor(maxPages: number): number {
  return Math.min(16, Math.max(4, Math.ceil(Math.log2((maxPages * 10) / 256))));
}

export { pgSchema, redisPrefix } from './shared-target.js';
export { lostFrontier } from './worker-failure.js';

/**
 * Connects to Redis, failing with a message that names it and the reason. A connection lost later
 * is retried with backoff by the client (about 20 s in all); a command that cannot be sent by then
 * fails, the worker stops, and the URLs it held return to waiting when their leases expire.
 */
export async function connectRedis(url: string): Promise<Redis> {
  let lastError = '';
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 20,
    retryStrategy: (n) => (n > 20 ? null : Math.min(100 * n, 2000)),
    connectionName: `focuscrawl ${hostname()} ${process.pid}`,
  });
  // Errors surface through the commands that fail; the event only keeps the reason for the message.
  redis.on('error', (err: Error) => {
    lastError = err.message;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    const reason = lastError || (err as Error).message;
    throw refusedCredentials(url, reason) ?? new FocusCrawlError('STORE', `cannot reach Redis at ${redact(url)}: ${reason}`);
  }
  // A SELECT the server refuses (a database past its count) leaves the connection on database 0.
  const wanted = redisDatabase(url);
  if (wanted !== null && wanted !== 0) {
    const info = await redis.client('INFO').catch(() => null);
    const selected = typeof info === 'string' ? /\bdb=(\d+)/.exec(info)?.[1] : undefined;
    if (selected !== undefined && Number(selected) !== wanted) {
      redis.disconnect();
      throw new FocusCrawlError('CONFIG', `Redis at ${redact(url)} has no database ${wanted}${lastError ? ` (${lastError})` : ''}`);
    }
  }
  return redis;
}

/**
 * Redis answered and refused who we said we are: a configuration error (CONFIG, exit 2), not an
 * unreachable service, so that readers that carry on without Redis do not carry on past it.
 */
function refusedCredentials(url: string, reason: string): FocusCrawlError | null {
  const line = reason.replace(/\.$/, '');
  if (/^NOAUTH\b/.test(line)) return new FocusCrawlError('CONFIG', `Redis at ${redact(url)} asks for a password (${line}): give it in the URL, redis://:PASSWORD@host:port (--redis or FOCUSCRAWL_REDIS)`);
  if (/^(WRONGPASS|NOPERM)\b|invalid password/i.test(line)) return new FocusCrawlError('CONFIG', `Redis at ${redact(url)} refused the user or password in the URL (${line}): check --redis or FOCUSCRAWL_REDIS`);
  return null;
}

function parseConfig(input: CrawlConfigInput, where: string): CrawlConfig {
  const parsed = crawlConfigSchema.safeParse(applyPreset(input));
  if (!parsed.success) throw new FocusCrawlError('CONFIG', `${where}: ${optionMessage('crawl option', parsed.error, CRAWL_OPTION_NAMES, crawlConfigSchema)}`);
  return parsed.data;
}

/** What a worker may set for itself: checked as crawl options are, so that a typo or a 0 is refused, not ignored. */
const workerOptionsSchema = z.strictObject({
  concurrency: crawlConfigSchema.shape.concurrency.optional(),
  maxPages: crawlConfigSchema.shape.maxPages.optional(),
  proxy: crawlConfigSchema.shape.proxy.optional(),
  headers: crawlConfigSchema.shape.headers.optional(),
  fetcher: z.unknown().optional(),
  strategy: z.unknown().optional(),
});

/** The worker options the caller gave (a key set to undefined is not given), or a CONFIG error naming the one at fault. */
function checkWorkerOptions(opts: WorkerOptions | null | undefined): WorkerOptions {
  const given = givenOnly(opts);
  // The check's output is not used: it would fill in the defaults the stored config must keep.
  const checked = workerOptionsSchema.safeParse(given);
  if (!checked.success) throw new FocusCrawlError('CONFIG', optionMessage('worker option', checked.error, Object.keys(workerOptionsSchema.shape)));
  if (typeof given.strategy !== 'undefined' && (typeof given.strategy !== 'object' || given.strategy === null)) {
    throw new FocusCrawlError('CONFIG', "worker option 'strategy': a strategy object (the crawl's built-in strategy is the stored one)");
  }
  return given;
}

/** The crawl's frontier as every worker opens it: the same shards, buckets and politeness for all. */
export function sharedFrontier(redis: Redis, config: CrawlConfig, name: string, worker: string, journal: PgStore | null): RedisFrontier {
  return new RedisFrontier(redis, {
    prefix: redisPrefix(name),
    politeness: { perHost: config.perHost, delayMs: config.delayMs },
    worker,
    ...(journal ? { journal } : {}),
    seenCache: config.seenCache > 0 ? config.seenCache : undefined,
    bucketBits: config.seenBucketBits ?? seenBucketBitsFor(config.maxPages),
  });
}

/**
 * Redis and PostgreSQL must agree on whether the crawl exists, before anything is written: a
 * crawl PostgreSQL holds (`existing`) with nothing in Redis lost its frontier; a new one must find
 * no keys of its name (a crawl whose schema was dropped), unless `force` drops them.
 */
async function checkRedisAgrees(redis: Redis, config: CrawlConfig, target: SharedTarget, existing: boolean, force: boolean, notes: string[]): Promise<void> {
  const present = await sharedFrontier(redis, config, target.name, 'check', null).present();
  if (existing && !present) throw lostFrontier(target);
  if (!existing && present) {
    if (!force) {
      throw new FocusCrawlError('USAGE', `Redis at ${redact(target.redis)} holds keys of a crawl named '${target.name}' that PostgreSQL does not know (its schema was dropped?): give --force to drop them, or choose another --name`);
    }
    await dropCrawlKeys(redis, redisPrefix(target.name));
    notes.push(`dropped the Redis keys of an earlier crawl named '${target.name}' (--force)`);
  }
}

async function open(config: CrawlConfig, topicFile: TopicFile | null, target: SharedTarget, redis: Redis, pg: PgStore, network: Fetcher, notes: string[], strategy?: Strategy): Promise<SharedCrawl> {
  const planned = plan(config, topicFile, strategy ? { strategy } : {});
  const worker = `${hostname()}:${process.pid}`;
  const frontier = sharedFrontier(redis, config, target.name, worker, pg);
  const layout = await frontier.layout();
  if (layout === 'rebuilding') throw halfRebuilt(target);
  if (layout === 'earlier') {
    throw new FocusCrawlError('USAGE', `Redis at ${redact(target.redis)} holds crawl '${target.name}' in the layout of an earlier focuscrawl: stop its workers and run focuscrawl rebuild --name ${target.name} --force, which recreates it from PostgreSQL`);
  }
  // Every worker sets it from the stored config: the one resume --max-pages raised.
  await frontier.setPageBudget(config.maxPages);
  if (config.maxPagesPerHost > 0) await frontier.setHostBudget(config.maxPagesPerHost);
  // What the fetcher has to say (a replayed recording read only in part), as the embedded crawl says it.
  notes.push(...(network.notes ?? []));
  const guards = crawlGuards(config, network);
  const learner = planned.strategy;
  // Every worker feeds the labels to its own strategy: each learns all of them.
  const labels = learner.learnFromLabels ? new LabelFeed(pg.reader(), learner) : undefined;
  // What the crawl learned so far (the labels in it not fed again), as a resume of the embedded crawl restores it; the rest is heard (EvidenceExchange).
  const checkpoint = await StrategyCheckpoint.open(pg, learner, topicKey(topicFile), labels, notes);
  const fromLabels = labels ? await labels.poll() : 0;
  if (fromLabels) notes.push(`the ${learner.name} strategy learned from ${fromLabels} ${fromLabels === 1 ? 'page' : 'pages'} labelled in the dashboard`);
  // What the strategy knows of every fetched page (two-step: their relevance), from the record, as a resume reads it.
  if (learner.restorePages) for await (const pages of pg.reader().fetchedRelevance()) learner.restorePages(pages);
  const proxied = proxyNote(config.proxy);
  if (proxied) notes.push(proxied);
  const politeness = new PgPolitenessStore(pg.pool, pgSchema(target.name), pg.retryDelays);
  const crawler = makeCrawler(config, planned, { frontier, store: pg, services: pg.services, guards, shared: true, labels, politeness, checkpoint: checkpoint ? () => checkpoint.save() : undefined });
  // What each worker's copy of a learning strategy learns, every other worker's copy hears.
  // Pub/sub ignores the database: the channel names it, or crawls of one name in two databases would hear each other.
  const exchange = await EvidenceExchange.start(redis, `${redisPrefix(target.name)}:evidence:${redisDatabase(target.redis) ?? 0}`, learner);
  const where = `crawl '${target.name}' (Redis ${redact(target.redis)}, PostgreSQL ${redact(target.pg)})`;
  let failed = false;
  const shared: SharedCrawl = {
    config,
    crawler,
    frontier,
    pg,
    redis,
    target,
    where,
    store: pg,
    services: pg.services,
    notes,
    flushNow: () => void pg.flush(),
    // The aborted requests' URLs are released in Redis before the run ends (Crawler.#start), not left to their leases.
    onStop: 'requests in flight are abandoned and their URLs wait again at once, for any worker (pages already fetched are stored first)',
    summaryNotes: (summary) => {
      const fetched = summary.stats.fetched;
      const w = pg.writes;
      return [
        `Redis: ${frontier.roundTrips} round trips by this worker (${fetched ? (frontier.roundTrips / fetched).toFixed(2) : '-'} per page it fetched), ${frontier.lostLeases} leases lost to expiry`,
        `PostgreSQL: ${w.commits} commits, ${w.commits ? (w.ms / w.commits).toFixed(2) : '-'} ms each as this worker saw them, in ${pg.statements} statements (group commit, with the URLs admitted)`,
        ...(exchange ? [exchangeLine(learner.name, exchange.counts)] : []),
      ];
    },
    async run(): Promise<CrawlSummary> {
      try {
        const summary = await crawler.run();
        // The run's last checkpoint (Crawler.run saves one as it ends).
        await checkpoint?.settle();
        // Before the summary, which counts what was told.
        await exchange?.flush();
        await pg.setMeta('lastRun', JSON.stringify({ reason: summary.reason, endedAt: new Date().toISOString(), fetched: summary.stats.fetched, discardedBy: summary.stats.discardedBy, worker }));
        return summary;
      } catch (err) {
        failed = true;
        throw await runFailure(err, { redis, target, pool: pg.pool });
      }
    },
    async close() {
      try {
        await (failed && guards.http.destroy ? guards.http.destroy() : guards.http.close());
      } finally {
        await exchange?.close();
        await frontier.close();
        redis.disconnect();
        await checkpoint?.close();
        await pg.close();
      }
    },
  };
  return shared;
}

const exchangeLine = (strategy: string, c: ExchangeCounts) =>
  `${strategy}: told the other workers what it learned from ${c.told} pages (${c.messages} messages) and heard of ${c.heard} pages they fetched`;

/** Both services of a shared crawl; `join`: the crawl must exist (a worker, resume, rebuild), and nothing is created when it does not. */
export async function connectBoth(target: SharedTarget, o: { join?: boolean } = {}): Promise<{ redis: Redis; pg: PgStore }> {
  const redis = await connectRedis(target.redis);
  try {
    const missing = () => new FocusCrawlError('USAGE', `there is no crawl named '${target.name}' in PostgreSQL at ${redact(target.pg)}: start it with focuscrawl crawl --redis URL --pg URL --name ${target.name} --seeds URL...`);
    return { redis, pg: await PgStore.connect(target.pg, pgSchema(target.name), o.join ? { missing } : {}) };
  } catch (err) {
    redis.disconnect();
    throw err;
  }
}

/**
 * Creates the named crawl (its config stored in PostgreSQL) or joins it if it exists, and adds the
 * seeds to the shared frontier. The crawl is then run by this process and any number of workers.
 * A different topic for an existing crawl needs `force`, as with a crawl database.
 */
export async function startSharedCrawl(input: CrawlConfigInput, target: SharedTarget, opts: { force?: boolean; fetcher?: Fetcher } = {}): Promise<SharedCrawl> {
  target = checkSharedTarget(target, 'startSharedCrawl');
  checkParts('startSharedCrawl', opts, ['force', 'fetcher']);
  checkInlineTopic(input, `crawl '${target.name}': `);
  const config = parseConfig(input, `crawl '${target.name}'`);
  if (!config.seeds.length) throw noSeeds();
  checkSeedLengths(config);
  checkNewSettings(config);
  if (config.replay || config.record) throw new FocusCrawlError('USAGE', '--record and --replay are for the embedded crawl: a shared crawl fetches from the network');
  const topicFile = typeof config.topic === 'string' ? loadTopicFile(config.topic) : config.topic;
  plan({ ...config, topic: topicFile }, topicFile, {}); // every option is checked before anything is written
  const creation = await CreationLock.take(target);
  let redis: Redis;
  let pg: PgStore;
  try {
    ({ redis, pg } = await connectBoth(target));
  } catch (err) {
    await creation.release(true);
    throw err;
  }
  let crawl: SharedCrawl | null = null;
  try {
    const stored = await pg.getMeta('config');
    const label = `crawl '${target.name}'`;
    const previous = stored ? parseStored<Record<string, unknown> & { topic?: TopicFile | null; seeds?: string[]; seenBucketBits?: number | null }>(stored, 'config', label) : null;
    const notes = previous ? topicChange(label, previous.topic ?? null, topicFile, { force: opts.force === true, resume: false }) : [];
    // The bucket count of a crawl never changes: every worker must place a fingerprint alike.
    // Seeds join the stored ones: the earlier seeds' hosts stay in scope and their private addresses allowed.
    const full = {
      ...config,
      seeds: previous ? joinedSeeds(Array.isArray(previous.seeds) ? previous.seeds : [], config.seeds) : config.seeds,
      topic: topicFile,
      seenBucketBits: previous?.seenBucketBits ?? config.seenBucketBits ?? seenBucketBitsFor(config.maxPages),
    };
    const restarted = previous ? restartNote(label, previous, storableConfig(full), input) : null;
    if (restarted) notes.push(restarted);
    await checkRedisAgrees(redis, full, target, stored !== null, opts.force === true, notes);
    await pg.setMeta('config', JSON.stringify(storableConfig(full)));
    await pg.setMeta('headerNames', JSON.stringify(Object.keys(config.headers)));
    await creation.release(false);
    crawl = await open(full, topicFile, target, redis, pg, opts.fetcher ?? (await makeFetcher(full)), notes);
    crawl.seedsAdded = await crawl.crawler.addSeeds(config.seeds);
    return crawl;
  } catch (err) {
    // Explained while the connection's state still tells a lost Redis from any other failure.
    const explained = explainFailure(err, { redis, target });
    // Opened: its fetcher and the exchange's own Redis connection would hold the process.
    await crawl?.close().catch(() => {});
    redis.disconnect();
    await pg.close().catch(() => {});
    await creation.release(true);
    throw explained;
  }
}


/** What a worker may set for itself; `strategy`: an object instead of the stored config's strategy (tests, library callers), as CrawlParts.strategy. */
export interface WorkerOptions {
  concurrency?: number;
  maxPages?: number;
  proxy?: string;
  headers?: Record<string, string>;
  fetcher?: Fetcher;
  strategy?: Strategy;
}

/**
 * Joins a named crawl as a worker: the config comes from PostgreSQL; `concurrency` overrides this
 * worker's; `maxPages` raises the crawl's budget for every worker (stored, as `resume` does).
 */
export async function openSharedWorker(target: SharedTarget, options: WorkerOptions = {}): Promise<SharedCrawl> {
  // Checked before connecting: a bad option is the caller's fault whatever state the services are in.
  target = checkSharedTarget(target, 'openSharedWorker');
  const opts = checkWorkerOptions(options);
  checkStrategyPart('openSharedWorker', opts.strategy);
  const { redis, pg } = await connectBoth(target, { join: true });
  try {
    const stored = await pg.getMeta('config');
    if (!stored) {
      throw new FocusCrawlError('USAGE', `there is no crawl named '${target.name}' in PostgreSQL at ${redact(target.pg)}: start it with focuscrawl crawl --redis URL --pg URL --name ${target.name} --seeds URL...`);
    }
    const raw = parseStored<CrawlConfigInput>(stored, 'config', `crawl '${target.name}'`);
    if (opts.maxPages !== undefined && typeof raw.maxPages === 'number' && opts.maxPages < raw.maxPages) {
      throw new FocusCrawlError('USAGE', `--max-pages ${opts.maxPages} is below the budget of crawl '${target.name}', ${raw.maxPages}: resume raises the budget`);
    }
    if (opts.maxPages !== undefined) raw.maxPages = opts.maxPages;
    const config = parseConfig({ ...raw, ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}), ...(opts.proxy !== undefined ? { proxy: opts.proxy } : {}), ...(opts.headers !== undefined ? { headers: opts.headers } : {}) }, `crawl '${target.name}'`);
    const topicFile = config.topic as TopicFile | null;
    const headersNote = missingHeadersNote(parseStored<string[]>((await pg.getMeta('headerNames')) ?? '[]', 'headerNames', `crawl '${target.name}'`), opts.headers);
    await checkRedisAgrees(redis, config, target, true, false, []);
    // Stored once Redis agrees: a refused worker changes nothing.
    if (opts.maxPages !== undefined) await pg.setMeta('config', JSON.stringify(raw));
    return await open(config, topicFile, target, redis, pg, opts.fetcher ?? (await makeFetcher(config)), headersNote ? [headersNote] : [], opts.strategy);
  } catch (err) {
    redis.disconnect();
    await pg.close().catch(() => {});
    throw err;
  }
}
