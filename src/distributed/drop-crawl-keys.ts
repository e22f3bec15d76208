import type { Redis } from 'ioredis';

/** A crawl's keys, a SCAN batch at a time (an administrative walk, never a worker's hot path). */
async function* crawlKeyBatches(redis: Redis, prefix: string, tail = ''): AsyncGenerator<string[]> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*${tail}`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) yield keys;
  } while (cursor !== '0');
}

/**
 * Deletes every key of a crawl; returns how many. The shards' settings (`cfg`, which holds the
 * layout mark) go first: a running worker's scripts then refuse at once, and cannot recreate a
 * shard's counters between two batches of the walk.
 */
export async function dropCrawlKeys(redis: Redis, prefix: string): Promise<number> {
  let n = 0;
  for await (const keys of crawlKeyBatches(redis, prefix, ':cfg')) n += await redis.unlink(...keys);
  for await (const keys of crawlKeyBatches(redis, prefix)) n += await redis.unlink(...keys);
  return n;
}

/** Whether Redis holds any key of the crawl (a frontier in any layout, or what a worker left). */
export async function hasCrawlKeys(redis: Redis, prefix: string): Promise<boolean> {
  for await (const _keys of crawlKeyBatches(redis, prefix)) return true;
  return false;
}
