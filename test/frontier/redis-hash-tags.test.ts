import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unpack } from 'msgpackr';
import { RedisFrontier } from '../../src/frontier/redis-frontier.js';
import { hashTag, shardBase } from '../../src/frontier/redis-keys.js';
import { req } from './describe-frontier.js';
import { connectTestRedis, dropPrefix, freshPrefix } from '../helpers/test-redis.js';

/**
 * The scripts derive host keys inside Lua instead of declaring them, which Redis Cluster allows
 * only when every key lies in the slot of the declared one. Traced scripts log each command they
 * run; Redis itself (COMMAND GETKEYS) says which arguments are keys, and each must carry the
 * hash tag of its shard.
 */
test('RedisFrontier: every key every script touches carries its shard\'s hash tag', async () => {
  const redis = await connectTestRedis();
  const prefix = freshPrefix('tags');
  const SHARDS = 4;
  try {
    const f = new RedisFrontier(redis, { prefix, worker: 'w1', shards: SHARDS, politeness: { perHost: 2, delayMs: 10 }, traceScripts: true });
    const other = new RedisFrontier(redis, { prefix, worker: 'w2', shards: SHARDS, politeness: { perHost: 2, delayMs: 10 }, traceScripts: true });
    const T = 1_000_000;
    const urls = [];
    for (let h = 0; h < 12; h++) for (let i = 0; i < 4; i++) urls.push(req(`http://h${h}.test/${i}`, i));
    await f.add(urls, T);
    await other.add([req('http://h1.test/0', 9), req('http://h2.test/x', 1)], T); // a raise and a new URL
    await f.discard([req('http://h3.test/out', 0), req('http://h3.test/0', 0)], 'out of scope');
    await f.setHostDelay('h4.test', 50);
    await f.setHostBudget(3);
    await f.rescore((r) => r.priority + 1);
    const got = await f.claim(20, T, 1000);
    await f.renew(got.slice(0, 2), T + 10, 1000);
    await f.complete(got[0]!, { state: 'done' }, T + 20);
    await f.retry(got[1]!, T + 100, T + 20);
    await f.release(got[2]!, T + 100, T + 20);
    await other.claimHost('h5.test', T + 20);
    assert.ok((await other.reap(T + 5000)) > 0);
    await f.claim(20, T + 5000);

    let commands = 0;
    const shardsSeen = new Set<number>();
    for (let s = 0; s < SHARDS; s++) {
      const trace = await redis.lrangeBuffer(`${shardBase(prefix, s)}trace`, 0, -1);
      for (const entry of trace) {
        const args = (unpack(entry) as unknown[]).map(String);
        const keys = (await redis.call('COMMAND', 'GETKEYS', ...args)) as string[];
        assert.ok(keys.length > 0, `${args[0]} touches a key`);
        for (const k of keys) assert.equal(hashTag(k), String(s), `${args.join(' ').slice(0, 120)}: key ${k} is outside shard ${s}'s slot`);
        commands++;
        shardsSeen.add(s);
      }
    }
    assert.equal(shardsSeen.size, SHARDS, 'the workload reached every shard');
    assert.ok(commands > 300, `${commands} commands checked`);
  } finally {
    await dropPrefix(redis, prefix);
    redis.disconnect();
  }
});
