import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { RedisFrontier, REBUILDING_FRONTIER, type RedisFrontierOptions } from '../../src/frontier/redis-frontier.js';
import { FocusCrawlError } from '../../src/errors.js';
import type { PolitenessOptions } from '../../src/frontier/host-scheduler.js';
import type { CrawlRequest } from '../../src/types.js';
import type { UrlJournal } from '../../src/frontier/url-journal.js';
import { unpack } from 'msgpackr';
import { urlKey } from '../../src/seen/fingerprint.js';
import { describeFrontier, req } from './describe-frontier.js';
import { BY_STRATEGY, tooDeepReason } from '../../src/frontier/frontier.js';
import { connectTestRedis, dropPrefix, freshPrefix, keysUnder } from '../helpers/test-redis.js';

const clients: Redis[] = [];
const prefixes: string[] = [];
const connection = connectTestRedis().then((r) => (clients.push(r), r));
// A rejected connection fails each test that awaits it; this only keeps it from failing the file twice.
connection.catch(() => {});

/** A worker on `prefix` with its own connection, as separate processes would have. */
async function worker(prefix: string, name: string, politeness: Partial<PolitenessOptions>, extra: Partial<RedisFrontierOptions> = {}): Promise<RedisFrontier> {
  const redis = name === 'w1' ? await connection : await connectTestRedis().then((r) => (clients.push(r), r));
  return new RedisFrontier(redis, { prefix, worker: name, politeness, ...extra });
}

async function fresh(what: string): Promise<string> {
  await connection;
  const p = freshPrefix(what);
  prefixes.push(p);
  return p;
}

after(async () => {
  const redis = await connection.catch(() => null);
  if (redis) for (const p of prefixes) await dropPrefix(redis, p);
  for (const c of clients) c.disconnect();
});

describeFrontier('RedisFrontier', async (p) => worker(await fresh('contract'), 'w1', p), { leasesExpire: true });
describeFrontier('RedisFrontier, 3 shards', async (p) => worker(await fresh('contract3'), 'w1', p, { shards: 3 }), { leasesExpire: true });

const T = 1_000_000;

/** A journal that records what a test gives it and ignores the rest. */
const journalOf = (parts: Partial<UrlJournal>): UrlJournal => ({ async added() {}, async raised() {}, async retried() {}, async rescored() {}, ...parts });

test('RedisFrontier: two workers on one crawl never get the same URL and hold perHost and delay jointly', async () => {
  const prefix = await fresh('two');
  const politeness = { perHost: 1, delayMs: 100 };
  const a = await worker(prefix, 'w1', politeness);
  const b = await worker(prefix, 'w2', politeness);
  const urls = [];
  for (let h = 0; h < 4; h++) for (let i = 0; i < 15; i++) urls.push(req(`http://h${h}.test/p${i}`, (i * 7) % 5));
  assert.equal((await a.add(urls.slice(0, 30), T)).filter(Boolean).length, 30);
  assert.equal((await b.add(urls, T)).filter(Boolean).length, 30, 'b sees what a added');

  const claimed = new Map<string, string>();
  const starts = new Map<string, { at: number; end: number }[]>();
  const busy: { w: RedisFrontier; r: CrawlRequest; end: number }[] = [];
  const FETCH_MS = 30;
  for (let now = T; claimed.size < urls.length; now += 10) {
    assert.ok(now < T + 60_000, 'the crawl ends');
    for (const x of busy.filter((x) => x.end <= now)) {
      await x.w.complete(x.r, { state: 'done' }, now);
      busy.splice(busy.indexOf(x), 1);
    }
    // Both workers ask at the same moment: Redis serialises the two claims.
    const [ga, gb] = await Promise.all([a.claim(3, now), b.claim(3, now)]);
    for (const [w, got] of [[a, ga], [b, gb]] as const) {
      for (const r of got) {
        assert.ok(!claimed.has(r.url), `${r.url} handed out twice`);
        claimed.set(r.url, w === a ? 'a' : 'b');
        const list = starts.get(r.host) ?? [];
        list.push({ at: now, end: now + FETCH_MS });
        starts.set(r.host, list);
        busy.push({ w, r, end: now + FETCH_MS });
      }
    }
  }
  for (const x of busy) await x.w.complete(x.r, { state: 'done' }, x.end);
  assert.deepEqual(await a.counts(), { waiting: 0, fetching: 0, done: 60, error: 0, discarded: 0, notFetched: 0 });
  assert.ok(new Set(claimed.values()).size === 2, 'both workers fetched');
  for (const [host, list] of starts) {
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      assert.ok(list[i]!.at >= prev.end, `${host}: one request at a time across workers`);
      assert.ok(list[i]!.at >= prev.end + politeness.delayMs, `${host}: the delay after a completion holds across workers`);
    }
  }
  assert.equal(await b.isFinished(), true);
});

