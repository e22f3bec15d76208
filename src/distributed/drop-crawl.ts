import type pg from 'pg';
import { FocusCrawlError } from '../errors.js';
import { heartbeatWindowMs } from '../crawl-parts.js';
import { DEFAULT_LEASE_MS } from '../frontier/frontier.js';
import { RedisFrontier } from '../frontier/redis-frontier.js';
import { connectPg } from '../store/pg-connect.js';
import { count } from '../cli/progress.js';
import { connectRedis, pgSchema, redisPrefix } from './shared-crawl.js';
import { dropCrawlKeys } from './drop-crawl-keys.js';
import { redact, type SharedTarget } from './shared-target.js';

export interface DropReport {
  /** Redis keys deleted (the live frontier, seen set, settings and heartbeats). */
  redisKeys: number;
  /** Pages the dropped PostgreSQL schema held, or null when PostgreSQL had no record of the crawl. */
  pages: number | null;
}

/**
 * Deletes a shared crawl: its keys in Redis and its schema in PostgreSQL, the record included.
 * Refuses while a worker's heartbeat or a lease is live (a worker would go on writing into a crawl
 * that is gone) unless `force`; a crawl only one of the two services still knows (Redis flushed,
 * or a schema left after its keys were deleted) is dropped from the one that has it.
 */
export async function dropCrawl(target: SharedTarget, o: { force?: boolean } = {}): Promise<DropReport> {
  const redis = await connectRedis(target.redis);
  let pool: pg.Pool | null = null;
  try {
    pool = await connectPg(target.pg, 1);
    const schema = pgSchema(target.name);
    const inPg = ((await pool.query(`SELECT to_regclass($1) IS NOT NULL AS ok`, [`${schema}.meta`])).rows[0] as { ok: boolean }).ok;
    const frontier = new RedisFrontier(redis, { prefix: redisPrefix(target.name), worker: `drop-${process.pid}` });
    const inRedis = await frontier.present();
    if (!inPg && !inRedis) {
      throw new FocusCrawlError('USAGE', `there is no crawl named '${target.name}' in PostgreSQL at ${redact(target.pg)} or Redis at ${redact(target.redis)}`);
    }
    if (!o.force) {
      let leaseMs = DEFAULT_LEASE_MS;
      if (inPg) {
        const row = (await pool.query(`SELECT value FROM ${schema}.meta WHERE key = 'config'`)).rows[0] as { value: string } | undefined;
        const stored = row ? (JSON.parse(row.value) as { leaseMs?: unknown }).leaseMs : undefined;
        if (typeof stored === 'number') leaseMs = stored;
      }
      const live = await frontier.liveness(Date.now(), heartbeatWindowMs(leaseMs));
      if (live.workers.length || live.leases) {
        const who = live.workers.length ? `${count(live.workers.length, 'worker')} running (${live.workers.join(', ')})` : `${count(live.leases, 'URL')} leased by a worker`;
        throw new FocusCrawlError('USAGE', `crawl '${target.name}' has ${who}: stop its workers first (Ctrl-C or SIGTERM), or pass --force`);
      }
    }
    const pages = inPg ? Number(((await pool.query(`SELECT count(*) AS n FROM ${schema}.pages`)).rows[0] as { n: string }).n) : null;
    // Redis first: a worker that was missed finds no frontier and stops, instead of working on for a record that is gone.
    const redisKeys = await dropCrawlKeys(redis, redisPrefix(target.name));
    if (inPg) await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    return { redisKeys, pages };
  } finally {
    redis.disconnect();
    await pool?.end();
  }
}
