import { FocusCrawlError } from '../errors.js';

/** Where a shared crawl lives: its live frontier in Redis, its record in PostgreSQL, under a name. */
export interface SharedTarget {
  redis: string;
  pg: string;
  name: string;
}

export interface SharedFlags {
  redis?: string;
  pg?: string;
  name?: string;
}

/** The Redis key prefix and PostgreSQL schema of a named crawl. */
export const redisPrefix = (name: string) => `fc:${name}`;
export const pgSchema = (name: string) => `fc_${name}`;

/** Crawl names become Redis key prefixes and a PostgreSQL schema name: kept to a safe alphabet. */
const NAME = /^[a-z][a-z0-9_]{0,39}$/;
const NAME_RULE = 'must be 1-40 lower-case letters, digits or _, starting with a letter';

/**
 * A library caller's target (startSharedCrawl, openSharedWorker), checked as the CLI checks its
 * flags and before anything connects: a name the CLI would refuse makes a crawl no command can
 * read or drop.
 */
/** A crawl name as the CLI's --name takes it, checked for a library caller (`what` names the argument). */
export function checkCrawlName(name: unknown, what: string): string {
  if (typeof name !== 'string' || !NAME.test(name)) throw new FocusCrawlError('CONFIG', `${what}: ${typeof name === 'string' ? `'${name}' ` : ''}${NAME_RULE}`);
  return name;
}

export function checkSharedTarget(target: unknown, fn: string): SharedTarget {
  const t = (target ?? {}) as Record<string, unknown>;
  if (typeof target !== 'object' || target === null) throw new FocusCrawlError('CONFIG', `${fn}: the target must be an object { redis, pg, name }`);
  for (const field of ['redis', 'pg', 'name'] as const) {
    if (typeof t[field] !== 'string' || t[field] === '') throw new FocusCrawlError('CONFIG', `${fn} target '${field}': ${t[field] === undefined ? 'missing' : 'not a non-empty string'}`);
  }
  const { redis, pg, name } = t as unknown as SharedTarget;
  if (!NAME.test(name)) throw new FocusCrawlError('CONFIG', `${fn} target 'name': '${name}' ${NAME_RULE}`);
  const bad = (e: unknown) => new FocusCrawlError('CONFIG', (e as Error).message);
  try {
    checkRedisUrl(redis, `${fn} target 'redis'`);
    checkUrl(pg, 'PostgreSQL', `${fn} target 'pg'`, ['postgres:', 'postgresql:']);
  } catch (e) {
    throw bad(e);
  }
  return { redis, pg, name };
}

/** A service URL with its password replaced, for messages and logs. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
  }
}

function checkUrl(url: string, what: string, flag: string, schemes: string[]): string {
  if (!URL.canParse(url) || !schemes.includes(new URL(url).protocol)) {
    throw new FocusCrawlError('USAGE', `${flag}: '${redact(url)}' is not a ${what} URL (${schemes.map((s) => s + '//').join(' or ')}...)`);
  }
  return url;
}

function checkRedisUrl(url: string, flag = '--redis'): string {
  checkUrl(url, 'Redis', flag, ['redis:', 'rediss:']);
  redisDatabase(url, flag);
  // ioredis decodes the user name and password itself, and a bad escape (a '%' not followed by two hex digits) throws from deep inside it.
  const u = new URL(url);
  for (const [part, value] of [['user name', u.username], ['password', u.password]] as const) {
    try {
      decodeURIComponent(value);
    } catch {
      throw new FocusCrawlError('USAGE', `${flag}: the ${part} in '${redact(url)}' has a '%' that is no valid escape of UTF-8 (a '%' and two hex digits): write a '%' in it as %25`);
    }
  }
  return url;
}

/** The database number a Redis URL selects (its path), or null for the default; a path that is no number is named. */
export function redisDatabase(url: string, flag = '--redis'): number | null {
  const path = new URL(url).pathname.replace(/^\//, '');
  if (path === '') return null;
  if (!/^\d+$/.test(path)) throw new FocusCrawlError('USAGE', `${flag}: database '${path}' in '${redact(url)}' is not a number (redis://host:port/N)`);
  return Number(path);
}

/**
 * The shared crawl the flags name, the services given by flags or by the environment
 * (FOCUSCRAWL_REDIS, FOCUSCRAWL_PG), or null for the embedded one. Flags win over the environment. Naming one service without the other, or
 * either without --name, is an error that says what is missing.
 */
export function sharedTarget(flags: SharedFlags, env: NodeJS.ProcessEnv = process.env): SharedTarget | null {
  return resolveTarget(flags, env, true) as SharedTarget | null;
}

/**
 * As sharedTarget, for the readers that can do without Redis: Redis may be left out. `live`
 * (status, serve, report): Redis is asked when given, by --redis or FOCUSCRAWL_REDIS; otherwise
 * (search, export, services) only a --redis flag is read, checked and never connected to.
 */
export function sharedRecordTarget(flags: SharedFlags, env: NodeJS.ProcessEnv = process.env, live = false): (Omit<SharedTarget, 'redis'> & { redis: string | null }) | null {
  return resolveTarget(flags, env, false, live);
}

function resolveTarget(flags: SharedFlags, env: NodeJS.ProcessEnv, needsRedis: boolean, readsRedis = needsRedis): (Omit<SharedTarget, 'redis'> & { redis: string | null }) | null {
  // An empty variable is unset, as a shell user expects; a reader that never connects to Redis does not read its variable at all.
  const redis = flags.redis ?? (readsRedis ? env.FOCUSCRAWL_REDIS || undefined : undefined);
  const pg = flags.pg ?? (env.FOCUSCRAWL_PG || undefined);
  // The environment supplies the services, --name picks the crawl: without any of the three flags the crawl is embedded.
  const fromFlags = flags.redis !== undefined || flags.pg !== undefined || flags.name !== undefined;
  if (!fromFlags) return null;
  if (redis === undefined && needsRedis) throw new FocusCrawlError('USAGE', 'a shared crawl needs Redis for its frontier: pass --redis URL or set FOCUSCRAWL_REDIS');
  if (pg === undefined) throw new FocusCrawlError('USAGE', 'a shared crawl needs PostgreSQL for its repository: pass --pg URL or set FOCUSCRAWL_PG');
  if (flags.name === undefined) throw new FocusCrawlError('USAGE', 'a shared crawl needs a name: pass --name NAME (the same on every worker)');
  if (!NAME.test(flags.name)) throw new FocusCrawlError('USAGE', `--name: '${flags.name}' ${NAME_RULE}`);
  // A bad value is named where it came from: a user who gave no --redis looks for the variable.
  return {
    redis: redis === undefined ? null : checkRedisUrl(redis, flags.redis !== undefined ? '--redis' : 'FOCUSCRAWL_REDIS'),
    pg: checkUrl(pg, 'PostgreSQL', flags.pg !== undefined ? '--pg' : 'FOCUSCRAWL_PG', ['postgres:', 'postgresql:']),
    name: flags.name,
  };
}