test('RedisFrontier: a dead worker\'s leases return at expiry; its late completion changes nothing', async () => {
  const prefix = await fresh('dead');
  const dead = await worker(prefix, 'w1', { perHost: 3, delayMs: 0 });
  const alive = await worker(prefix, 'w2', { perHost: 3, delayMs: 0 });
  await dead.add([req('http://a.test/1', 3), req('http://a.test/2', 2), req('http://a.test/3', 1)], T);
  const lost = await dead.claim(5, T, 1000);
  assert.equal(lost.length, 3);
  assert.deepEqual(await alive.claim(5, T + 500), [], 'the host is at its limit while the leases live');
  assert.equal(await alive.isFinished(), false);
  assert.equal(await alive.reap(T + 1001), 3);
  const again = await alive.claim(5, T + 1001);
  assert.deepEqual(again.map((r) => [r.url, r.attempts, r.priority]), [['http://a.test/1', 0, 3], ['http://a.test/2', 0, 2], ['http://a.test/3', 0, 1]]);
  // The dead worker wakes up: its leases are gone, and another worker holds the URLs; giving a
  // host slot back (fetched) on a lost lease frees nothing of the holder's.
  await alive.add([req('http://a.test/4', 0.5)], T + 1001);
  await dead.fetched(lost[0]!, T + 1002);
  assert.deepEqual(await dead.claim(5, T + 1002), [], 'the host stays at its limit: the slots are the live worker\'s');
  await dead.complete(lost[0]!, { state: 'done' }, T + 1002);
  await dead.retry(lost[1]!, T + 1002, T + 1002);
  assert.equal(dead.lostLeases, 2, 'the lost fetched() is not counted again');
  assert.deepEqual(await alive.counts(), { waiting: 1, fetching: 3, done: 0, error: 0, discarded: 0, notFetched: 0 });
  for (const r of again) await alive.complete(r, { state: 'done' }, T + 1100);
  const [last] = await alive.claim(5, T + 1100);
  assert.equal(last?.url, 'http://a.test/4');
  await alive.complete(last!, { state: 'done' }, T + 1100);
  assert.deepEqual(await alive.counts(), { waiting: 0, fetching: 0, done: 4, error: 0, discarded: 0, notFetched: 0 });
  assert.equal(await alive.isFinished(), true);
});

