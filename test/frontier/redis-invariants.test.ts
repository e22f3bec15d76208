import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { RedisFrontier } from '../../src/frontier/redis-frontier.js';
import { shardBase } from '../../src/frontier/redis-keys.js';
import type { CrawlRequest } from '../../src/types.js';
import { req } from './describe-frontier.js';
import { connectTestRedis, dropPrefix, freshPrefix } from '../helpers/test-redis.js';

/**
 * The scripts keep a host's place from what they know of it, not by reading it back each time
 * (redis-scripts.ts, placeKnown). Here a long random run of adds, raises, claims, completions,
 * slots given back by fetched(), retries, releases, lease expiries, Crawl-delays and budget changes checks after every step,
 * from Redis's own keys, the invariant the scripts promise: a host is in `wait` or `ready`, never
 * both, exactly when it has waiting URLs, fewer than perHost in flight and is under the budget;
 * its in-flight count is the leases held on it; its rm field names its member in `ready`; and the
 * counters match the queues and the leases.
 */
const connection = connectTestRedis();
connection.catch(() => {});
const prefixes: string[] = [];
after(async () => {
  const redis = await connection.catch(() => null);
  if (redis) {
    for (const p of prefixes) await dropPrefix(redis, p);
    redis.disconnect();
  }
});

const HOSTS = ['a.test', 'b.test', 'c.test', 'd.test', 'e.test'];
const PER_HOST = 2;

async function check(redis: Redis, prefix: string, step: string, budget: number | null): Promise<void> {
  const B = shardBase(prefix, 0);
  const ready = new Map<string, Buffer>();
  for (const m of await redis.zrangeBuffer(`${B}ready`, 0, -1)) ready.set(m.subarray(4).toString(), m);
  const wait = new Set(await redis.zrange(`${B}wait`, 0, -1));
  const leases = await redis.hgetall(`${B}lh`);
  const held = new Map<string, number>();
  for (const v of Object.values(leases)) {
    const m = /^\S+ \S+ (\S+)( f)?$/.exec(v.slice(4));
    const host = m?.[1] ?? '?';
    // A lease whose slot fetched() gave back no longer counts against its host.
    if (!m?.[2]) held.set(host, (held.get(host) ?? 0) + 1);
  }
  let waiting = 0;
  for (const host of HOSTS) {
    const q = await redis.zcard(`${B}q:${host}`);
    waiting += q;
    const [f, t, rm] = await redis.hmgetBuffer(`${B}h:${host}`, 'f', 't', 'rm');
    const inFlight = Number(f?.toString() ?? 0);
    assert.equal(inFlight, held.get(host) ?? 0, `${step}: ${host} in flight = leases held`);
    const open = q > 0 && inFlight < PER_HOST && (budget === null || Number(t?.toString() ?? 0) < budget);
    assert.ok(!(ready.has(host) && wait.has(host)), `${step}: ${host} in both heaps`);
    assert.equal(ready.has(host) || wait.has(host), open, `${step}: ${host} (${q} waiting, ${inFlight} in flight) placed = ${open}`);
    if (ready.has(host)) assert.ok(rm && rm.equals(ready.get(host)!), `${step}: ${host} rm names its ready member`);
    else assert.equal(rm, null, `${step}: ${host} has no rm outside ready`);
  }
  const n = await redis.hgetall(`${B}n`);
  assert.equal(Number(n.waiting ?? 0), waiting, `${step}: waiting counter`);
  assert.equal(Number(n.fetching ?? 0), Object.keys(leases).length, `${step}: fetching counter`);
}

// With a delay every ended lease puts its host in `wait`; without one, straight back in `ready`.
for (const delayMs of [40, 0]) test(`RedisFrontier keeps every host placed by its queue, its leases and its budget through a long random run (delay ${delayMs} ms)`, async () => {
  const redis = await connection;
  const prefix = freshPrefix('invariants');
  prefixes.push(prefix);
  const f = new RedisFrontier(redis, { prefix, worker: 'w1', politeness: { perHost: PER_HOST, delayMs } });
  let seed = 5 + delayMs;
  const rnd = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  let now = 1_000_000;
  let budget: number | null = null;
  const held: CrawlRequest[] = [];
  const counts = { claimed: 0, fetched: 0, done: 0, retried: 0, released: 0, reaped: 0, raised: 0 };
  for (let i = 0; i < 600; i++) {
    now += rnd(60);
    const op = rnd(100);
    let step: string;
    if (op < 30) {
      const batch = Array.from({ length: 1 + rnd(4) }, () => req(`http://${HOSTS[rnd(HOSTS.length)]}/p${rnd(60)}`, rnd(100) / 100));
      const fresh = await f.add(batch, now);
      counts.raised += batch.length - fresh.filter(Boolean).length;
      step = `add ${batch.length}`;
    } else if (op < 55) {
      const got = await f.claim(1 + rnd(3), now, 2_000);
      held.push(...got);
      counts.claimed += got.length;
      step = `claim ${got.length}`;
    } else if (op < 62 && held.length) {
      const r = held[rnd(held.length)]!;
      await f.fetched(r, now);
      counts.fetched++;
      step = `fetched ${r.url}`;
    } else if (op < 88 && held.length) {
      const r = held.splice(rnd(held.length), 1)[0]!;
      const k = rnd(4);
      if (k === 0) await f.retry(r, now + rnd(200), now), counts.retried++;
      else if (k === 1) await f.release(r, now + rnd(200), now), counts.released++;
      else await f.complete(r, { state: rnd(5) ? 'done' : 'error', reason: 'x' } as never, now), counts.done++;
      step = `end ${r.url} (${k})`;
    } else if (op < 92) {
      // Leases run out: everything held returns to waiting.
      now += 2_500;
      counts.reaped += await f.reap(now);
      held.length = 0;
      step = 'reap';
    } else if (op < 96) {
      await f.setHostDelay(HOSTS[rnd(HOSTS.length)]!, rnd(3) * 100);
      step = 'crawl-delay';
    } else {
      budget = rnd(3) ? 5 + rnd(40) : null;
      await f.setHostBudget(budget ?? Infinity);
      step = `budget ${budget}`;
    }
    await check(redis, prefix, `step ${i} (${step})`, budget);
  }
  // The run went through every path the invariant depends on.
  for (const [k, v] of Object.entries(counts)) assert.ok(v > 3, `${k}: ${v}`);
});
