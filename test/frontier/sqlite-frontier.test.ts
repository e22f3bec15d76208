import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteFrontier } from '../../src/frontier/sqlite-frontier.js';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import { describeFrontier, req } from './describe-frontier.js';

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
  assert.deepEqual(f.counts(), { waiting: 2, fetching: 0, done: 1, error: 0, discarded: 1 });
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
    await f.add([req('http://a.test/1', 0.1, { data: { m: 10 } }), req('http://a.test/2', 0.5)], 0);
    await f.add([req('http://a.test/1', 0.9, { data: { m: 100 }, depth: 2, anchor: 'better', parentId: 2 })], 0);
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 });
  const got = await f.claim(10, 0);
  assert.deepEqual(got.map((r) => [r.url, r.priority, r.data, r.depth, r.anchor, r.parentId]), [['http://a.test/1', 0.9, { m: 100 }, 2, 'better', 2], ['http://a.test/2', 0.5, null, 1, '', null]]);
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
  assert.equal(new SqliteFrontier(again, {}).counts().waiting, 1);
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
    assert.equal(db.getMeta('schema_version'), '3');
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
    f.rescore((q) => (q.url.endsWith('/1') || q.url.endsWith('/2') ? 5 : null));
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  const f = new SqliteFrontier(db, { perHost: 5, delayMs: 0 });
  f.setHostBudget(2);
  const got = await f.claim(5, 1000);
  assert.deepEqual(got.map((q) => [q.url, q.priority]), [['http://a.test/1', 5]], 'one fetch already counted against the budget of 2');
  await db.close();
});
