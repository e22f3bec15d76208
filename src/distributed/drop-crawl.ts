import type pg from 'pg';
import { FocusCrawlError } from '../errors.js';
import { heartbeatWindowMs } from '../frontier/lease-timing.js';
import { DEFAULT_LEASE_MS } from '../frontier/frontier.js';
import { RedisFrontier } from '../frontier/redis-frontier.js';
import { connectPg } from '../store/pg-connect.js';
import { count } from '../text/count.js';
import { connectRedis, pgSchema, redisPrefix } from './shared-crawl.js';
import { dropCrawlKeys, hasCrawlKeys } from './drop-crawl-keys.js';
import { redact, type SharedTarget } from './shared-target.js';
import { crawlSchemaExists } from '../store/pg-table-exists.js';

/** After the drop, how long keys a running worker's last scripts wrote again are looked for, and how often. */
const SWEEP_MS = 10_000;
const SWEEP_EVERY_MS = 300;

export interface DropReport {
  /** Redis keys deleted (the live frontier, seen set, settings and heartbeats). */
  redisKeys: number;
  /** Pages the dropped PostgreSQL schema held, or null when PostgreSQL had no record of the crawl. */
  pages: number | null;
  /** Keys still written after the sweep's time (a worker that goes on); 0 when none. */
  leftKeys: number;
}

/**
 * Deletes a shared crawl: its schema in PostgreSQL, the record included, and its keys in Redis.
 * Refuses while a worker's heartbeat or a lease is live (a worker would go on writing into a crawl
 * that is gone) unless `force`; a crawl only one of the two services still knows (Redis flushed,
 * or a schema left after its keys were deleted) is dropped from the one that has it.
 *
 * The schema is dropped in a transaction that commits only once the keys are gone, so a refusal
 * by PostgreSQL (not the schema's owner, a lock) deletes nothing. With `force`, a worker still
 * running can write keys again after the scan (its scripts in flight); they are swept until none
 * comes back, and the worker stops on its next write to the dropped schema.
 */
export async function dropCrawl(target: SharedTarget, o: { force?: boolean; sweepMs?: number } = {}): Promise<DropReport> {
  const redis = await connectRedis(target.redis);
  let pool: pg.Pool | null = null;
  const prefix = redisPrefix(target.name);
  try {
    pool = await connectPg(target.pg, 1);
    const schema = pgSchema(target.name);
    const inPg = await crawlSchemaExists(pool, schema);
    const inRedis = await hasCrawlKeys(redis, prefix);
    if (!inPg && !inRedis) {
      throw new FocusCrawlError('USAGE', `there is no crawl named '${target.name}' in PostgreSQL at ${redact(target.pg)} or Redis at ${redact(target.redis)}`);
    }
    let leaseMs = DEFAULT_LEASE_MS;
    if (inPg) {
      const row = (await pool.query(`SELECT value FROM ${schema}.meta WHERE key = 'config'`)).rows[0] as { value: string } | undefined;
      // A damaged config is no reason to keep a crawl one wants gone: the default lease then.
      let stored: unknown;
      try {
        stored = row ? (JSON.parse(row.value) as { leaseMs?: unknown } | null)?.leaseMs : undefined;
      } catch {
        stored = undefined;
      }
      if (typeof stored === 'number') leaseMs = stored;
    }
    const frontier = new RedisFrontier(redis, { prefix, worker: `drop-${process.pid}` });
    const live = await frontier.liveness(Date.now(), heartbeatWindowMs(leaseMs));
    if (!o.force && live.workers.length) {
      throw new FocusCrawlError('USAGE', `crawl '${target.name}' has ${count(live.workers.length, 'worker')} running (${live.workers.join(', ')}): stop its workers first (Ctrl-C or SIGTERM), or pass --force`);
    }
    if (!o.force && live.leases) {
      throw new FocusCrawlError('USAGE', `crawl '${target.name}' has ${count(live.leases, 'URL')} leased by a worker that no longer reports (killed?): the leases end within ${Math.ceil(leaseMs / 1000)} s; wait, or pass --force`);
    }
    const pages = inPg ? Number(((await pool.query(`SELECT count(*) AS n FROM ${schema}.pages`)).rows[0] as { n: string }).n) : null;
    const client = await pool.connect();
    let redisKeys = 0;
    try {
      await client.query('BEGIN');
      if (inPg) await client.query(`DROP SCHEMA ${schema} CASCADE`);
      redisKeys = await dropCrawlKeys(redis, prefix);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      if (err instanceof FocusCrawlError) throw err;
      const e = err as { code?: unknown; message?: string };
      // Raised by DROP SCHEMA, before any key was deleted: the crawl is whole.
      if (typeof e.code === 'string' && redisKeys === 0) {
        throw new FocusCrawlError('STORE', `PostgreSQL at ${redact(target.pg)} refused to drop schema ${schema}: ${e.message}; nothing was deleted`, { cause: err });
      }
      throw new FocusCrawlError('STORE', `dropping crawl '${target.name}' failed after its Redis keys were deleted (${e.message}); run focuscrawl drop --name ${target.name} again`, { cause: err });
    } finally {
      client.release();
    }
    let leftKeys = 0;
    if (live.workers.length || live.leases) {
      // A worker's scripts in flight during the scan write keys again: swept until none comes back.
      const until = Date.now() + (o.sweepMs ?? SWEEP_MS);
      let quiet = 0;
      while (quiet < 3 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, SWEEP_EVERY_MS));
        const n = await dropCrawlKeys(redis, prefix);
        redisKeys += n;
        quiet = n === 0 ? quiet + 1 : 0;
      }
      if (quiet < 3) leftKeys = (await hasCrawlKeys(redis, prefix)) ? 1 : 0;
    }
    return { redisKeys, pages, leftKeys };
  } finally {
    redis.disconnect();
    await pool?.end();
  }
}
