import { existsSync, rmSync, statSync } from 'node:fs';
import { pageKindSql } from './frontier/request-kind.js';
import { isWarcFile } from './fetch/is-warc-file.js';
import { dirname, resolve } from 'node:path';
import { FocusCrawlError } from './errors.js';
import { checkSeedLengths, checkNewSettings, crawlConfigSchema, missingHeadersNote, proxyNote, storableConfig, type CrawlConfig, type CrawlConfigInput } from './config/crawl-config.js';
import { fetchedSql } from './fetch/made-no-request.js';
import { applyPreset } from './config/presets.js';
import { optionMessage } from './config/option-issue.js';
import { checkParts, checkStartOptions, checkStrategyPart, CRAWL_OPTION_NAMES, noSeeds, resumeOverrides, resumeTopic, type ResumeOverrides } from './config/library-arguments.js';
import { Crawler, type CrawlSummary } from './engine/crawler.js';
import type { Strategy } from './strategies/strategy.js';
import type { Store } from './store/store.js';
import type { ServiceRegistry } from './services/service-registry.js';
import type { Fetcher } from './fetch/fetcher.js';
import { TrapGuard } from './engine/trap-guard.js';
import { SqliteFrontier } from './frontier/sqlite-frontier.js';
import { loadTopicFile, type TopicFile, type TopicFileInput } from './relevance/topic.js';
import { SqliteDb } from './store/sqlite-db.js';
import { CrawlLock } from './store/crawl-lock.js';
import { checkIntact } from './store/db-integrity.js';
import { checkDbFile, sameFile } from './store/db-files.js';
import { topicChange } from './config/topic-change.js';
import { joinedSeeds, restartNote } from './config/restart.js';
import { SqliteStore } from './store/sqlite-store.js';
import { SqliteServiceRegistry } from './store/sqlite-service-registry.js';
import { LabelFeed } from './engine/label-feed.js';
import { SqlitePolitenessStore } from './store/sqlite-politeness-store.js';
import { SqliteCrawlReader } from './store/sqlite-crawl-reader.js';
import { crawlGuards, makeCrawler, makeFetcher, plan, type CrawlParts } from './crawl-parts.js';
import { normalizeUrl } from './parse/normalize-url.js';
import { parseStored } from './store/stored-json.js';
import { restoreStrategyState, STRATEGY_STATE, strategyStateJson, topicKey } from './strategies/strategy-state.js';

export type { ResumeOverrides } from './config/library-arguments.js';

/** A crawl ready to run, whatever holds it: what the CLI's progress and summary need. */
export interface RunnableCrawl {
  config: CrawlConfig;
  crawler: Crawler;
  /** Where the crawl is kept: the database file, or the shared crawl's name. */
  where: string;
  store: Store;
  services: ServiceRegistry;
  /** What the user should be told before the crawl starts. */
  notes: string[];
  run(): Promise<CrawlSummary>;
  close(): Promise<void>;
  /** Hands buffered writes over at once: a second Ctrl-C exits right after. */
  flushNow(): void;
  /** What stopping (Ctrl-C, SIGTERM) does to the URLs in flight, as the stop message says it. */
  onStop: string;
  /** Lines the summary adds for this kind of crawl (a shared worker's Redis figures). */
  summaryNotes?(summary: CrawlSummary): string[];
}

/** An open embedded crawl: the crawler and the resources to release. */
export interface OpenCrawl extends RunnableCrawl {
  config: CrawlConfig;
  crawler: Crawler;
  strategy: Strategy;
  db: SqliteDb;
  store: SqliteStore;
  /** The service registry (empty unless the crawl detects services). */
  services: SqliteServiceRegistry;
  frontier: SqliteFrontier;
  /** What the user should be told before the crawl starts (a topic added or switched). */
  notes: string[];
  run(): Promise<CrawlSummary>;
  /** Releases the fetcher, the database and its lock; after a failed run, without waiting for requests in flight. */
  close(): Promise<void>;
}

function resolveTopic(topic: CrawlConfig['topic']): TopicFile | null {
  if (topic === null) return null;
  return typeof topic === 'string' ? loadTopicFile(topic) : topic;
}

