import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { PgStore } from '../../src/store/pg-store.js';
import { PgPolitenessStore } from '../../src/store/pg-politeness-store.js';
import { PgWriterThread } from '../../src/store/pg-writer-thread.js';
import { pgSearchText, pgTsvector } from '../../src/store/pg-text-query.js';
import { urlKey } from '../../src/seen/fingerprint.js';
import type { CrawlRequest } from '../../src/types.js';
import { PG_URL } from '../helpers/test-pg.js';
import { describeStore, pageRecord, commitPage, logLine } from './describe-store.js';
import { FocusCrawlError } from '../../src/errors.js';
import { THROUGH_REDIRECT, tooDeepReason } from '../../src/frontier/frontier.js';
import { describeServiceRegistry } from './describe-service-registry.js';

const freshSchema = () => `fctest_${randomBytes(5).toString('hex')}`;

async function dropSchema(schema: string): Promise<void> {
  const c = new pg.Client(PG_URL);
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}

async function open(writer: 'thread' | 'inline' = 'thread'): Promise<{ store: PgStore; schema: string; close: () => Promise<void> }> {
  const schema = freshSchema();
  const store = await PgStore.connect(PG_URL, schema, { writer });
  return { store, schema, close: async () => { await store.close(); await dropSchema(schema); } };
}

/** URLs journalled as the Redis frontier journals what it admitted. */
const admitTo = (store: PgStore) => (urls: string[], state: 'waiting' | 'discarded') => store.added(urls.map((u) => request(u)), state, state === 'discarded' ? 'out of scope' : null);

/** A URL ended as a shared worker ends it: admitted (the frontier's journal), then its log line and state in one commit. */
const endIn = (store: PgStore) => async (url: string, state: 'done' | 'error', reason: string | null, opts: { sitemap?: boolean } = {}) => {
  await store.added([request(url, opts.sitemap ? { sitemap: { site: new URL(url).origin, level: 1 } } : {})], 'waiting', null);
  await store.commit({ key: urlKey(url), page: null, entry: logLine(url, state, { error: reason }) });
};

describeStore('PgStore (writer thread)', async () => {
  const { store, close } = await open();
  return { store, reader: store.reader(), admit: admitTo(store), end: endIn(store), close };
});

