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

/** Whether Redis holds any key of the crawl (a frontier in any layout, or what a worker left). */
export async function hasCrawlKeys(redis: Redis, prefix: string): Promise<boolean> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length) return true;
    cursor = next;
  } while (cursor !== '0');
  return false;
}
