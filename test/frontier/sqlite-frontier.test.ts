import { urlKey } from '../../src/seen/fingerprint.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteFrontier } from '../../src/frontier/sqlite-frontier.js';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import { describeFrontier, req } from './describe-frontier.js';
import { BY_STRATEGY, THROUGH_REDIRECT, tooDeepReason } from '../../src/frontier/frontier.js';

const dir = mkdtempSync(join(tmpdir(), 'fc-frontier-'));
let n = 0;

describeFrontier('SqliteFrontier', async (p) => {
  const db = new SqliteDb(join(dir, `f${n++}.db`), { create: true });
  const f = new SqliteFrontier(db, p);
  const close = f.close.bind(f);
  f.close = async () => {
    await close();
    await db.close();
  };
  return f;
});

test('SqliteFrontier: reopening restores seen set, waiting URLs, counts; open leases return to waiting', async () => {
  const path = join(dir, 'reopen.db');
  const T = 1000;
  {
    const db = new SqliteDb(path, { create: true });
    const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 });
    await f.add([req('http://a.test/1', 0.5, { data: { m: 100 } }), req('http://a.test/2', 0.4), req('http://a.test/3', 0.3)], T);
    await f.discard([req('http://z.test/')], 'out of scope');
    const [r1, r2] = await f.claim(2, T);
    await f.complete(r1!, { state: 'done' }, T);
    void r2; // leased when the "crash" happens
    db.flush();
    db.db.close(); // no further flush: like kill -9 after the last commit
  }
  const db = new SqliteDb(path, { create: false });
  const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 });
  assert.deepEqual(await f.counts(), { waiting: 2, fetching: 0, done: 1, error: 0, discarded: 1, notFetched: 0 });
  assert.deepEqual(await f.add([req('http://a.test/1'), req('http://z.test/'), req('http://a.test/4')], T), [false, false, true]);
  const got = await f.claim(10, T);
  assert.deepEqual(got.map((r) => [r.url, r.id]), [['http://a.test/2', 2], ['http://a.test/3', 3], ['http://a.test/4', 5]]);
  await db.close();
});

test('SqliteFrontier: a raise on rediscovery is durable', async () => {
  const path = join(dir, 'raise.db');
  {
    const db = new SqliteDb(path, { create: true });
    const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 });
    await f.add([req('http://a.test/1', 0.1, { data: { m: 10 }, depth: 4 }), req('http://a.test/2', 0.5)], 0);
    await f.add([req('http://a.test/1', 0.9, { data: { m: 100 }, depth: 2, anchor: 'better', parent: '0000000000000002' })], 0);
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 });
  const got = await f.claim(10, 0);
  assert.deepEqual(got.map((r) => [r.url, r.priority, r.data, r.depth, r.anchor, r.parent]), [['http://a.test/1', 0.9, { m: 100 }, 2, 'better', '0000000000000002'], ['http://a.test/2', 0.5, null, 1, '', null]]);
  await db.close();
});

test('SqliteFrontier: errors that made no request are counted apart after reopening too', async () => {
  const path = join(dir, 'unfetched.db');
  const T = 1000;
  {
    const db = new SqliteDb(path, { create: true });
    const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 });
    await f.add([req('http://a.test/1'), req('http://a.test/2'), req('http://a.test/3')], T);
    const [r1, r2, r3] = await f.claim(3, T);
    await f.complete(r1!, { state: 'error', reason: 'host unreachable: ECONNREFUSED (2 failures in a row)' }, T);
    await f.complete(r2!, { state: 'error', reason: 'HTTP 500' }, T);
    await f.complete(r3!, { state: 'done' }, T);
    assert.deepEqual(await f.counts(), { waiting: 0, fetching: 0, done: 1, error: 2, discarded: 0, notFetched: 1 });
    db.flush();
    db.db.close();
  }
  const db = new SqliteDb(path, { create: false });
  const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 });
  assert.deepEqual(await f.counts(), { waiting: 0, fetching: 0, done: 1, error: 2, discarded: 0, notFetched: 1 });
  // Two fetches (the page done and the HTTP 500) count against a host budget of 3; the end without a request does not.
  await f.setHostBudget(3);
  await f.add([req('http://a.test/4'), req('http://a.test/5')], T);
  assert.deepEqual((await f.claim(5, T)).map((r) => r.url), ['http://a.test/4']);
  await db.close();
});