describeStore('PgStore (inline writer)', async () => {
  const { store, close } = await open('inline');
  return { store, reader: store.reader(), admit: admitTo(store), end: endIn(store), close };
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

test('PgStore: four workers opening a new crawl at once find its politeness and label tables made, and record their hosts together', async () => {
  const schema = freshSchema();
  const stores = await Promise.all([1, 2, 3, 4].map(() => PgStore.connect(PG_URL, schema)));
  try {
    const tables = await stores[0]!.pool.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name IN ('host_politeness', 'labels') ORDER BY 1`, [schema]);
    assert.deepEqual(tables.rows.map((r: { table_name: string }) => r.table_name), ['host_politeness', 'labels']);
    // Before 2026-11-29 each worker made the table on its first record: four at once failed with "type already exists".
    const rows = (w: number) => [{ host: 'a.test', delayMs: 100, waitedMs: w, nextAt: 1000 + w, budget: null }, { host: `w${w}.test`, delayMs: 100, waitedMs: w, nextAt: w, budget: null }];
    await Promise.all(stores.map((s, i) => new PgPolitenessStore(s.pool, schema).record(rows(i + 1))));
    const hosts = await stores[0]!.pool.query(`SELECT host, waited_ms FROM ${schema}.host_politeness ORDER BY host`);
    assert.deepEqual(hosts.rows.map((r: { host: string; waited_ms: string }) => [r.host, Number(r.waited_ms)]), [['a.test', 10], ['w1.test', 1], ['w2.test', 2], ['w3.test', 3], ['w4.test', 4]]);
  } finally {
    for (const s of stores) await s.close();
    await dropSchema(schema);
  }
});

test('PgStore as the frontier\'s journal: 10,000 URLs in bulk, raises, retries; rebuild reads back exactly the open ones with their state', async () => {
  const { store, close } = await open();
  try {
    const reqs = Array.from({ length: 10_000 }, (_, i) => request(`http://h${i % 50}.test/p/${i}`, { data: i % 3 === 0 ? { m: i } : null, parent: i ? urlKey('http://h0.test/p/0') : null, probe: i === 7 ? { type: 'WMS', endpoint: 'http://h7.test/wms' } : null, sitemap: i === 8 ? { site: 'http://h8.test', level: 1 } : null, redirected: i === 11 ? 2 : null }));
    await store.added(reqs, 'waiting', null);
    await store.added(reqs.slice(0, 100), 'waiting', null); // redelivered: nothing changes
    await store.added([request('http://out.test/x')], 'discarded', 'out of scope (host)');
    // Too deep, then found by a shorter path: the frontier admits it again, and the record follows.
    // A redelivered admission of an out-of-scope URL changes nothing.
    await store.added([request('http://deep.test/x', { depth: 6 }), request('http://deep.test/y', { depth: 6 })], 'discarded', tooDeepReason(5));
    await store.added([request('http://deep.test/x', { depth: 2, anchor: 'short' }), request('http://out.test/x')], 'waiting', null);
    // Too deep, then a redirect's target (its page fetched under another URL): discarded for good, for that reason.
    // Any other discard of a too-deep URL leaves it as it was.
    await store.added([request('http://deep.test/z', { depth: 6 })], 'discarded', tooDeepReason(5));
    await store.added([request('http://deep.test/z', { depth: 1 })], 'discarded', `${THROUGH_REDIRECT} from http://deep.test/r`);
    await store.added([request('http://deep.test/y', { depth: 1 })], 'discarded', 'out of scope (host)');
    await store.raised([{ ...reqs[5]!, priority: 9, anchor: 'better', data: { m: 1 }, depth: 4 }]);
    await store.retried({ ...reqs[6]!, attempts: 2 });
    await store.rescored([{ key: reqs[10]!.key, priority: 0.01 }, { key: reqs[9]!.key, priority: 0.02 }]);
    for (const r of reqs.slice(0, 10)) if (r !== reqs[5] && r !== reqs[6] && r !== reqs[7] && r !== reqs[8]) await commitPage(store, { ...pageRecord('x', 't', 'x'), key: r.key, url: r.url, finalUrl: r.url });
    const open = [];
    for await (const r of store.openRows()) open.push(r);
    assert.equal(open.length, 10_000 - 6 + 1);
    const byUrl = new Map(open.map((r) => [r.url, r]));
    assert.deepEqual([byUrl.get('http://deep.test/x')?.depth, byUrl.get('http://deep.test/x')?.anchor], [2, 'short'], 'revived');
    assert.equal(byUrl.get('http://out.test/x'), undefined);
    assert.deepEqual([byUrl.get(reqs[5]!.url)?.priority, byUrl.get(reqs[5]!.url)?.anchor, byUrl.get(reqs[5]!.url)?.data, byUrl.get(reqs[5]!.url)?.depth], [9, 'better', { m: 1 }, 1], 'a raise keeps the smaller depth');
    assert.equal(byUrl.get(reqs[6]!.url)?.attempts, 2);
    assert.deepEqual(byUrl.get(reqs[7]!.url)?.probe, { type: 'WMS', endpoint: 'http://h7.test/wms' });
    assert.deepEqual(byUrl.get(reqs[8]!.url)?.sitemap, { site: 'http://h8.test', level: 1 });
    assert.equal(byUrl.get(reqs[11]!.url)?.redirected, 2, 'the redirects that led to it');
    assert.equal(byUrl.get(reqs[12]!.url)?.redirected, null);
    assert.equal(byUrl.get(reqs[9]!.url), undefined, 'done: not open');
    assert.equal(byUrl.get(reqs[10]!.url)?.priority, 0.01, 'rescored down');
    assert.equal(byUrl.get(reqs[12]!.url)?.parent, urlKey('http://h0.test/p/0'));
    assert.deepEqual(byUrl.get(reqs[12]!.url)?.data, { m: 12 });
    const finals = [];
    for await (const f of store.finalRows()) finals.push(f);
    assert.equal(finals.length, 9, '6 done and 3 discarded');
    assert.deepEqual(finals.filter((f) => f.state === 'discarded').map((f) => [f.url, f.reason]).sort(), [
      ['http://deep.test/y', tooDeepReason(5)],
      ['http://deep.test/z', `${THROUGH_REDIRECT} from http://deep.test/r`],
      ['http://out.test/x', 'out of scope (host)'],
    ]);
    assert.deepEqual(await store.reader().discardedByKind(), { 'out of scope (host)': 1, 'deeper than max depth': 1, 'redirect target (stored under the first URL)': 1 });
  } finally {
    await close();
  }
});

test('PgStore writer thread: a thread that cannot reach PostgreSQL fails its batches (and every later one) with one STORE line naming it', async () => {
  const thread = new PgWriterThread({ url: 'postgres://crawler:s3cret@127.0.0.1:1/test', schema: freshSchema(), delays: [] });
  const page = pageRecord('t', 'Thread', 'never written');
  const write = () => thread.send([{ commit: { key: page.key, page, entry: logLine(page.url, 'done') } }]);
  for (const attempt of [write(), write()]) {
    await assert.rejects(attempt, (err: Error) => {
      assert.ok(err instanceof FocusCrawlError && err.code === 'STORE', String(err));
      assert.match(err.message, /^cannot reach PostgreSQL at postgres:\/\/crawler:\*\*\*@127\.0\.0\.1:1\/test: /);
      assert.ok(!err.message.includes('s3cret') && !err.message.includes('\n'));
      return true;
    });
  }
  await assert.rejects(write(), /cannot reach PostgreSQL/, 'a later batch fails at once');
  await thread.close();
});

test('PgStore writer thread: pages of the largest sizes (2.4 MB of text each, 16 at once) are stored and searchable', async () => {
  const { store, close } = await open();
  try {
    const words = Array.from({ length: 400_000 }, (_, i) => `w${i % 5000}`).join(' ');
    const big = Array.from({ length: 16 }, (_, i) => pageRecord(`big${i}`, `Huge ${i}`, `${words} marker${i}`));
    assert.ok(big[0]!.text!.length > 2_000_000);
    await Promise.all(big.map((p) => commitPage(store, p)));
    assert.equal(await store.reader().pageCount(), 16);
    assert.equal((await store.search('marker7', 5)).length, 1);
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

test('PgStore: a done URL stays done when a late redelivery of it fails, and is logged once', async () => {
  const { store, close } = await open();
  try {
    const p = pageRecord('late', 'Stored', 'first worker');
    await commitPage(store, p);
    await store.commit({ key: p.key, page: null, entry: logLine(p.url, 'error', { error: 'timeout' }) });
    const counts = await store.reader().urlCounts();
    assert.deepEqual([counts.done, counts.error], [1, 0]);
    assert.deepEqual((await store.search('worker', 10)).map((h) => h.url), [p.url]);
    assert.deepEqual(
      (await store.reader().hosts(5, 0.1)).map(({ host, waiting, fetched, relevant, errors, delayMs }) => ({ host, waiting, fetched, relevant, errors, delayMs })),
      [{ host: 'a.test', waiting: 0, fetched: 1, relevant: 1, errors: 0, delayMs: null }],
      'a URL the journal never wrote gets its host (no crawling process recorded its politeness)',
    );
    // Redelivered and done again: the page is written again, the log keeps one line for the URL.
    await commitPage(store, pageRecord('late', 'Stored again', 'second worker'));
    const log: string[] = [];
    for await (const e of store.logEntries()) log.push(`${e.url} ${e.state}`);
    assert.deepEqual(log, [`${p.url} done`], 'one log line for the URL, whatever the redeliveries');
    assert.deepEqual((await store.search('second', 10)).map((h) => h.url), [p.url]);
  } finally {
    await close();
  }
});

test('PgStore: two workers journalling and raising overlapping batches in different orders at once: each URL once', async () => {
  const { store, close } = await open();
  const other = await PgStore.connect(PG_URL, store.schema);
  try {
    const reqs = Array.from({ length: 6_000 }, (_, i) => request(`http://h${i % 30}.test/o/${i}`));
    const shuffled = [...reqs].sort((a, b) => (a.url.length - b.url.length) || b.url.localeCompare(a.url));
    await Promise.all([store.added(reqs, 'waiting', null), other.added(shuffled, 'waiting', null), store.added([...reqs].reverse(), 'waiting', null)]);
    await Promise.all([store.raised(reqs.map((r) => ({ ...r, priority: 0.7 }))), other.raised(shuffled.map((r) => ({ ...r, priority: 0.8 })))]);
    assert.equal((await store.reader().urlCounts()).waiting, 6_000);
  } finally {
    await other.close();
    await close();
  }
});

/** A TCP relay to the test PostgreSQL that can be cut and restored, to play a lost server. */
async function relay(): Promise<{ port: number; cut: () => Promise<void>; restore: () => Promise<void>; close: () => Promise<void> }> {
  const target = new URL(PG_URL);
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = () => new Promise<void>((resolve) => {
    server = net.createServer((c) => {
      const up = net.connect(Number(target.port || 5432), target.hostname);
      for (const s of [c, up]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => {});
      }
      c.pipe(up).pipe(c);
    });
    server.listen(port, '127.0.0.1', () => {
      port = (server!.address() as net.AddressInfo).port;
      resolve();
    });
  });
  const cut = async () => {
    const s = server;
    server = null;
    for (const x of sockets) x.destroy();
    if (s) await new Promise((r) => s.close(r));
  };
  let closed = false;
  await listen();
  // A restore timed after a failed test must not keep the process alive.
  return { port, cut, restore: async () => { if (!closed) await listen(); }, close: async () => { closed = true; await cut(); } };
}

test('PgStore: a write that loses PostgreSQL is retried, then fails in one line naming it, without the password', async () => {
  const r = await relay();
  const url = `postgres://postgres:s3cret@127.0.0.1:${r.port}${new URL(PG_URL).pathname}`;
  const schema = freshSchema();
  const store = await PgStore.connect(url, schema, { retryDelaysMs: [100, 200, 400] });
  try {
    await commitPage(store, pageRecord('1', 'One', 'before the outage'));
    await r.cut();
    setTimeout(() => void r.restore(), 150);
    await commitPage(store, pageRecord('2', 'Two', 'during a short outage'));
    assert.equal(await store.reader().pageCount(), 2, 'the retried commit went through');
    await r.cut();
    await assert.rejects(commitPage(store, pageRecord('3', 'Three', 'the server is gone')), (err: Error) => {
      assert.ok(err instanceof FocusCrawlError);
      assert.match(err.message, new RegExp(`^lost PostgreSQL at postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:${r.port}/\\w+: .+ \\(4 attempts\\)$`));
      assert.ok(!err.message.includes('s3cret') && !err.message.includes('\n'));
      return true;
    });
  } finally {
    await r.close();
    await store.close().catch(() => {});
    await dropSchema(schema);
  }
});

test('PgStore: hosts, addresses, numbers and joined words are found by their words, as in the SQLite index', async () => {
  const { store, close } = await open();
  try {
    await commitPage(store, pageRecord('w', 'Release notes', 'Version 3.5 of the foo_bar tool: see example.com, mail ops@mail.example.org, the ＧＩＳ server, /usr/share/doc and हिन्दी.'));
    await commitPage(store, pageRecord('v', 'Other', 'nothing of the kind'));
    for (const q of ['example', 'example.com', '3.5', 'mail', 'ops@mail.example.org', 'foo_bar', 'bar', 'GIS', 'share doc', 'हिन्दी']) {
      assert.deepEqual((await store.search(q, 10)).map((h) => h.url), ['http://a.test/w'], q);
    }
  } finally {
    await close();
  }
});

test('PgStore: schemas of versions 1 and 2 (a tsvector generated from a stored search text) are brought to the current version when opened', async () => {
  for (const version of ['1', '2']) {
    const { store, schema } = await open();
    try {
      await commitPage(store, pageRecord('1', 'Café crème', 'Ångström'));
      await commitPage(store, { ...pageRecord('2', 'Hidden café', 'noindex'), noindex: true });
      await store.flush();
      await store.close();
      // The pages table as versions 1 and 2 made it; version 1 stored the search text with its diacritics.
      const c = new pg.Client(PG_URL);
      await c.connect();
      await c.query(`ALTER TABLE ${schema}.pages DROP COLUMN tsv, ADD COLUMN search_text text`);
      await c.query(`ALTER TABLE ${schema}.pages ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(search_text, ''))) STORED`);
      await c.query(`CREATE INDEX ON ${schema}.pages USING gin (tsv)`);
      await c.query(`UPDATE ${schema}.pages SET search_text = $1 WHERE url LIKE '%/1'`, [version === '1' ? 'Café crème Ångström' : 'Cafe creme Angstrom']);
      await c.query(`UPDATE ${schema}.meta SET value = $1 WHERE key = 'schema_version'`, [version]);
      const reopened = await PgStore.connect(PG_URL, schema);
      try {
        assert.deepEqual((await reopened.search('cafe angstrom', 10)).map((h) => h.url), ['http://a.test/1'], `from version ${version}`);
        assert.deepEqual((await reopened.search('café', 10)).map((h) => h.url), ['http://a.test/1'], `from version ${version}: the noindex page stays out`);
        const v = await c.query(`SELECT value FROM ${schema}.meta WHERE key = 'schema_version'`);
        assert.equal((v.rows[0] as { value: string }).value, '5');
        const cols = await c.query(`SELECT column_name, is_generated FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'pages' AND column_name IN ('tsv', 'search_text')`, [schema]);
        assert.deepEqual(cols.rows, [{ column_name: 'tsv', is_generated: 'NEVER' }]);
        // Pages written after the upgrade are found too.
        await commitPage(reopened, pageRecord('3', 'Crème brûlée', 'Dessert'));
        await reopened.flush();
        assert.deepEqual((await reopened.search('creme', 10)).map((h) => h.url).sort(), ['http://a.test/1', 'http://a.test/3']);
      } finally {
        await reopened.close();
        await c.end();
      }
    } finally {
      await dropSchema(schema);
    }
  }
});

test('PgStore: a version 4 schema, whose tsvectors hold traditional Chinese as written, gets them again when opened: a search in either script finds its pages', async () => {
  const { store, schema } = await open();
  try {
    await commitPage(store, pageRecord('1', '網路設定', '網路伺服器'));
    await commitPage(store, pageRecord('2', 'Solar', 'solar panels'));
    await store.flush();
    await store.close();
    const c = new pg.Client(PG_URL);
    await c.connect();
    try {
      // As version 4 wrote page 1: its words as written.
      await c.query(`UPDATE ${schema}.pages SET tsv = to_tsvector('simple', ' 網路 路 設定 定 網路 路伺 伺服 服器 器 ') WHERE url LIKE '%/1'`);
      await c.query(`UPDATE ${schema}.meta SET value = '4' WHERE key = 'schema_version'`);
      const reopened = await PgStore.connect(PG_URL, schema);
      try {
        for (const q of ['网络', '網路', '服务器', 'solar']) {
          assert.deepEqual((await reopened.search(q, 10)).map((h) => h.url), [q === 'solar' ? 'http://a.test/2' : 'http://a.test/1'], q);
        }
        const v = await c.query(`SELECT value FROM ${schema}.meta WHERE key = 'schema_version'`);
        assert.equal((v.rows[0] as { value: string }).value, '5');
      } finally {
        await reopened.close();
      }
    } finally {
      await c.end();
    }
  } finally {
    await dropSchema(schema);
  }
});

test('pgTsvector: PostgreSQL reads the store-built tsvector as the same lexemes and positions to_tsvector gives, and never refuses one', async () => {
  const c = new pg.Client(PG_URL);
  await c.connect();
  try {
    const long = 'x'.repeat(3000);
    const cases: [string | null, string | null][] = [
      ['Solar energy', 'Photovoltaic cells turn sunlight into electricity. Solar, SOLAR and solar-panels; 3.5 kW at example.com.'],
      ['光伏发电', '太阳能电池把阳光变成电能。Solar 电池 ＧＩＳ and café crème'],
      [null, 'हिन्दी भाषा and Ångström, naïve façade'],
      ['', ''],
      [`short ${long} words`, `after ${long} the long word`],
      [null, Array.from({ length: 20_000 }, (_, i) => `w${i % 300}`).join(' ')],
    ];
    for (const [title, text] of cases) {
      const r = await c.query(`SELECT lower($1)::tsvector::text AS built, to_tsvector('simple', $2)::text AS pg`, [pgTsvector(title, text), pgSearchText(title, text)]);
      const row = r.rows[0] as { built: string; pg: string };
      assert.equal(row.built, row.pg, `${title} / ${text?.slice(0, 40)}`);
    }
    // Distinct lexemes past PostgreSQL's 1 MB of lexemes are left out rather than failing the page.
    const huge = Array.from({ length: 200_000 }, (_, i) => `lexeme${i.toString(36)}`).join(' ');
    const r = await c.query(`SELECT length(lower($1)::tsvector) AS n`, [pgTsvector(null, huge)]);
    const n = (r.rows[0] as { n: number }).n;
    assert.ok(n > 50_000 && n < 200_000, `${n} lexemes kept`);
  } finally {
    await c.end();
  }
});
