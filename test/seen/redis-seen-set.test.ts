import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { RedisSeenSet } from '../../src/seen/redis-seen-set.js';
import { fingerprint } from '../../src/seen/fingerprint.js';
import { describeSeenBacking } from './describe-seen-backing.js';
import { connectTestRedis, dropPrefix, freshPrefix, keysUnder, memoryOf } from '../helpers/test-redis.js';

const connection = connectTestRedis();
connection.catch(() => {});
const prefixes: string[] = [];

async function fresh(what: string): Promise<{ redis: Redis; prefix: string }> {
  const redis = await connection;
  const prefix = freshPrefix(what);
  prefixes.push(prefix);
  return { redis, prefix };
}

after(async () => {
  const redis = await connection.catch(() => null);
  if (!redis) return;
  for (const p of prefixes) await dropPrefix(redis, p);
  redis.disconnect();
});

describeSeenBacking('RedisSeenSet', async () => {
  const { redis, prefix } = await fresh('seen');
  return { set: new RedisSeenSet(redis, { prefix }), close: async () => {} };
});

describeSeenBacking('RedisSeenSet, 4 shards, no cache', async () => {
  const { redis, prefix } = await fresh('seen4');
  return { set: new RedisSeenSet(redis, { prefix, shards: 4, cache: 1 }), close: async () => {} };
});

test('RedisSeenSet: repeats answer from the local cache without a round trip; the counters say so', async () => {
  const { redis, prefix } = await fresh('seencache');
  const set = new RedisSeenSet(redis, { prefix });
  const fps = ['http://a.test/1', 'http://a.test/2'].map(fingerprint);
  await set.addMany(fps);
  const trips = set.roundTrips;
  assert.deepEqual(await set.addMany(fps), [false, false]);
  assert.deepEqual(await set.hasMany(fps), [true, true]);
  assert.equal(set.roundTrips, trips);
  assert.deepEqual(set.counters, { cacheHits: 4, cacheMisses: 2 });
  // Another worker, with an empty cache, asks Redis.
  assert.deepEqual(await new RedisSeenSet(redis, { prefix }).hasMany(fps), [true, true]);
});

test('RedisSeenSet: with the hosts given, a fingerprint is placed where the frontier of the same crawl puts it', async () => {
  const { redis, prefix } = await fresh('seenhosts');
  const set = new RedisSeenSet(redis, { prefix, shards: 8, cache: 1 });
  const fp = fingerprint('http://a.test/1');
  await set.addMany([fp], ['a.test']);
  assert.deepEqual(await set.hasMany([fp], ['a.test']), [true]);
  assert.equal((await keysUnder(redis, prefix, `{${set.place(fp, 'a.test').shard}}:seen:*`)).length, 1);
});

/**
 * Memory of the seen set, measured with MEMORY USAGE. Buckets stay intset-encoded while they hold
 * at most `set-max-intset-entries` (512 by default): 200,000 fingerprints in 4,096 buckets are
 * about 49 a bucket, so this needs no CONFIG SET. At 2^16 buckets the same 200,000 are 3 a bucket
 * and each bucket's own 60-70 bytes dominate: the bucket count must suit the crawl's size.
 */
test('RedisSeenSet: 200,000 fingerprints cost under 16 bytes each in intset buckets', async () => {
  const all = Array.from({ length: 200_000 }, (_, i) => fingerprint(`https://www.site${i % 1000}.example/articles/${i}.html`));
  const sizes: Record<number, number> = {};
  for (const bits of [12, 16]) {
    const { redis, prefix } = await fresh(`seenmem${bits}`);
    const set = new RedisSeenSet(redis, { prefix, bucketBits: bits, cache: 1 });
    for (let i = 0; i < all.length; i += 5000) await set.addMany(all.slice(i, i + 5000));
    assert.equal(await set.size(), all.length);
    const buckets = await keysUnder(redis, prefix, '{0}:seen:*');
    const encodings = new Set<string>();
    for (const k of buckets.slice(0, 50)) encodings.add(String(await redis.object('ENCODING', k)));
    assert.deepEqual([...encodings], ['intset']);
    sizes[bits] = (await memoryOf(redis, buckets)) / all.length;
    console.log(`seen set: ${sizes[bits]!.toFixed(2)} bytes per fingerprint at 2^${bits} buckets (${buckets.length} buckets, 200,000 fingerprints)`);
    await dropPrefix(redis, prefix);
  }
  assert.ok(sizes[12]! < 16, `${sizes[12]} bytes per seen URL`);
});