test('SqliteFrontier: a URL discarded as too deep stays revivable after reopening, with the whole seen set in memory or a cache of it', async () => {
  for (const seenCache of [0, 1000]) {
    const path = join(dir, `too-deep-${seenCache}.db`);
    {
      const db = new SqliteDb(path, { create: true });
      const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 }, seenCache);
      await f.discard([req('http://a.test/deep', 0, { depth: 4 })], tooDeepReason(3));
      await f.discard([req('http://a.test/out', 0, { depth: 1 })], 'out of scope (host)');
      await db.close();
    }
    const db = new SqliteDb(path, { create: false });
    const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 }, seenCache);
    assert.equal(f.settled('http://a.test/deep'), false);
    assert.deepEqual(await f.add([req('http://a.test/deep', 0.5, { depth: 2, anchor: 'short' }), req('http://a.test/out', 0.5)], 0), ['revived', false]);
    await db.close();
    const again = new SqliteDb(path, { create: false });
    const row = again.db.prepare("SELECT state, depth, anchor, reason FROM urls WHERE url = 'http://a.test/deep'").get();
    assert.deepEqual({ ...(row as object) }, { state: 0, depth: 2, anchor: 'short', reason: null }, `seenCache ${seenCache}`);
    const g = new SqliteFrontier(again, { perHost: 5, delayMs: 0 }, seenCache);
    assert.deepEqual((await g.claim(5, 0)).map((r) => [r.url, r.depth]), [['http://a.test/deep', 2]]);
    assert.deepEqual(await g.counts(), { waiting: 0, fetching: 1, done: 0, error: 0, discarded: 1, notFetched: 0 });
    await again.close();
  }
});

test('SqliteFrontier: a redirect target that took the place of a too-deep discard stays final after reopening', async () => {
  const path = join(dir, 'redirect-took.db');
  {
    const db = new SqliteDb(path, { create: true });
    const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 }, 0);
    await f.discard([req('http://a.test/landing', 0, { depth: 4 })], tooDeepReason(3));
    assert.deepEqual(await f.discard([req('http://a.test/landing', 0, { depth: 1, anchor: 'moved' })], `${THROUGH_REDIRECT} from http://a.test/r`), ['revived']);
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  const row = db.db.prepare("SELECT state, depth, anchor, reason FROM urls WHERE url = 'http://a.test/landing'").get();
  assert.deepEqual({ ...(row as object) }, { state: 4, depth: 1, anchor: 'moved', reason: `${THROUGH_REDIRECT} from http://a.test/r` });
  const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 }, 0);
  assert.deepEqual(await f.add([req('http://a.test/landing', 0.5, { depth: 1 })], 0), [false]);
  await db.close();
});

