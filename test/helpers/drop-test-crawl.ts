import pg from 'pg';
import { pgSchema, redisPrefix } from '../../src/distributed/shared-crawl.js';
import { dropCrawlKeys } from '../../src/distributed/drop-crawl-keys.js';
import { PG_URL } from './test-pg.js';
import { connectTestRedis } from './test-redis.js';

/** Drops a shared test crawl's PostgreSQL schema (its record). */
export async function dropTestSchema(name: string): Promise<void> {
  const c = new pg.Client(PG_URL);
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS ${pgSchema(name)} CASCADE`);
  } finally {
    await c.end();
  }
}

/** Drops a shared test crawl whole: its Redis keys and its PostgreSQL schema. */
export async function dropTestCrawl(name: string): Promise<void> {
  const redis = await connectTestRedis();
  try {
    await dropCrawlKeys(redis, redisPrefix(name));
  } finally {
    redis.disconnect();
  }
  await dropTestSchema(name);
}
