import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, linkSync, mkdirSync, mkdtempSync, openSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CLI, runCli } from '../helpers/run-cli.js';
import { cliFails } from '../helpers/cli-fails.js';
import { startTestServer } from '../helpers/misbehaving-server.js';
import { html } from '../helpers/hostile-web.js';
import { checkIntact } from '../../src/store/db-integrity.js';
import { FocusCrawlError } from '../../src/errors.js';

/**
 * The files around a crawl database that are not what a command expects: another program's SQLite
 * file, the database's own -wal as an output, second names for it, devices, and a crawl stopped
 * before its seeds were stored. Each is refused in one line (exit 2) and leaves the files as they were.
 */

const dir = mkdtempSync(join(tmpdir(), 'fc-db-files-'));
const site = await startTestServer([
  [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('home', ['/a', '/b']))],
  [/^\/(a|b)$/, (_q, res, m) => res.writeHead(200, { 'content-type': 'text/html' }).end(html(`page ${m[1]}`, []))],
]);
after(() => site.close());
const crawl = (db: string, ...more: string[]) => runCli(['crawl', `${site.origin}/`, '--db', db, '--delay-ms', '0', ...more]);

test("another program's SQLite file is refused by every command and left unchanged", async () => {
  const other = join(dir, 'notes.db');
  const sql = new Database(other);
  sql.exec("CREATE TABLE notes(x); INSERT INTO notes VALUES ('keep me')");
  sql.close();
  const before = readFileSync(other);
  for (const args of [['status'], ['search', 'solar'], ['export'], ['services'], ['resume'], ['crawl', `${site.origin}/`]]) {
    await cliFails([...args, '--db', other], /notes\.db is a SQLite database of another program \(tables: notes\), not a crawl database/);
  }
  assert.deepEqual(readFileSync(other), before, 'not a byte changed (no schema, no WAL mode)');
});

test('resume on an empty file says so and leaves it empty', async () => {
  const empty = join(dir, 'empty.db');
  writeFileSync(empty, '');
  await cliFails(['resume', '--db', empty], /empty\.db is an empty file, not a crawl database/);
  assert.equal(readFileSync(empty).length, 0);
});

test("--out naming the database's -wal, -shm or -lock is refused", async () => {
  const db = join(dir, 'side.db');
  assert.equal((await crawl(db)).code, 0);
  for (const side of ['-wal', '-shm', '-lock', '-journal']) {
    await cliFails(['export', '--db', db, '--out', db + side], new RegExp(`is the ${side} file of the --db .*side\\.db`));
  }
});

test('a second name for a database: a symbolic link shares its lock, a hard link is refused', async () => {
  const db = join(dir, 'named.db');
  assert.equal((await crawl(db)).code, 0);
  const sym = join(dir, 'sym.db');
  symlinkSync(db, sym);
  const hard = join(dir, 'hard.db');
  linkSync(db, hard);
  await cliFails(['resume', '--db', hard], /hard\.db has 2 hard links: a crawl database must have one name/);
  await cliFails(['resume', '--db', db], /named\.db has 2 hard links/);
  unlinkSync(hard);
  // Held through one name, the other is refused as in use.
  const { CrawlLock } = await import('../../src/store/crawl-lock.js');
  const lock = CrawlLock.acquire(db, 'test');
  try {
    await cliFails(['resume', '--db', sym], /in use|is running|held/);
  } finally {
    lock.release();
  }
});

test('devices and empty names are no crawl database; the WARC may not be the database', async () => {
  await cliFails(['crawl', `${site.origin}/`, '--db', '/dev/null'], /\/dev\/null is not a regular file/);
  assert.ok(!existsSync('/dev/null-lock') && !existsSync('/dev/null-journal'), 'nothing created in /dev');
  await cliFails(['crawl', `${site.origin}/`, '--db', ''], /crawl option 'db': is empty: give a file name/);
  const db = join(dir, 'rec.db');
  await cliFails(['crawl', `${site.origin}/`, '--db', db, '--record', db], /--record .*rec\.db is the crawl database/);
  assert.ok(!existsSync(db));
});

test('--record appends to a WARC only: a topic file or another database given by mistake is refused and left as it was', async () => {
  const topic = join(dir, 'mistake.yaml');
  writeFileSync(topic, 'name: solar\nkeywords: {solar: 1}\n');
  await cliFails(['crawl', `${site.origin}/`, '--db', join(dir, 'm1.db'), '--topic', topic, '--record', topic], /--record .*mistake\.yaml: the file exists and is not a WARC recording/);
  assert.equal(readFileSync(topic, 'utf8'), 'name: solar\nkeywords: {solar: 1}\n');
  const other = join(dir, 'other.db');
  assert.equal((await crawl(other)).code, 0);
  const before = readFileSync(other);
  await cliFails(['crawl', `${site.origin}/`, '--db', join(dir, 'm2.db'), '--record', other], /--record .*other\.db: the file exists and is not a WARC/);
  assert.ok(readFileSync(other).equals(before), 'the other database is untouched');
  const warc = join(dir, 'twice.warc');
  for (const db of ['m3.db', 'm4.db']) assert.equal((await crawl(join(dir, db), '--record', warc)).code, 0, 'a WARC is appended to');
  assert.equal(readFileSync(warc).subarray(0, 2).toString('hex'), '1f8b');
});