test('SqliteFrontier: with a seen cache of N, only the N most recent revivable discards stay revivable (memory stays bounded), before and after reopening', async () => {
  const path = join(dir, 'revivable-bound.db');
  const urls = Array.from({ length: 30 }, (_x, i) => `http://a.test/s${i}`);
  {
    const db = new SqliteDb(path, { create: true });
    const f = new SqliteFrontier(db, { perHost: 50, delayMs: 0 }, 10);
    for (const u of urls) await f.discard([req(u, 0)], `${BY_STRATEGY} threshold`);
    assert.equal(f.settled(urls[0]!), true, 'the oldest discards are final');
    assert.equal(f.settled(urls[29]!), false);
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  const f = new SqliteFrontier(db, { perHost: 50, delayMs: 0 }, 10);
  const got = await f.add(urls.map((u) => req(u, 0.5)), 0);
  assert.deepEqual(got, urls.map((_u, i) => (i >= 20 ? 'revived' : false)));
  await db.close();
});

test('SqliteFrontier: writes not yet flushed are not in the file', async () => {
  const path = join(dir, 'unflushed.db');
  const db = new SqliteDb(path, { create: true });
  const f = new SqliteFrontier(db, {});
  await f.add([req('http://a.test/1')], 0);
  db.flush();
  await f.add([req('http://a.test/2')], 0);
  db.db.close();
  const again = new SqliteDb(path, { create: false });
  assert.equal((await new SqliteFrontier(again, {}).counts()).waiting, 1);
  await again.close();
});

test('SqliteFrontier: a waiting probe survives reopening, and a version 1 database is upgraded on open', async () => {
  const path = join(dir, 'upgrade.db');
  {
    const db = new SqliteDb(path, { create: true });
    db.db.exec('ALTER TABLE urls DROP COLUMN probe');
    db.setMetaNow('schema_version', '1');
    await db.close();
  }
  const probe = { type: 'WMS' as const, endpoint: 'http://a.test/wms' };
  {
    const db = new SqliteDb(path, { create: false });
    assert.equal(db.getMeta('schema_version'), '6');
    const f = new SqliteFrontier(db, { delayMs: 0 });
    await f.add([req('http://a.test/wms?SERVICE=WMS&REQUEST=GetCapabilities', 9, { probe }), req('http://a.test/page')], 1000);
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  const f = new SqliteFrontier(db, { delayMs: 0, perHost: 5 });
  const got = await f.claim(5, 1000);
  assert.deepEqual(got.map((r) => r.probe ?? null), [probe, null]);
  await db.close();
});

test('SqliteFrontier: rescored priorities and per-host fetch counts survive reopening', async () => {
  const path = join(dir, 'budget.db');
  {
    const db = new SqliteDb(path, { create: true });
    const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 });
    await f.add([req('http://a.test/1', 1), req('http://a.test/2', 1), req('http://a.test/3', 2)], 1000);
    const [r] = await f.claim(1, 1000);
    await f.complete(r!, { state: 'done' }, 1000);
    await f.rescore((q) => (q.url.endsWith('/1') || q.url.endsWith('/2') ? 5 : null));
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 });
  await f.setHostBudget(2);
  const got = await f.claim(5, 1000);
  assert.deepEqual(got.map((q) => [q.url, q.priority]), [['http://a.test/1', 5]], 'one fetch already counted against the budget of 2');
  await db.close();
});

// The same contract with almost every waiting URL in the file, not in memory.
describeFrontier('SqliteFrontier holding 1 waiting URL a host in memory', async (p) => {
  const db = new SqliteDb(join(dir, `s${n++}.db`), { create: true });
  const f = new SqliteFrontier(db, p, 0, { memory: 1, minPerHost: 1 });
  const close = f.close.bind(f);
  f.close = async () => {
    await close();
    await db.close();
  };
  return f;
});

// And with more hosts than its memory: a host holds nothing in memory, and is read back when its turn comes.
describeFrontier('SqliteFrontier holding no waiting URL in memory', async (p) => {
  const db = new SqliteDb(join(dir, `s${n++}.db`), { create: true });
  const f = new SqliteFrontier(db, p, 0, { memory: 1, minPerHost: 0 });
  const close = f.close.bind(f);
  f.close = async () => {
    await close();
    await db.close();
  };
  return f;
});

test('SqliteFrontier: a frontier far larger than its memory hands out every URL once, best first', async () => {
  const db = new SqliteDb(join(dir, 'spill-order.db'), { create: true });
  const f = new SqliteFrontier(db, { perHost: 1, delayMs: 0 }, 0, { memory: 10, minPerHost: 10 });
  // 1,000 URLs on two hosts, priorities shuffled (a fixed permutation).
  const urls = Array.from({ length: 1000 }, (_x, i) => ({ url: `http://${i % 2 ? 'a' : 'b'}.test/${i}`, priority: (i * 7919) % 1000 }));
  for (let i = 0; i < urls.length; i += 50) await f.add(urls.slice(i, i + 50).map((u) => req(u.url, u.priority)), 0);
  assert.ok(f.waitingInMemory <= 2 * 10 * 2, `held ${f.waitingInMemory}`);
  assert.equal((await f.counts()).waiting, 1000);
  const got: { url: string; priority: number }[] = [];
  for (;;) {
    const batch = await f.claim(2, 0);
    if (!batch.length) break;
    for (const r of batch) {
      got.push({ url: r.url, priority: r.priority });
      await f.complete(r, { state: 'done' }, 0);
    }
    assert.ok(f.waitingInMemory <= 2 * 10 * 2 + 2, `held ${f.waitingInMemory}`);
  }
  assert.equal(got.length, 1000);
  assert.equal(new Set(got.map((g) => g.url)).size, 1000, 'each URL once');
  for (const host of ['a', 'b']) {
    const ps = got.filter((g) => g.url.startsWith(`http://${host}.`)).map((g) => g.priority);
    assert.deepEqual(ps, [...ps].sort((x, y) => y - x), `host ${host} best first`);
  }
  assert.equal(await f.isFinished(), true);
  await db.close();
});

