import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { dropCrawlKeys } from '../../src/distributed/rebuild-frontier.js';

/**
 * The real Redis the integration tests use (127.0.0.1:6379; CI starts it). Nothing is skipped
 * when it is down: every test that needs it fails with this message.
 */
export const REDIS_URL = process.env.FOCUSCRAWL_TEST_REDIS ?? 'redis://127.0.0.1:6379';

const HOW_TO_START = 'start it with: redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no';

/** A connected client, or a rejection that says Redis is unreachable and how to start it. */
export async function connectTestRedis(): Promise<Redis> {
  // No endless reconnects: a test must fail, not hang, when Redis is down.
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null, enableOfflineQueue: false });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new Error(`Redis at ${REDIS_URL} is unreachable (${(err as Error).message}); ${HOW_TO_START}`);
  }
  return redis;
}

/** A key prefix no other test uses. */
export const freshPrefix = (what: string): string => `fctest:${what}:${randomBytes(5).toString('hex')}`;

/** Deletes every key under `prefix` (the same SCAN rebuild --force uses). */
export const dropPrefix = dropCrawlKeys;

/** Keys under `prefix` matching `pattern` (after the prefix), by SCAN. */
export async function keysUnder(redis: Redis, prefix: string, pattern: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:${pattern}`, 'COUNT', 1000);
    cursor = next;
    out.push(...keys);
  } while (cursor !== '0');
  return out;
}

/** MEMORY USAGE of the keys, summed, every element counted (SAMPLES 0). */
export async function memoryOf(redis: Redis, keys: string[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < keys.length; i += 500) {
    const pipe = redis.pipeline();
    for (const k of keys.slice(i, i + 500)) pipe.memory('USAGE', k, 'SAMPLES', 0);
    for (const [err, v] of (await pipe.exec()) ?? []) {
      if (err) throw err;
      total += Number(v ?? 0);
    }
  }
  return total;
}
