import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RedisFrontier } from '../../src/frontier/redis-frontier.js';
import { shardBase } from '../../src/frontier/redis-keys.js';
import { req } from './describe-frontier.js';
import { connectTestRedis, dropPrefix, freshPrefix, keysUnder, memoryOf } from '../helpers/test-redis.js';

/**
 * Redis memory per waiting URL (MEMORY USAGE of the host queues, the carried-state hash and the
 * per-host hashes and heaps; the seen set is measured in test/seen/redis-seen-set.test.ts), for
 * URLs of realistic length with a little carried state, over 20 hosts: queues of 1,000 URLs are
 * skiplists, the expensive encoding. The seen set has 128 buckets, as a crawl that expects to see
 * 20,000 URLs gets (seenBucketBitsFor), so the state buckets hold about 160 URLs each.
 */
test('RedisFrontier: memory per waiting URL', async () => {
  const redis = await connectTestRedis();
  const prefix = freshPrefix('mem');
  try {
    const f = new RedisFrontier(redis, { prefix, worker: 'w1', politeness: { perHost: 2, delayMs: 1000 }, bucketBits: 7 });
    const N = 20_000;
    let urlBytes = 0;
    for (let i = 0; i < N; i += 500) {
      const batch = Array.from({ length: 500 }, (_, j) => {
        const n = i + j;
        const url = `https://www.host${n % 20}.example.org/section-${n % 37}/article-${n}.html`;
        urlBytes += url.length;
        return req(url, (n % 1000) / 1000, { depth: 3, parent: '00000000000000ab', anchor: `Article ${n}`, data: { m: n % 100 } });
      });
      await f.add(batch, 1_000_000);
    }
    assert.equal((await f.counts()).waiting, N);
    const base = shardBase(prefix, 0);
    const all = await keysUnder(redis, prefix, '*');
    const frontierKeys = all.filter((k) => !k.startsWith(base + 'seen:'));
    const queues = frontierKeys.filter((k) => k.startsWith(base + 'q:'));
    const perUrl = (await memoryOf(redis, frontierKeys)) / N;
    const queuePerUrl = (await memoryOf(redis, queues)) / N;
    const states = frontierKeys.filter((k) => k.startsWith(base + 'u:') || k === base + 'ul');
    const statePerUrl = (await memoryOf(redis, states)) / N;
    console.log(
      `waiting URLs: ${perUrl.toFixed(1)} bytes each (queues ${queuePerUrl.toFixed(1)}, carried state ${statePerUrl.toFixed(1)}; URLs average ${(urlBytes / N).toFixed(1)} characters); encodings: a queue ${await redis.object('ENCODING', queues[0]!)}, a state bucket ${await redis.object('ENCODING', states[0]!)}`,
    );
    // The target is 200 bytes a waiting URL; this records where the design stands.
    assert.ok(perUrl < 400, `${perUrl} bytes per waiting URL`);
  } finally {
    await dropPrefix(redis, prefix);
    redis.disconnect();
  }
});