test('SqliteFrontier: a spilled URL found again through a better link is raised in the file and comes back first', async () => {
  const db = new SqliteDb(join(dir, 'spill-raise.db'), { create: true });
  const f = new SqliteFrontier(db, { perHost: 1, delayMs: 0 }, 0, { memory: 4, minPerHost: 4 });
  await f.add(Array.from({ length: 40 }, (_x, i) => req(`http://a.test/${i}`, 100 - i)), 0);
  assert.ok(f.waitingInMemory < 40);
  // /39 has the worst priority: it is in the file. A better parent finds it again.
  assert.equal(f.settled('http://a.test/39'), false, 'a host with spilled URLs cannot say a seen URL is settled');
  assert.deepEqual(await f.add([req('http://a.test/39', 500, { anchor: 'better', data: { m: 1 } })], 0), [false]);
  const [first] = await f.claim(1, 0);
  assert.deepEqual([first?.url, first?.priority, first?.anchor, first?.data], ['http://a.test/39', 500, 'better', { m: 1 }]);
  await db.close();
});

test('SqliteFrontier: reopening a large frontier holds only each host\'s best URLs in memory', async () => {
  const path = join(dir, 'spill-reopen.db');
  {
    const db = new SqliteDb(path, { create: true });
    const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 });
    await f.add(Array.from({ length: 300 }, (_x, i) => req(`http://h${i % 3}.test/${i}`, i)), 0);
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  const f = new SqliteFrontier(db, { perHost: 1, delayMs: 0 }, 0, { memory: 30, minPerHost: 5 });
  assert.equal((await f.counts()).waiting, 300);
  assert.equal(f.waitingInMemory, 30, '10 a host');
  const [best] = await f.claim(1, 0);
  assert.equal(best?.url, 'http://h2.test/299');
  await f.complete(best!, { state: 'done' }, 0);
  let total = 1;
  for (let batch = await f.claim(3, 0); batch.length; batch = await f.claim(3, 0)) {
    for (const r of batch) await f.complete(r, { state: 'done' }, 0);
    total += batch.length;
  }
  assert.equal(total, 300);
  await db.close();
});