test('RedisFrontier: a late final end of a reaped lease that no worker claimed since ends the URL where it waits, counted once in the host budget', async () => {
  const prefix = await fresh('late');
  const slow = await worker(prefix, 'w1', { perHost: 2, delayMs: 0 });
  const other = await worker(prefix, 'w2', { perHost: 2, delayMs: 0 });
  await slow.setHostBudget(2);
  await slow.add([req('http://a.test/1', 3), req('http://a.test/2', 2), req('http://a.test/3', 1)], T);
  const [one] = await slow.claim(1, T, 1000);
  assert.equal(one?.url, 'http://a.test/1');
  assert.equal(await other.reap(T + 1001), 1, 'the slow fetch outlived its lease');
  assert.deepEqual(await other.counts(), { waiting: 3, fetching: 0, done: 0, error: 0, discarded: 0, notFetched: 0 });
  await slow.complete(one!, { state: 'done' }, T + 1002);
  assert.equal(slow.lostLeases, 1, 'still a lease lost to expiry');
  assert.deepEqual(await other.counts(), { waiting: 2, fetching: 0, done: 1, error: 0, discarded: 0, notFetched: 0 });
  // The budget of 2 counts that fetch: one more URL of the host, not two, and never a.test/1 again.
  assert.deepEqual((await other.claim(5, T + 1003)).map((r) => r.url), ['http://a.test/2']);
  assert.equal(slow.settled('http://a.test/1'), true, 'the worker that ended it knows it is final');
  assert.deepEqual(await other.claim(5, T + 1004), [], 'the host is at its budget');
});

test('RedisFrontier: at most 3 Redis round trips per fetched page (claim in batches, add and complete once each)', async () => {
  const prefix = await fresh('trips');
  const f = await worker(prefix, 'w1', { perHost: 4, delayMs: 0 });
  await f.add(Array.from({ length: 10 }, (_, h) => req(`http://h${h}.test/`, 1)), T);
  const before = f.roundTrips;
  let pages = 0;
  for (let now = T; pages < 400; now++) {
    const batch = await f.claim(8, now);
    if (!batch.length) break;
    for (const r of batch) {
      const host = r.host;
      // Each page links 10 URLs of its site, most of them seen before (the local cache drops some).
      const links = Array.from({ length: 10 }, (_, i) => req(`http://${host}/p${(pages * 3 + i) % 200}`, 0.5));
      await f.add(links, now);
      await f.complete(r, { state: 'done' }, now);
      pages++;
    }
  }
  const perPage = (f.roundTrips - before) / pages;
  console.log(`round trips per fetched page: ${perPage.toFixed(2)} over ${pages} pages; seen cache ${JSON.stringify(f.seenCounters())}`);
  assert.ok(pages >= 400);
  assert.ok(perPage <= 3, `${perPage} round trips per page`);
});

test('RedisFrontier: a final end after fetched() leaves its host alone in Redis, and the host goes on', async () => {
  const prefix = await fresh('fetched-end');
  const f = await worker(prefix, 'w1', { perHost: 1, delayMs: 0 }, { traceScripts: true });
  const redis = await connection;
  await f.add([req('http://h.test/a', 2), req('http://h.test/b', 1)], T);
  const [a] = await f.claim(5, T);
  assert.equal(a?.url, 'http://h.test/a');
  await f.fetched(a!, T + 1);
  const trace = `${prefix}:{0}:trace`;
  await redis.del(trace);
  await f.complete(a!, { state: 'done' }, T + 2);
  const commands = (await redis.lrangeBuffer(trace, 0, -1)).map((e) => (unpack(e) as unknown[]).map(String));
  assert.ok(commands.some((c) => c[0] === 'HDEL' && c[1]?.endsWith(':lh')), 'the lease ended');
  // The host was placed when fetched() gave its slot back; the end reads and moves nothing of it.
  const hostWork = commands.filter((c) => c[1]?.endsWith(':h:h.test') || c[1]?.endsWith(':wait') || c[1]?.endsWith(':ready'));
  assert.deepEqual(hostWork, []);
  assert.deepEqual((await f.claim(5, T + 3)).map((r) => r.url), ['http://h.test/b']);
  assert.deepEqual(await f.counts(), { waiting: 0, fetching: 1, done: 1, error: 0, discarded: 0, notFetched: 0 });
});