/** Stores what a learning strategy learned, through the writer: a resumed crawl restores it. */
function strategyCheckpoint(db: SqliteDb, strategy: Strategy, topic: string, labels: LabelFeed | undefined): () => void {
  const save = db.prepareWrite('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  return () => db.write(save, [STRATEGY_STATE, strategyStateJson(strategy, topic, labels)]);
}

/**
 * What a resumed crawl needs from earlier runs besides its frontier (which counts the errors that
 * made no request itself): the fetches per URL pattern, so the pattern cap holds across runs.
 */
function restoreEarlierRuns(db: SqliteDb, traps: TrapGuard): void {
  if (traps.options.maxUrlsPerPattern > 0) {
    const fetched = db.db.prepare(`SELECT url FROM urls WHERE ${pageKindSql('probe', 'sqlite')} AND ${fetchedSql()}`).pluck();
    for (const url of fetched.iterate() as Iterable<string>) traps.fetched(url);
  }
}

async function build(config: CrawlConfig, planned: ReturnType<typeof plan>, db: SqliteDb, lock: CrawlLock, network: Fetcher, _parts: CrawlParts, notes: string[]): Promise<OpenCrawl> {
  notes.push(...(network.notes ?? []));
  const guards = crawlGuards(config, network);
  const { http } = guards;
  restoreEarlierRuns(db, guards.traps);
  const { strategy } = planned;
  const labels = strategy.learnFromLabels ? new LabelFeed(new SqliteCrawlReader(db), strategy) : undefined;
  const topic = topicKey(config.topic);
  // What the strategy learned in earlier runs, with the labels it learned from (not fed again).
  const learned = strategy.restore ? db.getMeta(STRATEGY_STATE) : null;
  const unrestored = learned === null ? null : restoreStrategyState(learned, strategy, topic, labels);
  if (unrestored) notes.push(unrestored);
  // What the strategy knows of every fetched page (two-step: their relevance), read back from the log.
  if (strategy.restorePages) for await (const pages of new SqliteCrawlReader(db).fetchedRelevance()) strategy.restorePages(pages);
  // Labels given so far train the strategy now; those given while it runs, at the next poll.
  const fromLabels = labels ? await labels.poll() : 0;
  if (fromLabels) notes.push(`the ${strategy.name} strategy learned from ${fromLabels} ${fromLabels === 1 ? 'page' : 'pages'} labelled in the dashboard`);
  const proxied = proxyNote(config.proxy);
  if (proxied) notes.push(proxied);
  // A recording answers at once and nobody is behind it: a replay keeps no delay between requests.
  const frontier = new SqliteFrontier(db, { perHost: config.perHost, delayMs: config.replay ? 0 : config.delayMs }, config.seenCache, { memory: config.frontierMemory });
  if (config.maxPagesPerHost > 0) await frontier.setHostBudget(config.maxPagesPerHost);
  const store = new SqliteStore(db, { frontierRows: true });
  const services = new SqliteServiceRegistry(db);
  const crawler = makeCrawler(config, planned, {
    frontier, store, services, guards, labels,
    politeness: new SqlitePolitenessStore(db),
    checkpoint: strategy.snapshot ? strategyCheckpoint(db, strategy, topic, labels) : undefined,
  });
  let failed = false;
  let running: Promise<CrawlSummary> | null = null;
  let closing: Promise<void> | null = null;
  return {
    config,
    where: db.path,
    flushNow: () => db.flush(),
    onStop: 'requests in flight are abandoned and wait for resume',
    crawler,
    strategy,
    db,
    store,
    services,
    frontier,
    notes,
    run() {
      if (closing) return Promise.reject(new FocusCrawlError('USAGE', `the crawl of ${db.path} is closed: start or resume it again`));
      // A second run() while one is going is the same run.
      running ??= runOnce().finally(() => (running = null));
      return running;
    },
    close() {
      // Closing while a run goes stops it first, so that whoever awaits run() gets its summary;
      // a second close() is the same close.
      closing ??= (async () => {
        if (running) {
          crawler.stop({ finishInFlight: true });
          await running.catch(() => {});
        }
        await closeOnce();
      })();
      return closing;
    },
  };

  async function runOnce(): Promise<CrawlSummary> {
    try {
      // With lastRun, tells status a run killed between two requests (nothing leased) from one that ended.
      db.setMetaNow('runStarted', new Date().toISOString());
      const summary = await crawler.run();
      // Why the last run ended, for status: a crawl that ran dry says so after the process is gone.
      db.flush();
      await db.settle();
      db.setMetaNow('lastRun', JSON.stringify({ reason: summary.reason, endedAt: new Date().toISOString(), fetched: summary.stats.fetched, discardedBy: summary.stats.discardedBy }));
      // The last pages' batch of the full-text index; close() (or search) waits for it.
      store.indexPending();
      db.flush();
      return summary;
    } catch (err) {
      failed = true;
      throw err;
    }
  }

  async function closeOnce(): Promise<void> {
    try {
      // After a failure the requests still in flight have nowhere to go: end them now.
      await (failed && http.destroy ? http.destroy() : http.close());
    } finally {
      try {
        await db.close();
      } finally {
        lock.release();
      }
    }
  }
}

/** The crawl database's files, for removing one this call created and could not start. */
function removeDatabase(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}

/** Checks the files a crawl will read or write before anything is created. */
function checkFiles(config: CrawlConfig): void {
  if (config.replay && !existsSync(config.replay)) throw new FocusCrawlError('IO', `no recording at ${config.replay}`);
  if (config.replay && config.record && sameFile(config.replay, config.record)) {
    throw new FocusCrawlError('USAGE', `--record ${config.record} is the --replay recording: recording into it would append to what it replays; choose another file`);
  }
  checkDbFile(config.db);
  if (config.record && sameFile(config.record, config.db)) {
    throw new FocusCrawlError('USAGE', `--record ${config.record} is the crawl database: the WARC would be written into it; choose another file`);
  }
  // Records are appended: to a file that is no WARC (the topic file, another crawl's database) they would damage it.
  if (config.record && existsSync(config.record) && statSync(config.record).isFile() && !isWarcFile(config.record)) {
    throw new FocusCrawlError('USAGE', `--record ${config.record}: the file exists and is not a WARC recording, so appending records would damage it; choose another file`);
  }
  for (const [what, file] of [['crawl database', config.db], ['WARC', config.record]] as const) {
    const dir = file ? dirname(resolve(file)) : null;
    if (dir && !existsSync(dir)) throw new FocusCrawlError('IO', `cannot write ${what} ${file}: the folder ${dir} does not exist`);
  }
}

/**
 * Starts a crawl into `config.db` (created if missing). Seeds are added to whatever the database
 * already holds, so starting again on an existing database continues it. Every option is checked
 * before the database is created or locked; a second process on the same database fails at once
 * (see CrawlLock), and a damaged database is reported, not written to.
 */
export async function startCrawl(input: CrawlConfigInput, opts: CrawlParts = {}): Promise<OpenCrawl> {
  // `command` is the CLI's (which command holds the lock, and group's rules): not offered to callers.
  checkParts('startCrawl', opts, ['fetcher', 'strategy', 'force'], ['command']);
  checkStrategyPart('startCrawl', opts.strategy);
  checkStartOptions(input);
  const parsed = crawlConfigSchema.safeParse(applyPreset(input));
  if (!parsed.success) throw new FocusCrawlError('CONFIG', optionMessage('crawl option', parsed.error, CRAWL_OPTION_NAMES, crawlConfigSchema));
  const config = parsed.data;
  if (!config.seeds.length) throw noSeeds();
  checkSeedLengths(config);
  checkNewSettings(config);
  if (config.stopWhenStalled > 0 && config.topic === null) throw new FocusCrawlError('CONFIG', '--stop-when-stalled needs a topic: pass --topic FILE (the stopWhenStalled and topic options)');
  const topicFile = resolveTopic(config.topic);
  let planned = plan({ ...config, topic: topicFile }, topicFile, opts);
  checkFiles(config);
  const existed = existsSync(config.db);
  const lock = CrawlLock.acquire(config.db, opts.command ?? 'crawl');
  let db: SqliteDb | null = null;
  try {
    if (existed) checkIntact(config.db, { mayWrite: true });
    db = new SqliteDb(config.db, { create: true, writer: 'thread' });
    const stored = db.getMeta('config');
    const previous = stored ? parseStored<Record<string, unknown> & { topic?: TopicFile | null; seeds?: string[] }>(stored, 'config', config.db) : null;
    const notes = previous ? topicChange(config.db, previous.topic ?? null, topicFile, { force: opts.force === true, resume: false, command: opts.command }) : [];
    const given = config.seeds;
    // Starting again takes the options given now, the budget included, and adds the seeds to the
    // stored ones: the earlier seeds' hosts stay in scope and their private addresses allowed.
    if (previous) {
      config.seeds = joinedSeeds(Array.isArray(previous.seeds) ? previous.seeds : [], given);
      planned = plan({ ...config, topic: topicFile }, topicFile, opts);
      const note = restartNote(config.db, previous, storableConfig({ ...config, topic: topicFile }), input);
      if (note) notes.push(note);
    }
    // A group crawl and a topic crawl cannot continue each other: each would overwrite the
    // other's config, and resume refuses a database marked as a group crawl.
    const group = db.getMeta('driver') === 'group';
    if (stored && (opts.command === 'group') !== group) {
      throw new FocusCrawlError('USAGE', group
        ? `${config.db} holds a group crawl: run 'focuscrawl group' with it again, or give this crawl a database of its own (--db)`
        : `${config.db} holds a crawl made by 'focuscrawl crawl': give the group crawl a database of its own (--db)`);
    }
    // Stored inline so that resume needs neither the config nor the topic file.
    db.setMetaNow('config', JSON.stringify(storableConfig({ ...config, topic: topicFile })));
    // A strategy object cannot be stored: resume asks for it again rather than order the crawl another way.
    if (opts.strategy || db.getMeta(STRATEGY_OBJECT)) db.setMetaNow(STRATEGY_OBJECT, opts.strategy?.name ?? '');
    db.setMetaNow('headerNames', JSON.stringify(Object.keys(config.headers)));
    const crawl = await build({ ...config, topic: topicFile }, planned, db, lock, opts.fetcher ?? (await makeFetcher(config)), opts, notes);
    // The stored seeds are in the frontier already (resume adds any a killed start left out).
    await crawl.crawler.addSeeds(given);
    // The seeds are committed before the first request: a crawl killed at once can be resumed.
    await db.settle();
    return crawl;
  } catch (err) {
    await db?.close().catch(() => {});
    if (!existed) removeDatabase(config.db);
    // The lock file goes too when this run made it and the file is no crawl database (missing, or
    // refused on opening): a stray `-lock` must not stay beside the user's file. Not once the
    // database opened: another process may be waiting on the lock file to use it.
    lock.release(lock.created && (!existed || db === null));
    throw err;
  }
}

/**
 * A crawl killed while its seeds were being stored (100,000 seeds take seconds) has its config,
 * seeds included, but not all of their URLs: resume adds those the frontier has not seen, or the
 * crawl would end at once as "frontier exhausted".
 */
async function addLostSeeds(crawl: OpenCrawl): Promise<void> {
  const lost = crawl.config.seeds.filter((s) => {
    const url = normalizeUrl(s);
    return url !== null && !crawl.frontier.knownSeen(url);
  });
  if (!lost.length) return;
  const added = await crawl.crawler.addSeeds(lost);
  if (added) crawl.notes.push(`${added} of the crawl's ${crawl.config.seeds.length} seeds had not been stored (it was stopped while adding them): added now`);
  await crawl.db.settle();
}

/** Where a crawl records the name of the strategy object it was started with (empty: none). */
const STRATEGY_OBJECT = 'strategyObject';

/** What resume may change besides the stored config: a topic for a crawl that has none (or, with force, another). */
export interface ResumeParts {
  fetcher?: Fetcher;
  /** The strategy object the crawl was started with (startCrawl's `strategy`), which a database cannot hold. */
  strategy?: Strategy;
  /** A topic file, or a topic as startCrawl takes one inline: given to a crawl that has none; replacing a different one needs `force`. */
  topic?: string | TopicFileInput;
  force?: boolean;
}

/** Reopens a crawl database and continues where it stopped; `overrides` may raise maxPages etc. */
export async function resumeCrawl(dbPath: string, overrides: ResumeOverrides = {}, opts: ResumeParts = {}): Promise<OpenCrawl> {
  checkParts('resumeCrawl', opts, ['fetcher', 'strategy', 'topic', 'force']);
  checkStrategyPart('resumeCrawl', opts.strategy);
  overrides = resumeOverrides(overrides);
  if (!existsSync(dbPath)) throw new FocusCrawlError('IO', `no crawl database at ${dbPath}`);
  checkDbFile(dbPath, { existing: true });
  const newTopic = opts.topic !== undefined ? resumeTopic(opts.topic) : undefined;
  const lock = CrawlLock.acquire(dbPath, 'resume');
  let db: SqliteDb | null = null;
  try {
    checkIntact(dbPath, { mayWrite: true });
    db = new SqliteDb(dbPath, { create: false, writer: 'thread' });
    const stored = db.getMeta('config');
    if (!stored) throw new FocusCrawlError('STORE', `${dbPath} holds no crawl to resume (no stored config)`);
    if (db.getMeta('driver') === 'group') {
      throw new FocusCrawlError('USAGE', `${dbPath} holds a group crawl: run 'focuscrawl group' again with the same --db, --sites and --examples to continue it`);
    }
    const object = db.getMeta(STRATEGY_OBJECT);
    if (object && !opts.strategy && overrides.strategy === undefined) {
      throw new FocusCrawlError('CONFIG', `${dbPath} was crawled with the strategy object '${object}' (startCrawl's strategy), which a database cannot hold: give it again, resumeCrawl(db, overrides, { strategy }), or name a strategy to go on with (overrides.strategy; from the command line, focuscrawl crawl SEED... --db ${dbPath} --strategy NAME)`);
    }
    const previous = parseStored<{ topic?: TopicFile | null; maxPages?: number }>(stored, 'config', dbPath);
    // --max-pages raises the budget: a lower one would end the crawl at once, or store a budget below what it fetched.
    if (overrides.maxPages !== undefined && typeof previous.maxPages === 'number' && overrides.maxPages < previous.maxPages) {
      throw new FocusCrawlError('CONFIG', `--max-pages ${overrides.maxPages} is below the crawl's budget of ${previous.maxPages}: resume raises the budget`);
    }
    const notes = newTopic !== undefined ? topicChange(dbPath, previous.topic ?? null, newTopic, { force: opts.force === true, resume: true }) : [];
    const parsed = crawlConfigSchema.safeParse({ ...previous, ...overrides, ...(newTopic !== undefined ? { topic: newTopic } : {}), db: dbPath });
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      throw new FocusCrawlError('STORE', `${dbPath} holds a crawl config this focuscrawl cannot use: '${i.path.join('.')}': ${i.message}`);
    }
    const config = parsed.data;
    const topicFile = config.topic as TopicFile | null;
    let planned: ReturnType<typeof plan>;
    try {
      planned = plan(config, topicFile, opts.strategy ? { strategy: opts.strategy } : {});
    } catch (err) {
      if (topicFile === null && err instanceof FocusCrawlError && /needs a topic/.test(err.message)) {
        throw new FocusCrawlError('USAGE', `${dbPath} holds a crawl with no topic and its strategy '${config.strategy}' needs one: resume --db ${dbPath} --topic FILE (the topic option)`);
      }
      throw err;
    }
    const headersNote = missingHeadersNote(parseStored<string[]>(db.getMeta('headerNames') ?? '[]', 'headerNames', dbPath), overrides.headers);
    if (headersNote) notes.push(headersNote);
    else if (overrides.headers) db.setMetaNow('headerNames', JSON.stringify(Object.keys(config.headers)));
    db.setMetaNow('config', JSON.stringify(storableConfig(config)));
    if (opts.strategy || object) db.setMetaNow(STRATEGY_OBJECT, opts.strategy?.name ?? '');
    const crawl = await build(config, planned, db, lock, opts.fetcher ?? (await makeFetcher(config)), {}, notes);
    await addLostSeeds(crawl).catch(async (err: unknown) => {
      await crawl.close().catch(() => {});
      throw err;
    });
    return crawl;
  } catch (err) {
    await db?.close().catch(() => {});
    lock.release(lock.created && db === null);
    throw err;
  }
}
