import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';
import { runCli } from '../helpers/run-cli.js';

let site: RunningSite;
const dir = mkdtempSync(join(tmpdir(), 'fc-damaged-'));
const healthy = join(dir, 'healthy.db');
let damaged: string;

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

before(async () => {
  site = await serveSite({ pages: 120, seed: 5, words: [150, 300], links: [8, 15] });
  const r = await runCli(['crawl', '--seeds', site.origin + '/', '--db', healthy, '--max-pages', '60', '--delay-ms', '0', '--per-host', '4']);
  assert.equal(r.code, 0, r.stderr);
  // Overwrite a whole page of the crawl log's table near the middle of the file: a page the
  // reading commands need, with bytes that are no valid b-tree page.
  const sql = new Database(healthy, { readonly: true });
  const pageSize = sql.pragma('page_size', { simple: true }) as number;
  const count = sql.pragma('page_count', { simple: true }) as number;
  const pages = sql.prepare("SELECT pageno FROM dbstat WHERE name = 'crawl_log' AND pagetype = 'leaf'").pluck().all() as number[];
  sql.close();
  const victim = pages.reduce((best, p) => (Math.abs(p - count / 2) < Math.abs(best - count / 2) ? p : best));
  damaged = join(dir, 'damaged.db');
  copyFileSync(healthy, damaged);
  const fd = openSync(damaged, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, Buffer.from('deadbeef', 'hex')), 0, pageSize, (victim - 1) * pageSize);
  closeSync(fd);
});
after(() => site.close());

for (const [name, args] of [
  ['status', ['status']],
  ['search', ['search', 'solar']],
  ['export', ['export', '--format', 'csv']],
  ['resume', ['resume', '--max-pages', '100']],
] as const) {
  test(`${name} on a damaged database: exit 2, one line saying what to do, the file unchanged`, async () => {
    const db = join(dir, `${name}.db`);
    copyFileSync(damaged, db);
    const before = sha(db);
    const r = await runCli([...args, '--db', db]);
    assert.equal(r.code, 2, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line: ${r.stderr}`);
    assert.match(lines[0]!, new RegExp(`^focuscrawl: .*${name}\\.db is damaged \\(.+\\) and was left unchanged: restore it from a backup, or crawl again into a new --db$`));
    assert.equal(r.stdout, '');
    assert.equal(sha(db), before, 'the damaged file was not written to');
  });
}

test('the healthy copy still works, and export --out into a missing folder is named (exit 2)', async () => {
  const ok = await runCli(['status', '--db', healthy]);
  assert.equal(ok.code, 0, ok.stderr);
  const missing = join(dir, 'no-such-folder', 'log.csv');
  const r = await runCli(['export', '--db', healthy, '--format', 'csv', '--out', missing]);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim(), `focuscrawl: cannot write ${missing}: the folder ${join(dir, 'no-such-folder')} does not exist`);
  assert.equal(existsSync(join(dir, 'no-such-folder')), false);
});

test('a crawl whose options fail validation leaves no database behind', async () => {
  const before = readdirSync(dir).sort();
  for (const [args, message] of [
    [['--strategy', 'best-first'], /strategy 'best-first' needs a topic/],
    [['--strategy', 'psychic'], /unknown strategy 'psychic'/],
    [['--strategy', 'shark', '--topic', join(dir, 'topic.yaml'), '--strategy-option', 'zzz=1'], /cannot read topic file|strategy 'shark' option/],
    [['--replay', join(dir, 'missing.warc')], /no recording at .*missing\.warc/],
    [['--record', join(dir, 'no-folder', 'x.warc')], /cannot write WARC .*x\.warc: the folder .*no-folder does not exist/],
  ] as const) {
    const db = join(dir, 'invalid.db');
    const r = await runCli(['crawl', '--seeds', site.origin + '/', '--db', db, ...args]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.deepEqual(readdirSync(dir).sort(), before, `no file created by crawl ${args.join(' ')}`);
  }
});

test('a database missing one of its tables, or with a stored value that is not JSON, is named as damaged by the reading commands and left unchanged', async () => {
  const READERS = [['status'], ['search', 'solar'], ['export']];
  const cases: [string, (sql: Database.Database) => void, RegExp, string[][]][] = [
    ['no-log', (sql) => sql.exec('DROP TABLE crawl_log'), /no-log\.db is damaged \(its crawl_log table is missing\) and was left unchanged/, READERS],
    ['no-index', (sql) => sql.exec('DROP TABLE pages_fts'), /no-index\.db is damaged \(its pages_fts table is missing\) and was left unchanged/, READERS],
    // Read by the commands that show or use the crawl's settings.
    ['bad-config', (sql) => sql.prepare("UPDATE meta SET value = '{not json' WHERE key = 'config'").run(), /bad-config\.db is damaged: its stored 'config' is not JSON \(.+\); restore it from a backup/, [['status'], ['resume']]],
  ];
  for (const [name, damage, message, commands] of cases) {
    const db = join(dir, `${name}.db`);
    copyFileSync(healthy, db);
    const sql = new Database(db);
    damage(sql);
    sql.close();
    const before = sha(db);
    for (const args of commands) {
      const r = await runCli([...args, '--db', db]);
      assert.equal(r.code, 2, `${name} ${args[0]}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(sha(db), before, `${args[0]} left ${name}.db unchanged`);
    }
  }
});