test('RedisFrontier: a claim that comes back short answers nextReadyAt at that moment without a round trip, as a round trip would', async () => {
  const prefix = await fresh('hint');
  const f = await worker(prefix, 'w1', { perHost: 1, delayMs: 100 });
  await f.add([req('http://one.test/a', 0.9), req('http://one.test/b', 0.5), req('http://two.test/a', 0.1)], T);
  const got = await f.claim(5, T);
  assert.deepEqual(got.map((r) => r.url).sort(), ['http://one.test/a', 'http://two.test/a']);
  let trips = f.roundTrips;
  assert.equal(await f.nextReadyAt(T), null, 'both hosts at their limit: nothing will open by itself');
  assert.equal(f.roundTrips, trips, 'answered from the claim');
  assert.equal(await f.nextReadyAt(T + 1), null, 'a round trip says the same');
  assert.equal(f.roundTrips, trips + 1);
  await f.complete(got.find((r) => r.host === 'one.test')!, { state: 'done' }, T + 10);
  assert.deepEqual(await f.claim(5, T + 20), [], 'one.test waits out its delay');
  trips = f.roundTrips;
  assert.equal(await f.nextReadyAt(T + 20), T + 110);
  assert.equal(f.roundTrips, trips);
  assert.equal(await f.nextReadyAt(T + 21), T + 110, 'a round trip says the same');
  // A change this worker makes after the claim drops the hint: the answer comes from Redis.
  assert.deepEqual(await f.claim(5, T + 30), []);
  await f.add([req('http://three.test/a', 0.3)], T + 31);
  trips = f.roundTrips;
  assert.equal(await f.nextReadyAt(T + 30), T + 30, 'three.test is ready');
  assert.equal(f.roundTrips, trips + 1);
  // isFinished right after a short, empty claim: from the claim, and as a round trip says.
  const rest = await f.claim(5, T + 200);
  assert.equal(rest.length, 2, 'one.test/b and three.test/a');
  assert.deepEqual(await f.claim(5, T + 200), []);
  trips = f.roundTrips;
  assert.equal(await f.isFinished(), false, 'URLs in flight');
  assert.equal(f.roundTrips, trips);
  for (const r of [...rest, got.find((r) => r.host === 'two.test')!]) await f.complete(r, { state: 'done' }, T + 210);
  assert.deepEqual(await f.claim(5, T + 220), []);
  trips = f.roundTrips;
  assert.equal(await f.isFinished(), true);
  assert.equal(f.roundTrips, trips, 'answered from the claim');
  assert.equal(await f.nextReadyAt(T + 220), null);
  assert.equal(await f.isFinished(), true, "asked again after nextReadyAt: still the claim's answer");
  assert.equal(f.roundTrips, trips);
  await f.add([], T + 221); // a change of this worker's drops the hint
  assert.equal(await f.isFinished(), true, 'a round trip says the same');
  assert.equal(f.roundTrips, trips + 1);
});

test('RedisFrontier: the journal hears of each URL Redis admitted once, and of raises, retries and rescores', async () => {
  const prefix = await fresh('journal');
  const redis = await connection;
  const calls: string[] = [];
  const journal: UrlJournal = {
    async added(reqs, state, reason) {
      // After Redis admitted them: a repeat offer is not journaled again.
      const counts = await redis.hget(`${prefix}:{0}:n`, state === 'waiting' ? 'waiting' : 'discarded');
      calls.push(`added ${state} ${reason ?? '-'} ${reqs.map((r) => `${r.url}@${r.key}`).join(',')} (Redis had ${counts ?? 0})`);
    },
    async raised(reqs) {
      calls.push(`raised ${reqs.map((r) => `${r.url}:${r.priority}`).join(',')}`);
    },
    async retried(r) {
      calls.push(`retried ${r.url} attempts ${r.attempts}`);
    },
    async rescored(batch) {
      calls.push(`rescored ${batch.map((b) => `${b.key}:${b.priority}`).join(',')}`);
    },
  };
  const f = new RedisFrontier(redis, { prefix, worker: 'w1', politeness: { perHost: 1, delayMs: 0 }, journal });
  await f.add([req('http://a.test/1', 0.1)], T);
  await f.add([req('http://a.test/1', 0.5)], T);
  await f.discard([req('http://b.test/out')], 'out of scope');
  const [r] = await f.claim(1, T);
  await f.retry(r!, T, T);
  await f.rescore((q) => (q.url === 'http://a.test/1' ? 2 : null));
  const k = (u: string) => urlKey(u);
  assert.deepEqual(calls, [
    `added waiting - http://a.test/1@${k('http://a.test/1')} (Redis had 1)`,
    'raised http://a.test/1:0.5',
    `added discarded out of scope http://b.test/out@${k('http://b.test/out')} (Redis had 1)`,
    'retried http://a.test/1 attempts 1',
    `rescored ${k('http://a.test/1')}:2`,
  ]);
});

