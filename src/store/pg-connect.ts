import pg from 'pg';
import { FocusCrawlError } from '../errors.js';
import { redact } from '../distributed/shared-target.js';

/** Attempts to reach PostgreSQL before giving up, with a doubling wait from 250 ms (about 2 s in all). */
const CONNECT_ATTEMPTS = 4;

/**
 * A connection pool that has answered once. Unreachable after the retries: a one-line error that
 * names PostgreSQL, the address (password hidden) and the reason.
 */
export async function connectPg(url: string, size = 10): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url, max: size, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 });
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
      await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
    }
  }
  await pool.end().catch(() => {});
  const e = last as { message?: string; code?: string };
  throw new FocusCrawlError('STORE', `cannot reach PostgreSQL at ${redact(url)}: ${e?.message || e?.code || String(last)}`, { cause: last });
}

/** Refused, reset, timed out or starting up: worth another attempt; a wrong password or database is not. */
function isTransient(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', '57P03'].includes(code) || /timeout/i.test((err as Error).message ?? '');
}
