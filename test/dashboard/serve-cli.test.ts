import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { openReader } from '../../src/cli/open-reader.js';
import { CrawlLock } from '../../src/store/crawl-lock.js';
import Database from 'better-sqlite3';
import type { Snapshot } from '../../src/dashboard/snapshot.js';
import { runCli } from '../helpers/run-cli.js';
import { startServe, type ServeProcess } from '../helpers/start-serve.js';
import { parseMetrics } from '../helpers/prom-text.js';

let site: RunningSite;
const dir = mkdtempSync(join(tmpdir(), 'fc-serve-'));
const db = join(dir, 's.db');

before(async () => {
  site = await serveSite({ pages: 60, seed: 7, words: [120, 240], links: [5, 10] });
  const r = await runCli(['crawl', '--seeds', site.origin + '/', '--topic', DEMO_TOPIC, '--db', db, '--max-pages', '30', '--delay-ms', '0', '--per-host', '4', '--no-sitemaps']);
  assert.equal(r.code, 0, r.stderr);
});
after(() => site.close());

test('bad input gets one line and exit 2: no database, a port in use, a short token', async () => {
  const missing = await runCli(['serve', '--db', join(dir, 'nope.db')]);
  assert.equal(missing.code, 2);
  assert.deepEqual(missing.stderr.trim().split('\n'), [`focuscrawl: no crawl database at ${join(dir, 'nope.db')}`]);
  const busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  try {
    const inUse = await runCli(['serve', '--db', db, '--port', String((busy.address() as AddressInfo).port)]);
    assert.equal(inUse.code, 2);
    assert.match(inUse.stderr, /^focuscrawl: --port: cannot listen on 127\.0\.0\.1:\d+: the port is in use\n$/);
  } finally {
    busy.close();
  }
  const badPort = await runCli(['serve', '--db', db, '--port', '70000']);
  assert.equal(badPort.code, 2);
  assert.match(badPort.stderr, /^focuscrawl: error: option '--port <n>' argument '70000' is invalid\. expected a port, 0 to 65535\n$/);
  const noAddress = await runCli(['serve', '--db', db, '--host', '192.0.2.1']);
  assert.equal(noAddress.code, 2);
  assert.match(noAddress.stderr, /^focuscrawl: --host: cannot listen on 192\.0\.2\.1:8470: this machine has no such address\n$/);
  const short = await runCli(['serve', '--db', db, '--host', '0.0.0.0', '--token', 'abc']);
  assert.equal(short.code, 2);
  assert.match(short.stderr, /^focuscrawl: --token must be at least 16 characters/);
  for (const weak of [' '.repeat(20), 'a'.repeat(20), 'abcdefgh ijklmnopq']) {
    const r = await runCli(['serve', '--db', db, '--host', '0.0.0.0', '--token', weak]);
    assert.equal(r.code, 2, weak);
    assert.match(r.stderr, /^focuscrawl: --token must not hold spaces, commas or semicolons, and must not repeat a few characters/);
  }
});

test('off loopback serve makes a token, prints it, and refuses every request without it', async () => {
  const s: ServeProcess = await startServe(['--db', db, '--host', '0.0.0.0']);
  try {
    const u = new URL(s.url);
    const token = u.searchParams.get('token');
    assert.ok(token && token.length >= 16, s.url);
    const base = `http://127.0.0.1:${u.port}`;
    for (const path of ['/', '/api/snapshot', '/api/events', '/metrics', '/assets/dashboard.js']) {
      assert.equal((await fetch(base + path)).status, 401, path);
      assert.equal((await fetch(base + path, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status, 401, path);
    }
    const post = await fetch(base + '/api/labels', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: site.origin + '/', relevant: true }) });
    assert.equal(post.status, 401);
    const first = await fetch(s.url);
    assert.equal(first.status, 200);
    assert.match(first.headers.get('set-cookie') ?? '', new RegExp(`^focuscrawl_token_${u.port}=`), 'the first visit leaves the token in a cookie of this port\'s own, for the page\'s requests');
    // Browsers send a host's cookies to every port: another dashboard's cookie beside this one's does not shut it out.
    const both = `focuscrawl_token_1=${'x'.repeat(20)}; focuscrawl_token_${u.port}=${encodeURIComponent(token)}`;
    assert.equal((await fetch(base + '/api/snapshot', { headers: { cookie: both } })).status, 200);
    assert.equal((await fetch(base + '/api/snapshot', { headers: { cookie: `focuscrawl_token_1=${'x'.repeat(20)}` } })).status, 401);
    const snap = (await (await fetch(base + '/api/snapshot', { headers: { authorization: `Bearer ${token}` } })).json()) as Snapshot;
    assert.equal(snap.urls.done + snap.urls.error, 30);
    assert.equal(snap.state.name, 'stopped');
    assert.match(snap.state.detail, /page budget reached/);
    assert.equal(snap.harvest.at(-1)?.fetched, 30);
    assert.equal(snap.crawl.label, basename(db), 'the file name, not its path on the machine');
  } finally {
    await s.stop();
  }
  const open = await openReader({ db });
  try {
    assert.deepEqual(await open.reader.labels(), [], 'the refused POST stored nothing');
  } finally {
    await open.close();
  }
});