test("RedisFrontier: a page whose lease a reap gave back has its links journaled whatever Redis answers, until it is final, since its first worker's record of them may never have been committed", async () => {
  const prefix = await fresh('redelivered');
  const redis = await connection;
  const calls: string[] = [];
  const journal = journalOf({
    async added(reqs, state, reason) {
      calls.push(`${state} ${reason ?? '-'} ${reqs.map((r) => r.url).join(',')}`);
    },
  });
  // The first worker's journal stands for a record whose commit failed: it keeps nothing.
  const dead = await worker(prefix, 'w1', { perHost: 4, delayMs: 0 });
  await dead.add([req('http://a.test/page', 5), req('http://a.test/other', 4)], T);
  const [page] = await dead.claim(1, T, 1000);
  const links = (parent: string) => [req('http://a.test/1', 1, { parent }), req('http://a.test/2', 1, { parent })];
  await dead.add(links(page!.key), T);
  await dead.discard([req('http://out.test/x', 0, { parent: page!.key })], 'out of scope');
  // The first worker dies; its lease expires and another worker fetches the page again.
  const second = await worker(prefix, 'w2', { perHost: 4, delayMs: 0 }, { journal });
  assert.equal(await second.reap(T + 1001), 1);
  const [again] = await second.claim(1, T + 1001);
  assert.equal(again?.url, 'http://a.test/page');
  await second.add(links(again!.key), T + 1001);
  await second.discard([req('http://out.test/x', 0, { parent: again!.key })], 'out of scope');
  // A link Redis holds as waiting that this worker's rules now discard is recorded as waiting, as Redis holds it.
  await second.discard([req('http://a.test/1', 0, { parent: again!.key })], 'a trap');
  assert.deepEqual(calls, ['waiting - http://a.test/1,http://a.test/2', 'discarded out of scope http://out.test/x', 'waiting - http://a.test/1'], 'Redis answered "seen" for each, and the record still hears of them');
  // Released (its host paused), the page keeps its mark: a third worker, cold cache, records its links too.
  await second.release(again!, T + 1001, T + 1001);
  const third = await worker(prefix, 'w3', { perHost: 4, delayMs: 0 }, { journal });
  const [thirdTime] = await third.claim(1, T + 1002);
  assert.equal(thirdTime?.url, 'http://a.test/page');
  await third.add(links(thirdTime!.key), T + 1002);
  assert.equal(calls.length, 4);
  assert.equal(calls[3], 'waiting - http://a.test/1,http://a.test/2');
  // Final, it leaves no mark; a page fetched for the first time repeats nothing, even to a cold cache.
  await third.complete(thirdTime!, { state: 'done' }, T + 1003);
  assert.equal(await redis.scard(`${prefix}:{0}:rd`), 0);
  const fourth = await worker(prefix, 'w4', { perHost: 4, delayMs: 0 }, { journal });
  const [other] = await fourth.claim(1, T + 1003);
  assert.equal(other?.url, 'http://a.test/other');
  await fourth.add([req('http://a.test/2', 1, { parent: other!.key })], T + 1003);
  assert.equal(calls.length, 4);
});

