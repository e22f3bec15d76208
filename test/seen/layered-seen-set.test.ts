import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteFrontier } from '../../src/frontier/sqlite-frontier.js';
import { ClockCache } from '../../src/seen/clock-cache.js';
import { LayeredSeenSet } from '../../src/seen/layered-seen-set.js';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import { req } from '../frontier/describe-frontier.js';

for (const writer of ['inline', 'thread'] as const) {
  test(`a CLOCK cache over the SQLite URL index answers the seen test exactly (${writer} writer)`, async () => {
    const db = new SqliteDb(join(mkdtempSync(join(tmpdir(), 'fc-layered-')), 's.db'), { create: true, writer });
    try {
      const f = new SqliteFrontier(db, { delayMs: 0 }, 4);
      const urls = Array.from({ length: 50 }, (_x, i) => `http://h${i}.test/`);
      // New URLs, some still unflushed, some committed, most evicted from the 4-entry cache.
      assert.deepEqual(await f.add(urls.slice(0, 20).map((u) => req(u)), 0), urls.slice(0, 20).map(() => true));
      await db.settle();
      assert.deepEqual(await f.add(urls.slice(10, 30).map((u) => req(u)), 0), urls.slice(10, 30).map((_u, i) => i >= 10));
      // Settled (seen and no longer waiting) is answered through the seen set.
      const leased = await f.claim(100, 0);
      assert.equal(leased.length, 30);
      for (const r of leased) await f.complete(r, { state: 'done' }, 0);
      for (const u of urls.slice(0, 30)) assert.equal(f.settled(u), true, u);
      for (const u of urls.slice(30)) assert.equal(f.settled(u), false, u);
      const before = { ...f.seenCounters()! };
      assert.equal(f.settled(urls[29]!), true);
      const after = f.seenCounters()!;
      assert.equal(after.cacheHits, before.cacheHits + 1, 'a URL just looked up is a cache hit');
      assert.equal(after.cacheMisses, before.cacheMisses);
    } finally {
      await db.close();
    }
  });
}

test('the cache only ever holds URLs that were seen', () => {
  const seen = new Set<string>();
  const backing = {
    has: (fp: { hi: number; lo: number }) => seen.has(`${fp.hi}:${fp.lo}`),
    add: (fp: { hi: number; lo: number }) => !seen.has(`${fp.hi}:${fp.lo}`) && !!seen.add(`${fp.hi}:${fp.lo}`),
  };
  const s = new LayeredSeenSet(new ClockCache(8), backing);
  assert.equal(s.has('http://x/1'), false);
  assert.equal(s.has('http://x/1'), false, 'a miss that the backing set denies is not cached');
  assert.equal(s.add('http://x/1'), true);
  assert.equal(s.add('http://x/1'), false);
  assert.deepEqual(s.counters, { cacheHits: 1, cacheMisses: 3 });
});

test('reopening a crawl with a seen cache does not load the fingerprints, yet knows them', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'fc-layered-')), 'r.db');
  const db = new SqliteDb(path, { create: true });
  await new SqliteFrontier(db, {}, 16).add([req('http://a.test/1'), req('http://a.test/2')], 0);
  await db.close();
  const again = new SqliteDb(path, { create: false });
  const f = new SqliteFrontier(again, {}, 16);
  assert.deepEqual(await f.add([req('http://a.test/1'), req('http://a.test/3')], 0), [false, true]);
  await again.close();
});

test('each link is one seen test in the counters, as the caching paper counts: the settled check and the add of a new link count once', async () => {
  const db = new SqliteDb(join(mkdtempSync(join(tmpdir(), 'fc-layered-')), 'c.db'), { create: true });
  try {
    const f = new SqliteFrontier(db, { delayMs: 0, perHost: 100 }, 1000);
    const urls = Array.from({ length: 100 }, (_x, i) => `http://h${i % 5}.test/${i}`);
    // As link admission asks: settled() for every link, then add() for those not settled.
    const offer = async () => {
      const open = urls.filter((u) => !f.settled(u));
      await f.add(open.map((u) => req(u)), 0);
      return open.length;
    };
    assert.equal(await offer(), 100);
    assert.deepEqual(f.seenCounters(), { cacheHits: 0, cacheMisses: 100 }, 'new links: one miss each, not two');
    assert.equal(await offer(), 100, 'waiting: not settled, offered again (a raise may apply)');
    assert.deepEqual(f.seenCounters(), { cacheHits: 100, cacheMisses: 100 }, 'one hit each');
    for (const r of await f.claim(1000, 0)) await f.complete(r, { state: 'done' }, 0);
    assert.equal(await offer(), 0, 'done: settled');
    assert.deepEqual(f.seenCounters(), { cacheHits: 200, cacheMisses: 100 });
  } finally {
    await db.close();
  }
});
