import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { MAP_EXTENTS, SERVICES_SHOWN, wasInPlay } from '../../src/dashboard/read-snapshot.js';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import { SqliteServiceRegistry } from '../../src/store/sqlite-service-registry.js';
import { emptyFindings } from '../../src/services/service-record.js';
import type { Snapshot } from '../../src/dashboard/snapshot.js';
import type { HostSummary } from '../../src/store/crawl-reader.js';
import Database from 'better-sqlite3';
import { runCli } from '../helpers/run-cli.js';
import { serveTinySites } from '../helpers/tiny-sites.js';

/** Solar pages on one site, each also linking to another host, which the host scope leaves out (nothing listens there). */
let web: Awaited<ReturnType<typeof serveTinySites>>;
const dir = mkdtempSync(join(tmpdir(), 'fc-snapshot-'));
const OTHER = 'http://127.0.0.2:9/';

before(async () => {
  const solar = 'solar panels photovoltaic energy from the sun, inverters and solar cells on the roof';
  web = await serveTinySites({
    solar: {
      '/': ['Solar energy', solar, [['/a', 'solar a'], [OTHER, 'elsewhere']]],
      '/a': ['Solar a', solar, [['/', 'home'], [OTHER + 'page', 'elsewhere too']]],
    },
  });
});
after(() => web.close());

test('the hosts table leaves out a host never contacted (out of scope), in the report as in serve', async () => {
  const db = join(dir, 's.db');
  const c = await runCli(['crawl', '--seeds', web.roots.solar!, '--topic', DEMO_TOPIC, '--db', db, '--delay-ms', '0', '--no-sitemaps']);
  assert.equal(c.code, 0, c.stderr);
  assert.match(c.stderr + c.stdout, /out of scope/, 'the other site was seen and discarded');
  const r = await runCli(['report', '--db', db, '--out', join(dir, 'report')]);
  assert.equal(r.code, 0, r.stderr);
  const snap = JSON.parse(readFileSync(join(dir, 'report', 'data.json'), 'utf8')) as Snapshot;
  assert.deepEqual(snap.hosts.map((h) => [h.host, h.fetched]), [[new URL(web.roots.solar!).host, 2]]);
});

test('a host is listed once anything of it was fetched, waits, or was reached by a request', () => {
  const h = (o: Partial<HostSummary>): HostSummary => ({ host: 'h', waiting: 0, fetched: 0, relevant: 0, errors: 0, delayMs: null, waitedMs: null, nextAllowedAt: null, budget: null, ...o });
  assert.equal(wasInPlay(h({})), false, 'only discarded links');
  assert.equal(wasInPlay(h({ fetched: 1 })), true);
  assert.equal(wasInPlay(h({ waiting: 3 })), true, 'in scope, not reached yet');
  assert.equal(wasInPlay(h({ delayMs: 0, nextAllowedAt: '2026-01-01T00:00:00Z' })), true, 'its first request in flight');
});

test('report refuses to replace an index.html it did not write and a folder named like a file, writes its own folder again, and --force overrides', async () => {
  const db = join(dir, 'r.db');
  const c = await runCli(['crawl', '--seeds', web.roots.solar!, '--topic', DEMO_TOPIC, '--db', db, '--delay-ms', '0', '--no-sitemaps']);
  assert.equal(c.code, 0, c.stderr);
  const mine = join(dir, 'site-folder');
  mkdirSync(mine);
  writeFileSync(join(mine, 'index.html'), '<h1>my own page</h1>');
  const refused = await runCli(['report', '--db', db, '--out', mine]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /^focuscrawl: --out .*site-folder: it holds an index\.html that is no focuscrawl report, which the report would replace; name another folder, or pass --force\n$/);
  assert.equal(readFileSync(join(mine, 'index.html'), 'utf8'), '<h1>my own page</h1>', 'the file is untouched');
  const fileLike = await runCli(['report', '--db', db, '--out', join(dir, 'report.html')]);
  assert.equal(fileLike.code, 2);
  assert.match(fileLike.stderr, /looks like a file name; name a folder \(e\.g\. .*report\)/);
  assert.equal(existsSync(join(dir, 'report.html')), false);
  const again = join(dir, 'again');
  for (let i = 0; i < 2; i++) assert.equal((await runCli(['report', '--db', db, '--out', again])).code, 0, 'a report folder is written again');
  assert.equal((await runCli(['report', '--db', db, '--out', mine, '--force'])).code, 0);
  assert.match(readFileSync(join(mine, 'index.html'), 'utf8'), /focuscrawl-data/);
  // A folder that cannot be made ends with its error: Node's own recursive mkdir loops for ever under /proc.
  if (existsSync('/proc/self')) {
    const proc = await runCli(['report', '--db', db, '--out', '/proc/focuscrawl-report/deeper']);
    assert.equal(proc.code, 2);
    assert.match(proc.stderr, /^focuscrawl: cannot write the report to \/proc\/focuscrawl-report\/deeper: /);
  }
  // A folder of the user's own files (sample pages, say) gets no index.html added unless --force.
  const samples = join(dir, 'samples');
  mkdirSync(samples);
  writeFileSync(join(samples, 'page1.html'), '<title>a sample</title>');
  const mixed = await runCli(['report', '--db', db, '--out', samples]);
  assert.equal(mixed.code, 2);
  assert.match(mixed.stderr, /--out .*samples: it holds other files \(page1\.html\), to which the report would add index\.html and data\.json/);
  assert.equal(existsSync(join(samples, 'index.html')), false);
  // A data.json of the user's is theirs; hidden files leave a folder empty.
  const own = join(dir, 'own-data');
  mkdirSync(own);
  writeFileSync(join(own, 'data.json'), '{"mine": true}');
  assert.equal((await runCli(['report', '--db', db, '--out', own])).code, 2);
  assert.equal(readFileSync(join(own, 'data.json'), 'utf8'), '{"mine": true}');
  const kept = join(dir, 'kept');
  mkdirSync(kept);
  writeFileSync(join(kept, '.gitkeep'), '');
  assert.equal((await runCli(['report', '--db', db, '--out', kept])).code, 0, 'only a hidden file: an empty folder');
  const nested = join(dir, 'a', 'b', 'report');
  assert.equal((await runCli(['report', '--db', db, '--out', nested])).code, 0, 'missing parents are made');
  assert.ok(existsSync(join(nested, 'data.json')));
});

