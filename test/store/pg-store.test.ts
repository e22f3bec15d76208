import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PgStore } from '../../src/store/pg-store.js';
import { urlKey } from '../../src/seen/fingerprint.js';
import type { CrawlRequest } from '../../src/types.js';
import { PG_URL } from '../helpers/test-pg.js';
import { describeStore, pageRecord, commitPage } from './describe-store.js';
import { describeServiceRegistry } from './describe-service-registry.js';

const freshSchema = () => `fctest_${randomBytes(5).toString('hex')}`;

async function dropSchema(schema: string): Promise<void> {
  const c = new pg.Client(PG_URL);
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}

async function open(): Promise<{ store: PgStore; schema: string; close: () => Promise<void> }> {
  const schema = freshSchema();
  const store = await PgStore.connect(PG_URL, schema);
  return { store, schema, close: async () => { await store.close(); await dropSchema(schema); } };
}

describeStore('PgStore', async () => {
  const { store, close } = await open();
  return { store, reader: store.reader(), close };
});

describeServiceRegistry('PgServiceRegistry', async () => {
  const { store, close } = await open();
  return { registry: store.services, flush: async () => {}, close };
});

const request = (url: string, extra: Partial<CrawlRequest> = {}): CrawlRequest => ({
  key: urlKey(url), id: 0, url, host: new URL(url).host, depth: 1, parent: null, anchor: 'a', priority: 0.5, data: null, attempts: 0, probe: null, sitemap: null, ...extra,
});

test('PgStore: the same page committed by two workers at once is stored once', async () => {
  const { store, close } = await open();
  const other = await PgStore.connect(PG_URL, store.schema);
  try {
    const p = pageRecord('dup', 'Redelivered', 'the same URL fetched twice');
    await Promise.all([commitPage(store, p), commitPage(other, { ...p, title: 'Redelivered again' }), commitPage(store, p)]);
    assert.equal(await store.reader().pageCount(), 1);
    assert.equal((await store.reader().urlCounts()).done, 1);
  } finally {
    await other.close();
    await close();
  }
});

test('PgStore as the frontier\'s journal: 10,000 URLs in bulk, raises, retries; rebuild reads back exactly the open ones with their state', async () => {
  const { store, close } = await open();
  try {
    const reqs = Array.from({ length: 10_000 }, (_, i) => request(`http://h${i % 50}.test/p/${i}`, { data: i % 3 === 0 ? { m: i } : null, parent: i ? urlKey('http://h0.test/p/0') : null, probe: i === 7 ? { type: 'WMS', endpoint: 'http://h7.test/wms' } : null, sitemap: i === 8 ? { site: 'http://h8.test', level: 1 } : null }));
    await store.added(reqs, 'waiting', null);
    await store.added(reqs.slice(0, 100), 'waiting', null); // redelivered: nothing changes
    await store.added([request('http://out.test/x')], 'discarded', 'out of scope (host)');
    await store.raised([{ ...reqs[5]!, priority: 9, anchor: 'better', data: { m: 1 } }]);
    await store.retried({ ...reqs[6]!, attempts: 2 });
    for (const r of reqs.slice(0, 10)) if (r !== reqs[5] && r !== reqs[6] && r !== reqs[7] && r !== reqs[8]) await commitPage(store, { ...pageRecord('x', 't', 'x'), key: r.key, url: r.url, finalUrl: r.url });
    const open = [];
    for await (const r of store.openRows()) open.push(r);
    assert.equal(open.length, 10_000 - 6);
    const byUrl = new Map(open.map((r) => [r.url, r]));
    assert.deepEqual([byUrl.get(reqs[5]!.url)?.priority, byUrl.get(reqs[5]!.url)?.anchor, byUrl.get(reqs[5]!.url)?.data], [9, 'better', { m: 1 }]);
    assert.equal(byUrl.get(reqs[6]!.url)?.attempts, 2);
    assert.deepEqual(byUrl.get(reqs[7]!.url)?.probe, { type: 'WMS', endpoint: 'http://h7.test/wms' });
    assert.deepEqual(byUrl.get(reqs[8]!.url)?.sitemap, { site: 'http://h8.test', level: 1 });
    assert.equal(byUrl.get(reqs[9]!.url), undefined, 'done: not open');
    assert.equal(byUrl.get(reqs[12]!.url)?.parent, urlKey('http://h0.test/p/0'));
    assert.deepEqual(byUrl.get(reqs[12]!.url)?.data, { m: 12 });
    const finals = [];
    for await (const f of store.finalRows()) finals.push(f);
    assert.equal(finals.length, 7, '6 done and 1 discarded');
    assert.deepEqual(await store.reader().discardedByKind(), { 'out of scope (host)': 1 });
  } finally {
    await close();
  }
});

test('PgStore: an unreachable PostgreSQL is one line that names it, without the password', async () => {
  await assert.rejects(PgStore.connect('postgres://crawler:s3cret@127.0.0.1:1/test', freshSchema()), (err: Error) => {
    assert.match(err.message, /^cannot reach PostgreSQL at postgres:\/\/crawler:\*\*\*@127\.0\.0\.1:1\/test: /);
    assert.ok(!err.message.includes('s3cret') && !err.message.includes('\n'));
    return true;
  });
});
