import type { Redis } from 'ioredis';
import type pg from 'pg';
import { FocusCrawlError } from '../errors.js';
import { LOST_FRONTIER, REBUILDING_FRONTIER } from '../frontier/redis-frontier.js';
import type { PgStore } from '../store/pg-store.js';
import { pgSchema, redact, type SharedTarget } from './shared-target.js';

/** Says which service failed, in one line, when a worker stops on a lost connection. */
export function explainFailure(err: unknown, s: { redis: Pick<Redis, 'status'>; target: SharedTarget; dropped?: boolean }): unknown {
  const lost = 'the URLs this worker held return to waiting when their leases expire; start the worker again when it is back';
  const droppedLine = (what: string) =>
    new FocusCrawlError('STORE', `PostgreSQL at ${redact(s.target.pg)} lacks a table of crawl '${s.target.name}' (${what}): the crawl was dropped while this worker ran (focuscrawl drop --force), or its schema was damaged; this worker stops`, { cause: err });
  // `drop --force` deletes the keys too: the frontier is gone because the crawl is, and rebuild is no way back.
  if (err instanceof FocusCrawlError && err.message.startsWith(LOST_FRONTIER)) return s.dropped ? droppedLine('its schema is gone') : lostFrontier(s.target, err);
  if (err instanceof FocusCrawlError && err.message.startsWith(REBUILDING_FRONTIER)) return halfRebuilt(s.target, err);
  // A command Redis refused (OOM under maxmemory noeviction, READONLY replica, MISCONF): Redis's state, not the URL's.
  if ((err as Error)?.name === 'ReplyError') {
    return new FocusCrawlError('STORE', `Redis at ${redact(s.target.redis)} refused a command: ${(err as Error).message}; ${lost}`, { cause: err });
  }
  // undefined_table, invalid_schema_name: most likely the crawl was dropped while this worker ran; said as a likelihood.
  const code = (err as { code?: unknown })?.code;
  if (code === '42P01' || code === '3F000') return droppedLine((err as Error).message);
  // The store's own error after its retries names PostgreSQL; a worker adds what becomes of its URLs.
  if (err instanceof FocusCrawlError) return err.message.startsWith('lost PostgreSQL') ? new FocusCrawlError(err.code, `${err.message}; ${lost}`, { cause: err }) : err;
  const msg = (err as Error)?.message ?? String(err);
  const redisPort = portOf(s.target.redis, '6379');
  if (s.redis.status !== 'ready' || /max retries per request|Connection is closed|Redis/i.test(msg) || new RegExp(`ECONNREFUSED \\S+:${redisPort}\\b`).test(msg)) {
    return new FocusCrawlError('STORE', `lost Redis at ${redact(s.target.redis)}: ${msg}; ${lost}`, { cause: err });
  }
  // Shutting down, starting up, or a connection exception (SQLSTATE 57P01-57P03, class 08): PostgreSQL's state.
  const pgDown = typeof code === 'string' && (/^57P0[123]$/.test(code) || code.startsWith('08'));
  if (pgDown || /postgres|ECONNREFUSED|terminat|Connection terminated|pg_|database system is/i.test(msg)) {
    return new FocusCrawlError('STORE', `lost PostgreSQL at ${redact(s.target.pg)}: ${msg}; ${lost}`, { cause: err });
  }
  return err;
}

/**
 * explainFailure for a worker's run: a frontier gone with its schema was dropped, not lost (asked
 * only then: the answer is one query, and a PostgreSQL that does not answer it leaves "lost").
 */
export async function runFailure(err: unknown, s: { redis: Pick<Redis, 'status'>; target: SharedTarget; pool: PgStore['pool'] }): Promise<unknown> {
  const gone = err instanceof FocusCrawlError && err.message.startsWith(LOST_FRONTIER);
  const dropped = gone && !(await crawlStillInPg(s.pool, pgSchema(s.target.name)));
  return explainFailure(err, { redis: s.redis, target: s.target, dropped });
}

/**
 * Whether the crawl's schema is still there, read through its meta table: `drop` deletes the keys
 * inside the transaction that drops the schema, and a catalog lookup (to_regclass) in between saw
 * the schema still there and called a dropped crawl lost. The read waits for that transaction's
 * lock, then finds the table gone (42P01). A lock not had within 5 s, or no answer: taken as there.
 */
async function crawlStillInPg(pool: PgStore['pool'], schema: string): Promise<boolean> {
  let client: pg.PoolClient | null = null;
  try {
    client = await pool.connect();
    await client.query(`BEGIN; SET LOCAL lock_timeout = '5s'; SELECT 1 FROM ${schema}.meta LIMIT 1; COMMIT`);
    return true;
  } catch (err) {
    await client?.query('ROLLBACK').catch(() => {});
    const code = (err as { code?: unknown }).code;
    return !(code === '42P01' || code === '3F000');
  } finally {
    client?.release();
  }
}

const portOf = (url: string, fallback: string): string => {
  try {
    return new URL(url).port || fallback;
  } catch {
    return fallback;
  }
};

/** A crawl PostgreSQL knows and Redis holds nothing of: the way back is rebuild. */
export function lostFrontier(target: SharedTarget, cause?: unknown): FocusCrawlError {
  return new FocusCrawlError(
    'STORE',
    `Redis at ${redact(target.redis)} holds nothing of crawl '${target.name}', which PostgreSQL has (Redis lost its data: restarted without persistence or flushed, or this is another Redis database): run focuscrawl rebuild --name ${target.name}, which recreates the frontier from PostgreSQL, then start the workers again`,
    cause === undefined ? {} : { cause },
  );
}

/** A crawl a rebuild is refilling, or one an interrupted rebuild left half done: no worker runs on it. */
export function halfRebuilt(target: SharedTarget, cause?: unknown): FocusCrawlError {
  return new FocusCrawlError(
    'STORE',
    `Redis at ${redact(target.redis)} holds crawl '${target.name}' half rebuilt: a focuscrawl rebuild is refilling it from PostgreSQL, or one was interrupted (then run focuscrawl rebuild --name ${target.name} --force again); start the workers once it has finished`,
    cause === undefined ? {} : { cause },
  );
}
