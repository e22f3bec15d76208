import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PgStore } from '../../src/store/pg-store.js';
import { PgLabelStore } from '../../src/store/pg-label-store.js';
import { urlKey } from '../../src/seen/fingerprint.js';
import type { CrawlRequest } from '../../src/types.js';
import { PG_URL } from '../helpers/test-pg.js';
import { commitPage, pageRecord } from './describe-store.js';

const request = (url: string, parent: string | null, anchor: string, priority: number): CrawlRequest => ({
  key: urlKey(url), id: 0, url, host: 'a.test', depth: 0, parent: parent ? urlKey(parent) : null, anchor, priority, data: null, attempts: 0, probe: null, sitemap: null,
});

test('PgCrawlReader: relevant pages, anchor paths from the seed, and labels (the dashboard\'s reads)', async () => {
  const schema = `fctest_${randomBytes(5).toString('hex')}`;
  const store = await PgStore.connect(PG_URL, schema);
  try {
    const [seed, a, b] = ['http://a.test/', 'http://a.test/a', 'http://a.test/b'];
    await store.added([request(seed, null, '', 1), request(a, seed, 'to a', 0.7), request(b, a, 'to b', 0.9)], 'waiting', null);
    await commitPage(store, { ...pageRecord('', 'Seed', 'home page'), relevance: 0.1 });
    await commitPage(store, { ...pageRecord('a', 'A', 'solar panels'), relevance: 0.6 });
    await commitPage(store, { ...pageRecord('b', 'B', 'solar inverters'), relevance: 0.8 });
    await store.added([request('http://a.test/w1', b, 'w1', 0.3), request('http://a.test/w2', b, 'w2', 0.35), request('http://a.test/w3', b, 'w3', 2)], 'waiting', null);
    const reader = store.reader();
    assert.deepEqual(Object.fromEntries((await reader.waitingByPriority()).map((x) => [x.band, x.n])), { '≥ 1': 1, '0.5 – 1': 0, '0.25 – 0.5': 2, '0.1 – 0.25': 0, '< 0.1': 0 });
    const pages = await reader.relevantPages(0.5, 10);
    assert.deepEqual(pages.map((p) => [p.url, p.title, p.priority]), [[b, 'B', 0.9], [a, 'A', 0.7]]);
    const paths = await reader.anchorPaths([b, 'http://a.test/never']);
    assert.deepEqual(paths[b]!.map((s) => [s.url, s.anchor, s.priority, s.relevance]), [[seed, '', 1, 0.1], [a, 'to a', 0.7, 0.6], [b, 'to b', 0.9, 0.8]]);
    assert.equal(paths['http://a.test/never'], undefined);
    assert.equal((await reader.anchorPaths([b], 1))[b]!.length, 2, 'maxSteps bounds the walk');
    assert.deepEqual(await reader.labels(), [], 'no labels table yet: no labels');
    const labels = new PgLabelStore(store.pool, schema);
    await labels.label(a, true);
    await labels.label(b, true);
    await labels.label(b, false);
    assert.deepEqual((await reader.labels()).map((l) => [l.url, l.relevant]).sort(), [[a, true], [b, false]]);
    const lp = await reader.labelledPages();
    assert.deepEqual(lp.map((p) => [p.url, p.relevant, p.title, p.text]), [[a, true, 'A', 'solar panels'], [b, false, 'B', 'solar inverters']]);
  } finally {
    await store.close();
    const c = new pg.Client(PG_URL);
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  }
});
