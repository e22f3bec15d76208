import { statSync } from 'node:fs';
import { FocusCrawlError } from '../errors.js';
import type { Redis } from 'ioredis';
import { redact, sharedRecordTarget, type SharedFlags } from '../distributed/shared-target.js';
import type { CrawlReader } from '../store/crawl-reader.js';
import { SqliteCrawlReader } from '../store/sqlite-crawl-reader.js';
import { FTS_BATCH, SqliteStore } from '../store/sqlite-store.js';
import { SqliteDb } from '../store/sqlite-db.js';
import { unwritableReason } from '../store/db-files.js';
import { openExistingDb, runningLine } from '../store/open-existing-db.js';
import type { LabelStore } from '../store/label-store.js';
import { SqliteLabelStore } from '../store/sqlite-label-store.js';
import { probeLock } from '../store/crawl-lock.js';
import { heartbeatWindowMs } from '../frontier/lease-timing.js';
import { DEFAULT_LEASE_MS } from '../frontier/frontier.js';
import { count } from './progress.js';
import { crawlSchemaExists } from '../store/pg-table-exists.js';

/** What Redis says of a shared crawl's workers now (RedisFrontier.liveness). */
export interface SharedLiveness {
  /** Workers that reported lately (heartbeatWindowMs of the crawl's lease). */
  workers: string[];
  /** Leases not expired: URLs being fetched. */
  leases: number;
  /** Leases past their expiry that no worker has taken back yet: their worker stopped. */
  expired: number;
}

/** The line for leases whose worker stopped without ending them (status and the dashboard say it alike); null when none. */
export function expiredLeasesLine(live: SharedLiveness | null): string | null {
  const n = live?.expired ?? 0;
  if (!n) return null;
  return `${count(n, 'URL has an expired lease', 'URLs have expired leases')} (a worker stopped without ending ${n === 1 ? 'it' : 'them'}); ${n === 1 ? 'it returns' : 'they return'} to waiting when a worker runs`;
}

export interface OpenReader {
  reader: CrawlReader;
  /** The crawl as messages name it: the database file, or "crawl 'name'". */
  label: string;
  /** Set when a process is writing the crawl now (an embedded crawl holding its database). */
  running: string | null;
  /** The process holding an embedded crawl's database (pid, host, command, since), for --json. */
  holder: object | null;
  /**
   * A shared crawl whose live frontier was asked for (status, serve, report): the Redis URL
   * (password hidden) and, when it did not answer, why; `missing`: it answered and holds nothing
   * of the crawl (flushed, restarted without persistence); `notGiven`: no Redis was named (url
   * null). The figures are then PostgreSQL's alone. Null for an embedded crawl, and for readers that need PostgreSQL only.
   */
  redis: { url: string | null; error: string | null; missing?: boolean; notGiven?: boolean } | null;
  /** A shared crawl's workers and leases, from Redis; null when Redis is not asked or did not answer. */
  liveness(): Promise<SharedLiveness | null>;
  /** Why a search may miss pages stored recently (the embedded index is updated in batches); null when it cannot. */
  searchLag(): Promise<string | null>;
  /**
   * Before a search: an embedded crawl's pages not yet indexed are indexed when no crawl holds the
   * database now. A reader opened during a crawl is read-only for good (serve outlives crawls),
   * so what the crawl left unindexed when it was stopped or killed stayed unsearchable.
   */
  prepareSearch(): Promise<void>;
  /** Whether a crawl process holds the crawl now (asked again each time: serve outlives crawls); null when it cannot be told (a shared crawl's workers hold no lock). */
  runningNow(): boolean | null;
  /** Where labels go (serve's label button); opened on first use, closed with the reader. */
  labels(): LabelStore;
  /**
   * Why what this reader shows is no longer the crawl at its path (the database file was deleted
   * or replaced since it was opened: serve outlives crawls and their files), or null.
   */
  fileGone(): string | null;
  close(): Promise<void>;
}

/**
 * The line for stderr when a reader asked Redis and it did not answer: which Redis, why, and
 * what the figures then lack. Null when it answered or was not asked.
 */
export function redisProblem(open: Pick<OpenReader, 'redis'>): string | null {
  if (!open.redis?.error) return null;
  if (open.redis.notGiven) return 'no Redis given (--redis or FOCUSCRAWL_REDIS): the figures are PostgreSQL\'s, in which the URLs being fetched count as waiting, and whether workers are running is not known';
  if (open.redis.missing) return `${open.redis.error}; the figures are PostgreSQL's, in which the URLs being fetched count as waiting`;
  return `Redis at ${open.redis.url} did not answer (${open.redis.error}): the figures are PostgreSQL's, in which the URLs being fetched count as waiting, and whether workers are running is not known`;
}

