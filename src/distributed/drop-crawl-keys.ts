import type { Redis } from 'ioredis';

/** Deletes every key of a crawl (SCAN: an administrative command, never a worker's hot path); returns how many. */
export async function dropCrawlKeys(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let n = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) n += await redis.unlink(...keys);
  } while (cursor !== '0');
  return n;
}