test('RedisFrontier: carried state of every size survives raise, retry and claim, and leaves no piece behind', async () => {
  const redis = await connection;
  const prefix = await fresh('pieces');
  // Few buckets, so that short and long values share listpacks.
  const f = await worker(prefix, 'w1', { perHost: 100, delayMs: 0 }, { bucketBits: 0 });
  // Anchors that make the state one piece, several pieces, and too many pieces (kept whole in ul).
  const sizes = [0, 40, 70, 130, 400, 1100, 3000];
  const anchor = (n: number, c: string) => c.repeat(n);
  const urls = sizes.map((_, i) => `http://pieces.test/${i}`);
  await f.add(urls.map((u, i) => req(u, 1, { anchor: anchor(sizes[i]!, 'a'), data: { n: i }, depth: 3 })), T);
  // Raise each to the size of its neighbour: more pieces, fewer, and across the ul boundary.
  // The deeper path's depth gives way to the kept one (spliced into the new state).
  await f.add(urls.map((u, i) => req(u, 2, { anchor: anchor(sizes[(i + 1) % sizes.length]!, 'b'), parent: '00000000000000ab', depth: 7 })), T);
  const first = await f.claim(100, T);
  assert.equal(first.length, urls.length);
  for (const r of first) {
    const i = urls.indexOf(r.url);
    assert.equal(r.anchor, anchor(sizes[(i + 1) % sizes.length]!, 'b'), `anchor of ${r.url}`);
    assert.equal(r.parent, '00000000000000ab');
    assert.equal(r.depth, 3);
    assert.equal(r.priority, 2);
    assert.equal(r.data, null);
  }
  // A retry rewrites the kept part (attempts) and keeps the raised part.
  for (const r of first) await f.retry(r, T, T);
  const again = await f.claim(100, T + 1);
  assert.equal(again.length, urls.length);
  for (const r of again) {
    assert.equal(r.attempts, 1);
    assert.equal(r.anchor, anchor(sizes[(urls.indexOf(r.url) + 1) % sizes.length]!, 'b'));
  }
  for (const r of again) await f.complete(r, { state: 'done' }, T + 2);
  const left = (await keysUnder(redis, prefix, '*')).filter((k) => /:u(:\d+)?$|:ul$/.test(k));
  assert.deepEqual(left, [], 'no state left once every URL is final');
});

test('RedisFrontier: a crawl written in an earlier key layout is told apart; an empty one is marked with this one', async () => {
  const redis = await connection;
  const fresh1 = await fresh('layout');
  const f = await worker(fresh1, 'w1', {}, { shards: 2 });
  assert.equal(await f.layout(), 'current', 'an empty crawl takes this layout');
  await f.add([req('http://layout.test/a', 1)], T);
  assert.equal(await f.layout(), 'current', 'and keeps it');
  const old = await fresh('layout-old');
  await redis.hset(`${old}:{1}:n`, 'waiting', 3); // counters an earlier focuscrawl wrote, no layout mark
  assert.equal(await (await worker(old, 'w1', {}, { shards: 2 })).layout(), 'earlier');
});

