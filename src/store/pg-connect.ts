import pg from 'pg';
import { FocusCrawlError } from '../errors.js';
import { redact } from '../distributed/shared-target.js';

/** Attempts to reach PostgreSQL before giving up, with a doubling wait from 250 ms (about 2 s in all). */
const CONNECT_ATTEMPTS = 4;
/** How long a connection may take to be answered (node-postgres's connectionTimeoutMillis). */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * Waits before the retries of a statement that lost its connection: about 8 s in all, enough for
 * a PostgreSQL restart or a failover to a standby, short enough that a worker whose database is
 * gone stops (and its leases expire) rather than hanging.
 */
export const RETRY_DELAYS_MS: readonly number[] = [250, 500, 1000, 2000, 4000];

/** The URL each pool was given, for messages: not the one handed to the driver (libpqSemantics). */
const shownUrl = new WeakMap<pg.Pool, string>();

/**
 * The PostgreSQL URL as the driver must read it for `sslmode` to mean what PostgreSQL's own
 * clients (libpq: psql, pg_dump) make of it: `require` and `prefer` encrypt without checking the
 * server's certificate, `verify-ca` checks the CA, `verify-full` the CA and the host name.
 * node-postgres 8 reads prefer, require and verify-ca as verify-full, and says so in a ten-line
 * warning on every start; `uselibpqcompat=true` is its documented way to read them as libpq does,
 * and what its next major version does by default. A URL that sets uselibpqcompat itself is the
 * user's choice and is left alone.
 */
const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];

export function libpqSemantics(url: string): string {
  if (!URL.canParse(url)) return url;
  const params = new URL(url).searchParams;
  const mode = params.get('sslmode');
  // node-postgres reads an unknown mode as "require" and then blames the server for not speaking SSL.
  if (mode !== null && !SSL_MODES.includes(mode)) {
    throw new FocusCrawlError('USAGE', `PostgreSQL at ${redact(url)}: sslmode '${mode}' is not one of ${SSL_MODES.join(', ')}`);
  }
  if (params.has('uselibpqcompat') || !(mode === 'prefer' || mode === 'require' || mode === 'verify-ca')) return url;
  // libpq looks for ~/.postgresql/root.crt; node-postgres has no such default and would refuse in a multi-line error.
  if (mode === 'verify-ca' && !params.has('sslrootcert')) {
    throw new FocusCrawlError('USAGE', `PostgreSQL at ${redact(url)}: sslmode=verify-ca needs sslrootcert=FILE, the CA that signed the server's certificate (sslmode=verify-full checks it against the system's CAs and the host name)`);
  }
  return `${url}${url.includes('?') ? '&' : '?'}uselibpqcompat=true`;
}

/**
 * A connection pool that has answered once. Unreachable after the retries: a one-line error that
 * names PostgreSQL, the address (password hidden) and the reason.
 */
export async function connectPg(url: string, size = 10): Promise<pg.Pool> {
  let driverUrl = libpqSemantics(url);
  for (;;) {
    // Prepared statements (the group commit's) are planned for each execution's arrays: a generic
    // plan, which PostgreSQL may settle on while a crawl's tables are still empty, is kept for the
    // connection's life and is not re-planned as the tables grow.
    const pool = new pg.Pool({ connectionString: driverUrl, max: size, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, idleTimeoutMillis: 30_000, options: '-c plan_cache_mode=force_custom_plan' });
    // An idle client that loses its server emits here; the next query reports it where it is awaited.
    pool.on('error', () => {});
    shownUrl.set(pool, url);
    let last: unknown = null;
    for (let attempt = 0; attempt < CONNECT_ATTEMPTS; attempt++) {
      try {
        await pool.query('SELECT 1');
        return pool;
      } catch (err) {
        last = err;
        // Five seconds of silence is no restart (a starting PostgreSQL says so at once): another
        // server on the port, Redis at 6379 for one, or a firewall that drops packets. Four
        // attempts of it took 25 s to say so.
        if (!isTransient(err) || isConnectTimeout(err)) break;
        await sleep(250 * 2 ** attempt);
      }
    }
    await pool.end().catch(() => {});
    // sslmode=prefer: encrypted if the server offers TLS, plain if it does not, as libpq does;
    // node-postgres refuses the plain connection instead.
    const plain = withoutTls(url, last);
    if (plain !== null && plain !== driverUrl) {
      driverUrl = plain;
      continue;
    }
    const silent = isConnectTimeout(last) ? ` (no PostgreSQL answered within ${CONNECT_TIMEOUT_MS / 1000} s: is it another server's port, or are packets dropped?)` : '';
    throw new FocusCrawlError('STORE', `cannot reach PostgreSQL at ${redact(url)}: ${reason(last)}${silent}`, { cause: last });
  }
}

/** The URL with sslmode=disable when it asked for `prefer` and the server said it has no TLS; else null. */
function withoutTls(url: string, err: unknown): string | null {
  if (!URL.canParse(url) || !/does not support SSL/i.test((err as Error | null)?.message ?? '')) return null;
  const u = new URL(url);
  if (u.searchParams.get('sslmode') !== 'prefer') return null;
  u.searchParams.set('sslmode', 'disable');
  u.searchParams.delete('uselibpqcompat');
  return u.toString();
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
        const where = redact(shownUrl.get(pool) ?? pool.options.connectionString ?? `${pool.options.host ?? 'localhost'}:${pool.options.port ?? 5432}`);
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

const isConnectTimeout = (err: unknown): boolean => /connection timeout/i.test((err as Error | null)?.message ?? '');

/** Deadlock or serialization failure: PostgreSQL rolled the statement back, so it can simply run again. */
function isConflict(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  return code === '40P01' || code === '40001';
}
