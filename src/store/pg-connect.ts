import pg from 'pg';
import { FocusCrawlError } from '../errors.js';
import { redact } from '../distributed/shared-target.js';

/** Attempts to reach PostgreSQL before giving up, with a doubling wait from 250 ms (about 2 s in all). */
const CONNECT_ATTEMPTS = 4;

/**
 * Waits before the retries of a statement that lost its connection: about 8 s in all, enough for
 * a PostgreSQL restart or a failover to a standby, short enough that a worker whose database is
 * gone stops (and its leases expire) rather than hanging.
 */
export const RETRY_DELAYS_MS: readonly number[] = [250, 500, 1000, 2000, 4000];

/**
 * A connection pool that has answered once. Unreachable after the retries: a one-line error that
 * names PostgreSQL, the address (password hidden) and the reason.
 */
export async function connectPg(url: string, size = 10): Promise<pg.Pool> {
  // Prepared statements (the group commit's) are planned for each execution's arrays: a generic
  // plan, which PostgreSQL may settle on while a crawl's tables are still empty, is kept for the
  // connection's life and is not re-planned as the tables grow.
  const pool = new pg.Pool({ connectionString: url, max: size, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000, options: '-c plan_cache_mode=force_custom_plan' });
  // An idle client that loses its server emits here; the next query reports it where it is awaited.
  pool.on('error', () => {});
  let last: unknown = null;
  for (let attempt = 0; attempt < CONNECT_ATTEMPTS; attempt++) {
    try {
      await pool.query('SELECT 1');
      return pool;
    } catch (err) {
      last = err;
      if (!isTransient(err)) break;
      await sleep(250 * 2 ** attempt);
    }
  }
  await pool.end().catch(() => {});
  throw new FocusCrawlError('STORE', `cannot reach PostgreSQL at ${redact(url)}: ${reason(last)}`, { cause: last });
}

/**
 * Runs one statement, again after a lost connection or a deadlock, waiting `delays` between
 * attempts; then a one-line error naming PostgreSQL. Only for statements whose repetition is
 * harmless: upserts, and appends where a duplicate line is acceptable (the connection may have
 * dropped after the server committed). SQL errors are not retried and pass through as they are.
 */
export async function pgQuery(pool: pg.Pool, sql: string, params: unknown[] = [], delays: readonly number[] = RETRY_DELAYS_MS, prepared?: string): Promise<pg.QueryResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      // A named statement is parsed and planned once per connection (`prepared`: its name).
      return await (prepared ? pool.query({ name: prepared, text: sql, values: params }) : pool.query(sql, params));
    } catch (err) {
      if (!isTransient(err) && !isConflict(err)) throw err;
      if (attempt >= delays.length) {
        const where = redact(pool.options.connectionString ?? `${pool.options.host ?? 'localhost'}:${pool.options.port ?? 5432}`);
        throw new FocusCrawlError('STORE', `lost PostgreSQL at ${where}: ${reason(err)} (${attempt + 1} attempt${attempt ? 's' : ''})`, { cause: err });
      }
      await sleep(delays[attempt]!);
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function reason(err: unknown): string {
  const e = err as { message?: string; code?: string } | null;
  return (e?.message || e?.code || String(err)).replace(/\s+/g, ' ');
}

/**
 * Refused, reset, timed out, shut down or starting up (SQLSTATE class 08 and 57P01-57P03):
 * worth another attempt; a wrong password or database is not.
 */
function isTransient(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', '57P01', '57P02', '57P03'].includes(code) || code.startsWith('08')) return true;
  return /timeout|Connection terminated|Client has encountered a connection error/i.test((err as Error).message ?? '');
}

/** Deadlock or serialization failure: PostgreSQL rolled the statement back, so it can simply run again. */
function isConflict(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  return code === '40P01' || code === '40001';
}