test('SqliteFrontier: a version 3 database, whose urls.parent held row ids, is upgraded to parent keys', async () => {
  const path = join(dir, 'upgrade-v3.db');
  {
    const db = new SqliteDb(path, { create: true });
    const f = new SqliteFrontier(db, { delayMs: 0 });
    await f.add([req('http://a.test/root')], 1000);
    db.flush();
    const rootId = db.db.prepare("SELECT id FROM urls WHERE url = 'http://a.test/root'").pluck().get() as number;
    await f.add([req('http://a.test/child', 0, { parent: urlKey('http://a.test/root') })], 1000);
    db.flush();
    // As version 3 wrote it: the parent's row id.
    db.db.prepare("UPDATE urls SET parent = ? WHERE url = 'http://a.test/child'").run(rootId);
    db.setMetaNow('schema_version', '3');
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  assert.equal(db.getMeta('schema_version'), '6');
  const f = new SqliteFrontier(db, { delayMs: 0, perHost: 5 });
  const got = await f.claim(5, 2000);
  assert.equal(got.find((r) => r.url === 'http://a.test/child')?.parent, urlKey('http://a.test/root'));
  await db.close();
});

test('SqliteFrontier: a budget set after idle hosts were forgotten counts their fetches from the file', async () => {
  const db = new SqliteDb(join(dir, 'forgotten.db'), { create: true });
  const f = new SqliteFrontier(db, { perHost: 1, delayMs: 0 });
  for (let i = 0; i < 5000; i++) {
    await f.add([req(`http://h${i}.test/`, 1)], 1000);
    for (const r of await f.claim(1, 1000)) await f.complete(r, { state: 'done' }, 1000);
  }
  await f.add([req('http://h7.test/more', 9), req('http://h4999.test/more', 8), req('http://new.test/', 1)], 1000);
  await f.setHostBudget(1);
  const got = await f.claim(5, 1000);
  assert.deepEqual(got.map((r) => r.url), ['http://new.test/'], 'h7 (forgotten) and h4999 (held) are both at their budget of 1');
  await db.close();
});

test('SqliteFrontier: with more hosts waiting than its memory, memory holds about `memory` URLs, and URLs are still handed out best first, across a reopen', async () => {
  const path = join(dir, 'many-hosts.db');
  const urls = Array.from({ length: 6000 }, (_x, i) => ({ url: `http://h${i % 3000}.test/${i}`, priority: ((i * 7919) % 6000) / 6000 }));
  const got: number[] = [];
  const drain = async (f: SqliteFrontier, max: number) => {
    for (let k = 0; k < max; k++) {
      const [r] = await f.claim(1, 0);
      if (!r) return;
      got.push(r.priority);
      await f.complete(r, { state: 'done' }, 0);
      assert.ok(f.waitingInMemory <= 100 + 2, `held ${f.waitingInMemory}`);
    }
  };
  {
    const db = new SqliteDb(path, { create: true });
    const f = new SqliteFrontier(db, { perHost: 1, delayMs: 0 }, 0, { memory: 100 });
    for (let i = 0; i < urls.length; i += 100) await f.add(urls.slice(i, i + 100).map((u) => req(u.url, u.priority)), 0);
    assert.ok(f.waitingInMemory <= 100, `held ${f.waitingInMemory} of 6,000 on 3,000 hosts`);
    await drain(f, 2500);
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  const f = new SqliteFrontier(db, { perHost: 1, delayMs: 0 }, 0, { memory: 100 });
  assert.ok(f.waitingInMemory <= 100, `held ${f.waitingInMemory} after reopening`);
  await drain(f, 10_000);
  assert.equal(got.length, 6000, 'every URL once');
  assert.deepEqual(got, [...got].sort((a, b) => b - a), 'best first over all hosts');
  assert.equal(await f.isFinished(), true);
  await db.close();
});

for (const writer of ['inline', 'thread'] as const) {
  test(`SqliteFrontier holding no waiting URL in memory: a URL whose row is not written yet is still handed out first, and a raise of a URL in the file is not lost (${writer} writer)`, async () => {
    const db = new SqliteDb(join(dir, `unwritten-${writer}.db`), { create: true, writer });
    const f = new SqliteFrontier(db, { perHost: 1, delayMs: 0 }, 0, { memory: 1 });
    let t = 1_000_000;
    await f.add([req('http://a.test/low', 0.1), ...[1, 2, 3].map((i) => req(`http://b.test/${i}`, 0.5))], t);
    db.flush();
    await db.settle();
    // Its row is still queued for the writer when a.test's turn comes.
    await f.add([req('http://a.test/high', 0.9)], t);
    const got: string[] = [];
    for (let i = 0; i < 5; i++) {
      const [r] = await f.claim(1, t);
      if (r) got.push(`${r.url} ${r.priority}`);
      if (r) await f.complete(r, { state: 'done' }, t);
      db.flush();
      await db.settle();
      t += 30;
    }
    assert.deepEqual(got, ['http://a.test/high 0.9', 'http://b.test/1 0.5', 'http://b.test/2 0.5', 'http://b.test/3 0.5', 'http://a.test/low 0.1']);

    await f.add([req('http://c.test/x', 0.2, { depth: 3 }), req('http://d.test/y', 0.5)], t);
    db.flush();
    await db.settle();
    const [y] = await f.claim(1, t);
    assert.equal(y?.url, 'http://d.test/y');
    await f.complete(y!, { state: 'done' }, t);
    db.flush();
    await db.settle();
    // A better link to c.test/x, which waits in the file: the raise is queued for the writer when it is claimed.
    await f.add([req('http://c.test/x', 0.9, { depth: 1, anchor: 'better link', data: { m: 42 } })], t);
    const [x] = await f.claim(1, t);
    assert.deepEqual([x?.url, x?.priority, x?.depth, x?.anchor, x?.data], ['http://c.test/x', 0.9, 1, 'better link', { m: 42 }]);
    await db.close();
  });
}