/**
 * Opens a crawl for the reading commands: the embedded database named by --db, or the shared
 * crawl named by --name (with --redis/--pg or FOCUSCRAWL_REDIS/FOCUSCRAWL_PG). `live`: a shared
 * crawl's waiting and fetching counts come from its live frontier in Redis (status and the
 * dashboard); without it only PostgreSQL is read, and Redis need not be given (search, export,
 * services read the record alone). A Redis that does not answer leaves PostgreSQL's figures
 * (OpenReader.redis says why); one that refuses the credentials is an error (exit 2).
 */
export async function openReader(o: SharedFlags & { db?: string }, opts: { live?: boolean } = {}): Promise<OpenReader> {
  // Redis is optional even for the live readers: without it they show PostgreSQL's figures and say so.
  const target = sharedRecordTarget(o, process.env, opts.live === true);
  if (!target) {
    const path = o.db ?? 'focuscrawl.db';
    const { db, running } = openExistingDb(path);
    const reader = new SqliteCrawlReader(db, true);
    const opened = statSync(path);
    let labels: LabelStore | null = null;
    return {
      reader,
      label: path,
      running: runningLine(path, running),
      holder: running ? (running.holder ?? {}) : null,
      redis: null,
      liveness: async () => null,
      searchLag: async () => {
        // Asked again each time: serve outlives the crawl it was started beside.
        if (probeLock(path) === null) return reader.unsearchable(unwritableReason(path));
        const pending = await reader.unindexed();
        return pending ? `${pending} pages stored so far are not yet searchable (the crawl indexes them in batches of ${FTS_BATCH} and at its end)` : null;
      },
      prepareSearch: async () => {
        if (!db.readonly || probeLock(path) !== null || unwritableReason(path) !== null || !(await reader.unindexed())) return;
        const writer = new SqliteDb(path, { create: false });
        try {
          new SqliteStore(writer).indexPending();
          await writer.settle();
        } finally {
          await writer.close();
        }
      },
      runningNow: () => probeLock(path) !== null,
      labels: () => (labels ??= new SqliteLabelStore(path)),
      fileGone: () => {
        const now = statSync(path, { throwIfNoEntry: false });
        if (!now) return `${path} was deleted after this reader opened it`;
        return now.ino !== opened.ino || now.dev !== opened.dev ? `${path} was replaced by another file after this reader opened it` : null;
      },
      close: async () => {
        await labels?.close();
        await reader.close();
      },
    };
  }
  if (o.db) throw new FocusCrawlError('USAGE', '--db names an embedded crawl; a shared crawl is named by --name');
  // Loaded for a shared crawl only: ioredis and pg are much of every command's start-up.
  const [{ connectRedis, lostFrontier, pgSchema, redisPrefix }, { RedisFrontier }, { connectPg }, { PgCrawlReader }, { PgLabelStore }] = await Promise.all([
    import('../distributed/shared-crawl.js'),
    import('../frontier/redis-frontier.js'),
    import('../store/pg-connect.js'),
    import('../store/pg-crawl-reader.js'),
    import('../store/pg-label-store.js'),
  ]);
  const pool = await connectPg(target.pg, 2);
  const schema = pgSchema(target.name);
  if (!(await crawlSchemaExists(pool, schema))) {
    await pool.end();
    throw new FocusCrawlError('USAGE', `there is no crawl named '${target.name}' in PostgreSQL at ${redact(target.pg)}`);
  }
  let redis: Redis | null = null;
  let problem: string | null = null;
  if (opts.live && target.redis !== null) {
    try {
      redis = await connectRedis(target.redis);
    } catch (err) {
      // Refused credentials are the user's to fix: said, not worked around.
      if (!(err instanceof FocusCrawlError) || err.code !== 'STORE') {
        await pool.end();
        throw err;
      }
      problem = err.message.replace(/^cannot reach Redis at \S+: /, '');
    }
  }
  let live = redis ? new RedisFrontier(redis, { prefix: redisPrefix(target.name), worker: `reader-${process.pid}` }) : null;
  let missing = false;
  // A Redis that lost the crawl answers every count with 0: read as live, the crawl looked finished.
  if (live && target.redis !== null && !(await live.present())) {
    problem = lostFrontier({ ...target, redis: target.redis }).message;
    missing = true;
    live = null;
    redis?.disconnect();
    redis = null;
  }
  const reader = new PgCrawlReader(pool, schema, live ? () => live.counts() : null, true);
  return {
    reader,
    label: `crawl '${target.name}'`,
    holder: null,
    running: null,
    redis: !opts.live ? null : target.redis !== null ? { url: redact(target.redis), error: problem, ...(missing ? { missing } : {}) } : { url: null, error: 'not given', notGiven: true },
    liveness: async () => {
      if (!live) return null;
      const leaseMs = (await reader.config())?.leaseMs;
      return live.liveness(Date.now(), heartbeatWindowMs(typeof leaseMs === 'number' ? leaseMs : DEFAULT_LEASE_MS));
    },
    searchLag: async () => null,
    prepareSearch: async () => {},
    fileGone: () => null,
    runningNow: () => null,
    labels: () => new PgLabelStore(pool, schema),
    close: async () => {
      await reader.close();
      redis?.disconnect();
    },
  };
}
