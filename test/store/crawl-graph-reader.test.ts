import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { serveMultiHostWeb } from '../../src/bench/multi-host-web.js';
import { pgSchema, redisPrefix } from '../../src/distributed/shared-crawl.js';
import type { CrawlGraphReader, DiscoveredUrl } from '../../src/store/crawl-graph-reader.js';
import { parentsFirst } from '../../src/store/crawl-graph-reader.js';
import { PgCrawlGraphReader } from '../../src/store/pg-crawl-graph-reader.js';
import { SqliteCrawlGraphReader } from '../../src/store/sqlite-crawl-graph-reader.js';
import { runCli } from '../helpers/run-cli.js';
import { PG_URL } from '../helpers/test-pg.js';
import { connectTestRedis, dropPrefix, REDIS_URL } from '../helpers/test-redis.js';

/** Parents before children, and every parent a URL of the tree (or null for a seed). */
function assertTreeOrder(tree: DiscoveredUrl[], backend: string): void {
  const seen = new Set<string>();
  for (const u of tree) {
    assert.ok(u.parent === null || seen.has(u.parent), `${backend}: ${u.url} comes after its parent ${u.parent}`);
    seen.add(u.url);
  }
}

async function graphOf(reader: CrawlGraphReader) {
  const tree = await reader.discoveryTree();
  const texts = await reader.storedTexts();
  return { tree, texts };
}

test('the crawl graph reader: the same crawl reads as the same discovery tree and stored pages from SQLite and from PostgreSQL', { timeout: 120_000 }, async () => {
  const web = await serveMultiHostWeb({ hosts: 1, pagesPerHost: 60, localLinks: 4, crossLinks: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'fc-graph-'));
  const name = `t${randomBytes(5).toString('hex')}`;
  const common = ['--seeds', web.roots[0]!, '--strategy', 'bfs', '--concurrency', '1', '--per-host', '1', '--delay-ms', '0', '--max-pages', '30', '--no-sitemaps'];
  const pool = new pg.Pool({ connectionString: PG_URL });
  try {
    const db = join(dir, 'graph.db');
    const embedded = await runCli(['crawl', '--db', db, ...common]);
    assert.equal(embedded.code, 0, embedded.stderr);
    const shared = await runCli(['crawl', '--redis', REDIS_URL, '--pg', PG_URL, '--name', name, ...common]);
    assert.equal(shared.code, 0, shared.stderr);

    const sqlite = new Database(db, { readonly: true });
    const a = await graphOf(new SqliteCrawlGraphReader(sqlite));
    sqlite.close();
    const b = await graphOf(new PgCrawlGraphReader(pool, pgSchema(name)));
    for (const [g, backend] of [[a, 'sqlite'], [b, 'postgresql']] as const) {
      assertTreeOrder(g.tree, backend);
      assert.equal(g.tree.filter((u) => u.parent === null).length, 1, `${backend}: one seed`);
      assert.equal(g.tree.filter((u) => u.state === 'done').length, 30, `${backend}: the 30 pages fetched`);
      assert.ok(g.tree.some((u) => u.state === 'waiting'), `${backend}: links left waiting at the budget`);
      assert.equal(g.texts.length, 30);
      assert.ok(g.texts.every((t) => t.text.length > 0 && t.outlinks.length > 0 && t.host === new URL(web.roots[0]!).host));
    }
    const byUrl = (tree: DiscoveredUrl[]) => new Map(tree.map((u) => [u.url, [u.parent, u.anchor, u.state]]));
    assert.deepEqual(byUrl(b.tree), byUrl(a.tree), 'the same URLs with the same parents, anchors and states');
    const texts = (g: typeof a) => new Map(g.texts.map((t) => [t.url, [t.title, t.outlinks]]));
    assert.deepEqual(texts(b), texts(a), 'the same stored pages with the same titles and links');
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS ${pgSchema(name)} CASCADE`);
    await pool.end();
    const redis = await connectTestRedis();
    await dropPrefix(redis, redisPrefix(name));
    redis.disconnect();
    await web.close();
  }
});

test('parentsFirst orders rows with no discovery order; an unknown parent makes a root, a cycle loses no row', () => {
  const rows = [
    { key: 'c', parent: 'b' }, { key: 'b', parent: 'a' }, { key: 'a', parent: null }, { key: 'x', parent: 'gone' }, { key: 'd', parent: 'a' },
    { key: 'p', parent: 'q' }, { key: 'q', parent: 'p' },
  ];
  const order = parentsFirst(rows).map((r) => r.key);
  assert.equal(order.length, rows.length);
  for (const [child, parent] of [['b', 'a'], ['c', 'b'], ['d', 'a']]) assert.ok(order.indexOf(parent!) < order.indexOf(child!), `${parent} before ${child}`);
  assert.ok(order.includes('x') && order.includes('p') && order.includes('q'));
});