test('a run killed between two requests (nothing leased, no end recorded) reads as stopped, not as not started', async () => {
  const db = join(dir, 'killed.db');
  const c = await runCli(['crawl', '--seeds', web.roots.solar!, '--db', db, '--delay-ms', '0', '--no-sitemaps', '--max-pages', '1']);
  assert.equal(c.code, 0, c.stderr);
  // What kill -9 leaves when it lands between requests: the run's end is never written.
  const sql = new Database(db);
  sql.prepare("DELETE FROM meta WHERE key = 'lastRun'").run();
  sql.close();
  const r = await runCli(['report', '--db', db, '--out', join(dir, 'killed-report')]);
  assert.equal(r.code, 0, r.stderr);
  const { state } = JSON.parse(readFileSync(join(dir, 'killed-report', 'data.json'), 'utf8')) as Snapshot;
  assert.equal(state.name, 'stopped');
  assert.match(state.detail, /^a run started \d{4}-\d\d-\d\dT[\d:.]+Z ended without recording its end \(killed or crashed\): focuscrawl resume continues it$/);
});

test('a later run killed between two requests reads as interrupted in status and the dashboard, not as the earlier run\'s end', async () => {
  const db = join(dir, 'killed-later.db');
  const c = await runCli(['crawl', '--seeds', web.roots.solar!, '--db', db, '--delay-ms', '0', '--no-sitemaps', '--max-pages', '1']);
  assert.equal(c.code, 0, c.stderr);
  const ended = JSON.parse((await runCli(['status', '--db', db, '--json'])).stdout) as { interrupted: boolean; lastRun: { reason: string } };
  assert.deepEqual([ended.interrupted, ended.lastRun.reason], [false, 'max-pages']);
  // What a second run killed by kill -9 between two requests leaves: its start recorded, no end, nothing leased.
  const sql = new Database(db);
  sql.prepare("UPDATE meta SET value = ? WHERE key = 'runStarted'").run(new Date(Date.now() + 60_000).toISOString());
  sql.close();
  const json = JSON.parse((await runCli(['status', '--db', db, '--json'])).stdout) as { interrupted: boolean; running: unknown };
  assert.deepEqual([json.interrupted, json.running], [true, null]);
  const text = (await runCli(['status', '--db', db])).stdout;
  assert.match(text, /last run ended [^\n]*: page budget reached[^\n]*; a later run, started [^,]+, was interrupted \(killed or crashed\): focuscrawl resume continues it/);
  const r = await runCli(['report', '--db', db, '--out', join(dir, 'killed-later-report')]);
  assert.equal(r.code, 0, r.stderr);
  const { state } = JSON.parse(readFileSync(join(dir, 'killed-later-report', 'data.json'), 'utf8')) as Snapshot;
  assert.equal(state.name, 'stopped');
  assert.match(state.detail, /^a run started [^ ]+ ended without recording its end \(killed or crashed\): focuscrawl resume continues it; the run before: page budget reached/);
});

test('a snapshot lists the first services and their first extents, with the counts of all: a WMS crawl of a thousand services sent them all every second', async () => {
  const db = join(dir, 'many-services.db');
  const c = await runCli(['crawl', '--seeds', web.roots.solar!, '--db', db, '--delay-ms', '0', '--no-sitemaps']);
  assert.equal(c.code, 0, c.stderr);
  const sql = new SqliteDb(db, { create: false });
  const registry = new SqliteServiceRegistry(sql);
  const layer = (i: number) => ({ name: `l${i}`, title: `L${i}`, crs: ['EPSG:4326'], wgs84: [i % 90, 0, (i % 90) + 1, 1] as [number, number, number, number], boxes: [] });
  for (let s = 0; s < SERVICES_SHOWN + 50; s++) {
    await registry.save({ ...emptyFindings('valid', null), endpoint: `http://geo${s}.test/wms`, type: 'WMS', probedUrl: `http://geo${s}.test/wms?request=GetCapabilities`, checkedAt: '2026-01-01T00:00:00Z', layers: Array.from({ length: MAP_EXTENTS + 10 }, (_x, i) => layer(i)) });
  }
  await sql.close();
  const r = await runCli(['report', '--db', db, '--out', join(dir, 'services-report')]);
  assert.equal(r.code, 0, r.stderr);
  const snap = JSON.parse(readFileSync(join(dir, 'services-report', 'data.json'), 'utf8')) as Snapshot;
  assert.equal(snap.services.length, SERVICES_SHOWN);
  assert.equal(snap.servicesTotal, SERVICES_SHOWN + 50);
  assert.ok(snap.services.every((s) => s.extents.length === MAP_EXTENTS && s.extentCount === MAP_EXTENTS + 10));
});
