import { FocusCrawlError } from '../errors.js';
import { connectRedis, pgSchema, redisPrefix } from '../distributed/shared-crawl.js';
import { redact, sharedTarget, type SharedFlags } from '../distributed/shared-target.js';
import { RedisFrontier } from '../frontier/redis-frontier.js';
import type { CrawlReader } from '../store/crawl-reader.js';
import { connectPg } from '../store/pg-connect.js';
import { PgCrawlReader } from '../store/pg-crawl-reader.js';
import { SqliteCrawlReader } from '../store/sqlite-crawl-reader.js';
import { FTS_BATCH } from '../store/sqlite-store.js';
import { openExistingDb, runningLine } from './open-existing-db.js';
import type { LabelStore } from '../store/label-store.js';
import { SqliteLabelStore } from '../store/sqlite-label-store.js';
import { PgLabelStore } from '../store/pg-label-store.js';
import { probeLock } from '../store/crawl-lock.js';

export interface OpenReader {
  reader: CrawlReader;
  /** The crawl as messages name it: the database file, or "crawl 'name'". */
  label: string;
  /** Set when a process is writing the crawl now (an embedded crawl holding its database), or when the live frontier cannot be read. */
  running: string | null;
  /** The process holding an embedded crawl's database (pid, host, command, since), for --json. */
  holder: object | null;
  /** Why a search may miss pages stored recently (the embedded index is updated in batches); null when it cannot. */
  searchLag(): Promise<string | null>;
  /** Whether a crawl process holds the crawl now (asked again each time: serve outlives crawls); null when it cannot be told (a shared crawl's workers hold no lock). */
  runningNow(): boolean | null;
  /** Where labels go (serve's label button); opened on first use, closed with the reader. */
  labels(): LabelStore;
  close(): Promise<void>;
}

/**
 * Opens a crawl for the reading commands: the embedded database named by --db, or the shared
 * crawl named by --name (with --redis/--pg or FOCUSCRAWL_REDIS/FOCUSCRAWL_PG). A shared crawl's
 * waiting and fetching counts come from its live frontier in Redis when Redis answers.
 */
export async function openReader(o: SharedFlags & { db?: string }): Promise<OpenReader> {
  const target = sharedTarget(o);
  if (!target) {
    const path = o.db ?? 'focuscrawl.db';
    const { db, running } = openExistingDb(path);
    const reader = new SqliteCrawlReader(db, true);
    let labels: LabelStore | null = null;
    return {
      reader,
      label: path,
      running: runningLine(path, running),
      holder: running ? (running.holder ?? {}) : null,
      searchLag: async () => {
        const pending = running ? await reader.unindexed() : 0;
        return pending ? `${pending} pages stored so far are not yet searchable (the crawl indexes them in batches of ${FTS_BATCH} and at its end)` : null;
      },
      runningNow: () => probeLock(path) !== null,
      labels: () => (labels ??= new SqliteLabelStore(path)),
      close: async () => {
        await labels?.close();
        await reader.close();
      },
    };
  }
  if (o.db) throw new FocusCrawlError('USAGE', '--db names an embedded crawl; a shared crawl is named by --name');
  const pool = await connectPg(target.pg, 2);
  const schema = pgSchema(target.name);
  const exists = await pool.query(`SELECT to_regclass($1) IS NOT NULL AS ok`, [`${schema}.meta`]);
  if (!(exists.rows[0] as { ok: boolean }).ok) {
    await pool.end();
    throw new FocusCrawlError('USAGE', `there is no crawl named '${target.name}' in PostgreSQL at ${redact(target.pg)}`);
  }
  const redis = await connectRedis(target.redis).catch(() => null);
  const live = redis ? new RedisFrontier(redis, { prefix: redisPrefix(target.name), worker: `reader-${process.pid}` }) : null;
  const reader = new PgCrawlReader(pool, schema, live ? () => live.counts() : null, true);
  return {
    reader,
    label: `crawl '${target.name}'`,
    holder: null,
    running: redis ? null : `Redis at ${redact(target.redis)} does not answer: waiting counts include URLs being fetched`,
    searchLag: async () => null,
    runningNow: () => null,
    labels: () => new PgLabelStore(pool, schema),
    close: async () => {
      await reader.close();
      redis?.disconnect();
    },
  };
}