test('writes to a full device end in one line: an export, standard output, and a WARC recording', async () => {
  const db = join(dir, 'full.db');
  assert.equal((await crawl(db)).code, 0);
  await cliFails(['export', '--db', db, '--out', '/dev/full'], /cannot write \/dev\/full: ENOSPC/);
  const rec = await runCli(['crawl', `${site.origin}/`, '--db', join(dir, 'full-rec.db'), '--delay-ms', '0', '--record', '/dev/full']);
  assert.equal(rec.code, 2, rec.stderr);
  assert.match(rec.stderr, /cannot write WARC \/dev\/full: ENOSPC/);
  assert.doesNotMatch(rec.stderr, /\n\s+at /, 'no stack trace');
  // `focuscrawl export --db full.db > /dev/full`
  const full = openSync('/dev/full', 'w');
  const child = spawn(process.execPath, [CLI, 'export', '--db', db], { stdio: ['ignore', full, 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'close')) as [number];
  closeSync(full);
  assert.equal(code, 2, stderr);
  assert.match(stderr, /^focuscrawl: cannot write standard output: .*ENOSPC.*\n$/);
});

test('a crawl stopped before its seeds were stored: resume adds them, not "frontier exhausted" with nothing fetched', async () => {
  const db = join(dir, 'seeds.db');
  assert.equal((await crawl(db, '--max-pages', '1')).code, 0);
  // What a kill between the stored config and the seeds' first write leaves: the config, no URL.
  const sql = new Database(db);
  sql.exec('DELETE FROM urls; DELETE FROM pages; DELETE FROM crawl_log');
  sql.close();
  const r = await runCli(['resume', '--db', db, '--max-pages', '5']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /1 of the crawl's 1 seeds had not been stored .*added now/);
  const check = new Database(db, { readonly: true });
  const pages = check.prepare('SELECT count(*) FROM pages').pluck().get() as number;
  check.close();
  assert.equal(pages, 3, 'the seed and its two links');
});

test('a crawl killed while it made its database (an unfinished write in a -journal file): a reader a crawl holds it against says so, and crawl undoes it and runs', async () => {
  // The state a kill leaves: the first transaction's pages partly in the file, their undo log beside it.
  const made = join(dir, 'making.db');
  const killed = join(dir, 'killed.db');
  const sql = new Database(made);
  sql.pragma('journal_mode = DELETE');
  sql.pragma('cache_size = 1'); // the transaction spills into the file, as a long one does
  sql.exec('BEGIN; CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE urls (id INTEGER PRIMARY KEY, t TEXT)');
  const put = sql.prepare('INSERT INTO urls(t) VALUES (?)');
  for (let i = 0; i < 2000; i++) put.run('x'.repeat(200));
  writeFileSync(killed, readFileSync(made));
  writeFileSync(`${killed}-journal`, readFileSync(`${made}-journal`));
  // The same through a symbolic link: SQLite keeps the journal beside the file, not the link.
  mkdirSync(join(dir, 'real'), { recursive: true });
  const real = join(dir, 'real', 'killed.db');
  writeFileSync(real, readFileSync(made));
  writeFileSync(`${real}-journal`, readFileSync(`${made}-journal`));
  const linked = join(dir, 'linked.db');
  symlinkSync(real, linked);
  sql.close();
  const viaLink = await crawl(linked);
  assert.equal(viaLink.code, 0, viaLink.stderr);
  assert.equal(existsSync(`${real}-journal`), false, 'undone through the link');
  assert.throws(() => checkIntact(killed, { mayWrite: false }), (err: Error) => err instanceof FocusCrawlError && err.code === 'STORE' && /killed\.db holds an unfinished write \(its killed\.db-journal file\), which only a process that may write the file can undo/.test(err.message));
  const again = await crawl(killed);
  assert.equal(again.code, 0, again.stderr);
  const done = Number(/frontier: 0 waiting, (\d+) done, 0 errors/.exec(again.stdout)?.[1]);
  assert.ok(done >= 3, again.stdout);
  assert.equal(existsSync(`${killed}-journal`), false, 'the undo log was played back and removed');
});
