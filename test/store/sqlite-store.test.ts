import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import { FTS_BATCH, SqliteStore, ftsQuery } from '../../src/store/sqlite-store.js';
import type { PageRecord } from '../../src/store/store.js';
import { urlKey } from '../../src/seen/fingerprint.js';
import { commitPage, describeStore, logLine } from './describe-store.js';
import { SqliteCrawlReader } from '../../src/store/sqlite-crawl-reader.js';
import { SqliteFrontier } from '../../src/frontier/sqlite-frontier.js';

const record = (n: number, title: string, text: string, extra: Partial<PageRecord> = {}): PageRecord => ({
  key: urlKey(`http://a.test/${n}`), url: `http://a.test/${n}`, finalUrl: `http://a.test/${n}`, status: 200, contentType: 'text/html', headers: {}, redirects: [],
  fetchedAt: '2026-01-01T00:00:00Z', fetchMs: 1, bytes: 10, encoding: 'UTF-8', title, text, canonical: null, relevance: 0.5, noindex: false, outlinks: [], ...extra,
});

for (const writer of ['inline', 'thread'] as const) {
  test(`search over Chinese and English, saving twice keeps one page (${writer} writer)`, async () => {
    const db = new SqliteDb(join(mkdtempSync(join(tmpdir(), 'fc-store-')), 's.db'), { create: true, writer });
    const store = new SqliteStore(db);
    await commitPage(store, record(1, '太阳能光伏', '光伏发电系统的安装'));
    await commitPage(store, record(2, 'Solar inverter guide', 'How a solar inverter works'));
    await commitPage(store, record(3, 'Hidden', 'solar secret', { noindex: true, text: null }));
    await commitPage(store, record(2, 'Solar inverter guide, second edition', 'How a solar inverter works'));
    assert.deepEqual((await store.search('光伏发电', 10)).map((h) => h.url), ['http://a.test/1']);
    assert.deepEqual((await store.search('光', 10)).map((h) => h.url), ['http://a.test/1']);
    assert.deepEqual((await store.search('阳能', 10)).map((h) => h.url), ['http://a.test/1']);
    const en = await store.search('solar inverter', 10);
    assert.deepEqual(en.map((h) => [h.url, h.title]), [['http://a.test/2', 'Solar inverter guide, second edition']]);
    assert.equal(db.db.prepare('SELECT count(*) FROM pages').pluck().get(), 3);
    assert.deepEqual(await store.search('secret', 10), [], 'noindex pages are not searchable');
    await db.close();
  });
}

test('search input that would be FTS5 syntax is quoted', () => {
  assert.equal(ftsQuery('solar AND (NOT "x"'), '"solar" "AND" "NOT" "x"');
  assert.throws(() => ftsQuery('  ()  '), /has no words/);
});

test('the full-text index: pending pages survive a reopen, a re-saved page replaces its entry, batches index without a search', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'fc-store-')), 'p.db');
  {
    const db = new SqliteDb(path, { create: true, writer: 'thread' });
    const store = new SqliteStore(db);
    await commitPage(store, record(1, 'Photovoltaic basics', 'silicon cells and inverters'));
    await commitPage(store, record(2, 'Bread', 'flour water salt'));
    await db.close(); // a crawl that stopped before its index batch: the pages are stored, not indexed
  }
  const db = new SqliteDb(path, { create: false });
  assert.equal(db.db.prepare('SELECT count(*) FROM fts_pending').pluck().get(), 2);
  const store = new SqliteStore(db);
  assert.deepEqual((await store.search('silicon', 10)).map((h) => h.url), ['http://a.test/1']);
  assert.equal(db.db.prepare('SELECT count(*) FROM fts_pending').pluck().get(), 0);

  await commitPage(store, record(1, 'Photovoltaic basics', 'perovskite cells'));
  assert.deepEqual(await store.search('silicon', 10), [], 'the old text of a re-saved page is gone from the index');
  assert.deepEqual((await store.search('perovskite', 10)).map((h) => h.url), ['http://a.test/1']);
  await commitPage(store, record(2, 'Bread', null as unknown as string, { noindex: true, text: null }));
  assert.deepEqual(await store.search('flour', 10), [], 'a page re-saved as noindex leaves the index');

  for (let i = 0; i < FTS_BATCH; i++) await commitPage(store, record(100 + i, `Page ${i}`, `batchword${i % 7}`));
  await db.settle();
  assert.equal(db.db.prepare('SELECT count(*) FROM fts_pending').pluck().get(), 0, 'a full batch is indexed without waiting for a search');
  assert.equal(db.db.prepare("SELECT count(*) FROM pages_fts WHERE pages_fts MATCH 'batchword3'").pluck().get(), Math.ceil((FTS_BATCH - 3) / 7));
  await db.close();
});