test('RedisFrontier: while a rebuild refills the keys, a running worker stops at its next call and a new one is told; after it, both run', async () => {
  const prefix = await fresh('rebuilding');
  const running = await worker(prefix, 'w1', { perHost: 5, delayMs: 0 }, { shards: 2 });
  assert.equal(await running.layout(), 'current');
  await running.add([req('http://r.test/a', 1)], T);
  const rebuild = await worker(prefix, 'rebuild', { perHost: 5, delayMs: 0 }, { shards: 2 });
  await rebuild.beginRebuild();
  await rebuild.restoreFinal([{ url: 'http://r.test/done', host: 'r.test', state: 'done', reason: null }]);
  await rebuild.add([req('http://r.test/b', 2)], T);
  await assert.rejects(running.claim(5, T + 1), (err: Error) => err instanceof FocusCrawlError && err.message.startsWith(REBUILDING_FRONTIER));
  await assert.rejects(running.add([req('http://r.test/c', 1)], T + 1), (err: Error) => err.message.startsWith(REBUILDING_FRONTIER), 'an add writes nothing either');
  assert.equal(await (await worker(prefix, 'w2', {}, { shards: 2 })).layout(), 'rebuilding', 'a worker started meanwhile (or after an interrupted rebuild) is told');
  await rebuild.endRebuild();
  assert.equal(await (await worker(prefix, 'w3', {}, { shards: 2 })).layout(), 'current');
  const claimed = await running.claim(5, T + 2);
  assert.deepEqual(claimed.map((r) => r.url).sort(), ['http://r.test/a', 'http://r.test/b']);
});

test('RedisFrontier: a discard for depth stays revivable through rebuild, and across workers whatever their caches hold', async () => {
  const prefix = await fresh('too-deep');
  const f = await worker(prefix, 'w1', { perHost: 5, delayMs: 0 });
  const restored = await f.restoreFinal([
    { url: 'http://d.test/deep', host: 'd.test', state: 'discarded', reason: tooDeepReason(3) },
    { url: 'http://d.test/out', host: 'd.test', state: 'discarded', reason: 'out of scope (host)' },
    { url: 'http://d.test/done', host: 'd.test', state: 'done', reason: null },
  ]);
  assert.equal(restored, 3);
  assert.deepEqual(await f.counts(), { waiting: 0, fetching: 0, done: 1, error: 0, discarded: 2, notFetched: 0 });
  // Worker 2 meets the URL too deep again (seen: not new), then worker 1 by a shorter path.
  const g = await worker(prefix, 'w2', { perHost: 5, delayMs: 0 });
  assert.deepEqual(await g.discard([req('http://d.test/deep', 0, { depth: 5 }), req('http://d.test/late', 0, { depth: 5 })], tooDeepReason(3)), [false, true]);
  assert.equal(g.settled('http://d.test/deep'), false, 'not cached as final');
  assert.deepEqual(await f.add([req('http://d.test/deep', 0.5, { depth: 2 }), req('http://d.test/out', 0.5), req('http://d.test/done', 0.5)], T), ['revived', false, false]);
  assert.deepEqual(await g.add([req('http://d.test/late', 0.4, { depth: 3 })], T), ['revived'], 'the worker that discarded it revives it');
  assert.deepEqual(await f.counts(), { waiting: 2, fetching: 0, done: 1, error: 0, discarded: 1, notFetched: 0 });
  assert.deepEqual((await f.claim(5, T)).map((r) => [r.url, r.depth]), [['http://d.test/deep', 2], ['http://d.test/late', 3]]);
});

test('RedisFrontier: rebuild counts the errors that made no request apart, so the page budget still leaves them out', async () => {
  const prefix = await fresh('unfetched');
  const f = await worker(prefix, 'w1', { perHost: 5, delayMs: 0 });
  await f.restoreFinal([
    { url: 'http://e.test/dead', host: 'e.test', state: 'error', reason: 'host unreachable: ECONNREFUSED (2 failures in a row)' },
    { url: 'http://e.test/500', host: 'e.test', state: 'error', reason: 'HTTP 500' },
    { url: 'http://e.test/done', host: 'e.test', state: 'done', reason: null },
  ]);
  assert.deepEqual(await f.counts(), { waiting: 0, fetching: 0, done: 1, error: 2, discarded: 0, notFetched: 1 });
  // A budget of 4: two fetches so far (done and the HTTP 500), so two of three new URLs are leased.
  await f.setPageBudget(4);
  await f.add([req('http://e.test/1', 0.5), req('http://e.test/2', 0.4), req('http://e.test/3', 0.3)], T);
  assert.deepEqual((await f.claim(5, T)).map((r) => r.url), ['http://e.test/1', 'http://e.test/2']);
});