test('on loopback: the API answers, a label is stored, search returns stored pages with their path, /metrics parses', async () => {
  const s = await startServe(['--db', db]);
  try {
    assert.doesNotMatch(s.url, /token/);
    const snap = (await (await fetch(s.url + 'api/snapshot')).json()) as Snapshot;
    const page = snap.relevantPages[0];
    assert.ok(page, 'the crawl found relevant pages');
    assert.ok(snap.urls.waiting > 0);
    assert.equal(snap.waitingByPriority.reduce((a, b) => a + b.n, 0), snap.urls.waiting, 'the priority bands cover every waiting URL');
    assert.ok(page.path.length >= 1 && page.path[0]!.url === site.origin + '/', 'the anchor path starts at the seed');
    assert.equal(page.path.at(-1)!.url, page.url);
    const { hits } = (await (await fetch(s.url + 'api/search?q=solar')).json()) as { hits: { url: string }[] };
    assert.ok(hits.length > 0 && hits.every((h) => h.url.startsWith(site.origin)));
    const bad = await fetch(s.url + 'api/labels', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url": 3}' });
    assert.equal(bad.status, 400);
    const ok = await fetch(s.url + 'api/labels', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: page.url, relevant: false }) });
    assert.equal(ok.status, 200);
    const m = parseMetrics(await (await fetch(s.url + 'metrics')).text());
    assert.equal(m.value('focuscrawl_frontier_urls', { state: 'done' }), snap.urls.done);
    assert.equal(m.value('focuscrawl_pages_stored'), snap.pages);
    const open = await openReader({ db });
    try {
      const labels = await open.reader.labels();
      assert.deepEqual(labels.map((l) => [l.url, l.relevant]), [[page.url, false]]);
      const pages = await open.reader.labelledPages();
      assert.equal(pages[0]?.url, page.url);
      assert.ok(pages[0]!.text.length > 100, 'the labelled page comes with its stored text');
    } finally {
      await open.close();
    }
  } finally {
    await s.stop();
  }
});

test('topic learn --db takes the labelled pages: relevant ones as samples, not relevant ones as background', async () => {
  const s = await startServe(['--db', db]);
  try {
    const snap = (await (await fetch(s.url + 'api/snapshot')).json()) as Snapshot;
    for (const p of snap.relevantPages.slice(1, 3)) {
      const r = await fetch(s.url + 'api/labels', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: p.url, relevant: true }) });
      assert.equal(r.status, 200);
    }
  } finally {
    await s.stop();
  }
  const out = join(dir, 'learned.yaml');
  const r = await runCli(['topic', 'learn', '--db', db, '--top', '5', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const { readFileSync } = await import('node:fs');
  const text = readFileSync(out, 'utf8');
  assert.match(text, /from 2 sample pages and 1 background page\./);
  assert.match(text, /keywords:/);
  const none = await runCli(['topic', 'learn', '--db', join(dir, 'nope.db'), '--out', out]);
  assert.equal(none.code, 2);
});

test('a reader opened while a crawl held the database searches what that crawl left unindexed, once it is gone', async () => {
  const left = join(dir, 'left.db');
  const r = await runCli(['crawl', '--seeds', site.origin + '/', '--topic', DEMO_TOPIC, '--db', left, '--max-pages', '10', '--delay-ms', '0', '--no-sitemaps']);
  assert.equal(r.code, 0, r.stderr);
  // What a crawl stopped or killed before its last index batch leaves: pages stored, none indexed.
  const sql = new Database(left);
  sql.exec("INSERT INTO pages_fts(pages_fts) VALUES('delete-all'); INSERT INTO fts_pending(url_id) SELECT url_id FROM pages");
  const word = (sql.prepare("SELECT text FROM pages WHERE length(text) > 20 LIMIT 1").pluck().get() as string).split(/\W+/).find((w) => w.length > 4)!;
  sql.close();
  const lock = CrawlLock.acquire(left, 'crawl');
  const open = await openReader({ db: left });
  try {
    assert.ok(open.running, 'opened beside the running crawl: read-only');
    assert.match((await open.searchLag()) ?? '', /pages stored so far are not yet searchable/);
    lock.release();
    assert.equal(await open.searchLag(), null, 'no crawl holds it now: it no longer says a crawl indexes them');
    assert.equal((await open.reader.search(word, 5)).length, 0, 'nothing indexed yet');
    await open.prepareSearch();
    assert.ok((await open.reader.search(word, 5)).length > 0, `found ${word} once indexed`);
    assert.equal(await open.reader.unindexed(), 0);
  } finally {
    lock.release();
    await open.close();
  }
});

test('a database deleted or replaced under serve is said (410 on the API, a last event on the stream), not shown as it was', async () => {
  const kept = join(dir, 'kept.db');
  copyFileSync(db, kept);
  const s: ServeProcess = await startServe(['--db', kept]);
  try {
    assert.equal((await fetch(s.url + 'api/snapshot')).status, 200);
    const stream = await fetch(s.url + 'api/events');
    const reader = stream.body!.getReader();
    await reader.read(); // the first snapshot
    // Another file moved in its place (a crawl started again from scratch, a backup restored).
    copyFileSync(kept, kept + '.new');
    renameSync(kept + '.new', kept);
    const replaced = await fetch(s.url + 'api/snapshot');
    assert.equal(replaced.status, 410);
    assert.match(((await replaced.json()) as { error: string }).error, /kept\.db was replaced by another file after this reader opened it: restart focuscrawl serve/);
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    assert.match(rest, /event: gone\ndata: ".*kept\.db was replaced/);
    rmSync(kept);
    const post = await fetch(s.url + 'api/labels', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: site.origin + '/', relevant: true }) });
    assert.equal(post.status, 410);
    assert.match(((await post.json()) as { error: string }).error, /kept\.db was deleted after this reader opened it/);
  } finally {
    await s.stop();
  }
});