test('searching a finished crawl does not write: it works while another process holds the write lock', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'fc-store-')), 'busy.db');
  const db = new SqliteDb(path, { create: true });
  const store = new SqliteStore(db);
  await commitPage(store, record(1, 'Inverters', 'string inverters and microinverters'));
  store.indexPending();
  db.flush();
  const { default: Database } = await import('better-sqlite3');
  const writer = new Database(path);
  writer.exec('BEGIN IMMEDIATE'); // a crawl's writer in the middle of a transaction
  try {
    assert.deepEqual((await store.search('microinverters', 10)).map((h) => h.url), ['http://a.test/1']);
  } finally {
    writer.exec('ROLLBACK');
    writer.close();
  }
  await db.close();
});

let contractDb = 0;
for (const writer of ['inline', 'thread'] as const) {
  describeStore(`SqliteStore (${writer} writer)`, async () => {
    const db = new SqliteDb(join(mkdtempSync(join(tmpdir(), 'fc-store-contract-')), `c${contractDb++}.db`), { create: true, writer });
    const frontier = new SqliteFrontier(db, { delayMs: 0 });
    const admit = async (urls: string[], state: 'waiting' | 'discarded') => {
      const reqs = urls.map((url) => ({ url, host: new URL(url).host, depth: 1, parent: null, anchor: '', priority: 0.5, data: null }));
      await (state === 'waiting' ? frontier.add(reqs, Date.now()) : frontier.discard(reqs, 'out of scope'));
    };
    const store = new SqliteStore(db);
    const end = async (url: string, state: 'done' | 'error', reason: string | null, opts: { sitemap?: boolean } = {}) => {
      const sitemap = opts.sitemap ? { site: new URL(url).origin, level: 1 } : null;
      await frontier.add([{ url, host: new URL(url).host, depth: 1, parent: null, anchor: '', priority: 0.5, data: null, sitemap }], Date.now());
      const [r] = await frontier.claim(1, Date.now());
      await store.commit({ key: r!.key, page: null, entry: logLine(url, state, { error: reason }) });
      await frontier.complete(r!, state === 'done' ? { state } : { state, reason: reason! }, Date.now());
    };
    return { store, reader: new SqliteCrawlReader(db), admit, end, close: () => db.close() };
  });
}

test('a version 5 file, whose index holds traditional Chinese as written, is indexed again on opening: a search in either script finds its pages', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'fc-store-')), 'v5.db');
  {
    const db = new SqliteDb(path, { create: true });
    const store = new SqliteStore(db);
    await commitPage(store, record(1, '網路設定', '網路伺服器'));
    await commitPage(store, record(2, 'Solar', 'solar panels'));
    await store.search('solar', 1);
    // The index as version 5 wrote page 1: its words as written.
    db.db.prepare('DELETE FROM pages_fts WHERE rowid = (SELECT url_id FROM pages WHERE url = ?)').run('http://a.test/1');
    db.db.prepare("INSERT INTO pages_fts(rowid, title, text) SELECT url_id, ' 網路 路 設定 定 ', ' 網路 路伺 伺服 服器 器 ' FROM pages WHERE url = ?").run('http://a.test/1');
    db.setMetaNow('schema_version', '5');
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  assert.equal(db.getMeta('schema_version'), '6');
  const store = new SqliteStore(db);
  for (const q of ['网络', '網路', '服务器', 'solar']) {
    assert.deepEqual((await store.search(q, 10)).map((h) => h.url), [q === 'solar' ? 'http://a.test/2' : 'http://a.test/1'], q);
  }
  assert.equal(db.db.prepare(`SELECT count(*) FROM pages_fts WHERE pages_fts MATCH '"網路"'`).pluck().get(), 0, 'the old form is gone from the index');
  await db.close();
});

test('a search whose index update fails (a full disk) searches what is indexed, says how many pages it left out, and closes', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'fc-store-')), 'full.db');
  {
    const db = new SqliteDb(path, { create: true, writer: 'thread' });
    const store = new SqliteStore(db);
    await commitPage(store, record(1, 'Photovoltaic basics', 'silicon cells and inverters'));
    store.indexPending();
    for (let i = 2; i < 40; i++) await commitPage(store, record(i, `Wafer page ${i}`, `silicon wafers ${'text '.repeat(400)}`));
    await db.close();
  }
  const db = new SqliteDb(path, { create: false });
  // The file may not grow: the index's write fails as on a full disk.
  db.db.pragma(`max_page_count = ${Number(db.db.pragma('page_count', { simple: true }))}`);
  const reader = new SqliteCrawlReader(db, true);
  assert.equal(reader.unsearchable(null), null, 'nothing left out before a failure');
  assert.deepEqual((await reader.search('silicon', 10)).map((h) => h.url), ['http://a.test/1'], 'what was indexed is found');
  assert.match(reader.unsearchable(null) ?? '', /^38 pages stored are not searchable: indexing them failed \(.*full/);
  await reader.close();
});