test("RedisFrontier: a worker whose claim the page budget cut to nothing, while another worker's leases hold the rest, is not told a host is ready", async () => {
  const prefix = await fresh('budget-held');
  const a = await worker(prefix, 'w1', { perHost: 5, delayMs: 0 });
  const b = await worker(prefix, 'w2', { perHost: 5, delayMs: 0 });
  await a.setPageBudget(2);
  await a.add([req('http://b.test/1', 0.9), req('http://b.test/2', 0.8), req('http://b.test/3', 0.7)], T);
  const held = await a.claim(5, T);
  assert.equal(held.length, 2);
  assert.deepEqual(await b.claim(5, T), []);
  // Asked twice, as the crawl loop does (its unreachable-host check asks first): the second
  // answer came from Redis, where the host is ready, so it was T and the loop asked again a
  // millisecond later, for as long as the other worker's leases lasted. Now both are the
  // claim's: no host opens by itself (null), and the loop waits its 100 ms.
  for (let i = 0; i < 2; i++) assert.equal(await b.nextReadyAt(T), null, `answer ${i + 1}`);
  assert.equal(await b.isFinished(), false, 'URLs wait: not finished');
  // A lease given back frees a share of the budget for the next claim.
  await a.release(held[0]!, T, T);
  assert.deepEqual((await b.claim(5, T + 1)).map((r) => r.url), [held[0]!.url]);
});

test("RedisFrontier: rebuild restores each host's fetches against its budget, as a reopened SQLite frontier does", async () => {
  const prefix = await fresh('host-budget-rebuild');
  const f = await worker(prefix, 'w1', { perHost: 5, delayMs: 0 });
  await f.restoreFinal([
    { url: 'http://h.test/done', host: 'h.test', state: 'done', reason: null },
    { url: 'http://h.test/404', host: 'h.test', state: 'error', reason: 'HTTP 404' },
    { url: 'http://h.test/dead', host: 'h.test', state: 'error', reason: 'host unreachable: ECONNREFUSED (2 failures in a row)' },
    { url: 'http://h.test/out', host: 'h.test', state: 'discarded', reason: 'out of scope (host)' },
    { url: 'http://k.test/done', host: 'k.test', state: 'done', reason: null },
  ]);
  // Budget 3: h.test fetched two pages (the end without a request and the discard are none), k.test one.
  await f.setHostBudget(3);
  await f.add([req('http://h.test/1', 0.9), req('http://h.test/2', 0.8), req('http://k.test/1', 0.7), req('http://k.test/2', 0.6), req('http://k.test/3', 0.5)], T);
  assert.deepEqual((await f.claim(10, T)).map((r) => r.url).sort(), ['http://h.test/1', 'http://k.test/1', 'http://k.test/2']);
});

test('RedisFrontier: a URL the strategy discarded is answered locally when discarded again, and still revived by an add', async () => {
  const prefix = await fresh('revivable-cache');
  const f = await worker(prefix, 'w1', { perHost: 5, delayMs: 0 });
  const link = req('http://nav.test/menu', 0);
  assert.deepEqual(await f.discard([link], `${BY_STRATEGY} threshold`), [true]);
  const trips = f.roundTrips;
  // The menu link on every other off-topic page: before, each page sent it to Redis again.
  for (let i = 0; i < 5; i++) assert.deepEqual(await f.discard([link], `${BY_STRATEGY} threshold`), [false]);
  assert.equal(f.roundTrips, trips, 'answered from the local cache');
  assert.equal(f.knownSeen(link.url), false, 'not known for good: a better page may revive it');
  assert.deepEqual(await f.add([req('http://nav.test/menu', 0.7)], T), ['revived']);
  assert.deepEqual((await f.claim(5, T)).map((r) => [r.url, r.priority]), [['http://nav.test/menu', 0.7]]);
});
