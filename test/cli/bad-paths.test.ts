import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import { runCli } from '../helpers/run-cli.js';
import { cliFails } from '../helpers/cli-fails.js';

/** Paths that are not what a flag expects: a folder, an empty file, the output naming the input, a binary seeds file. */
const dir = mkdtempSync(join(tmpdir(), 'fc-bad-paths-'));

const fails = (args: string[], message: RegExp) => cliFails(args, message, dir);

test('a folder given as --db is named, for every command that opens one', async () => {
  const folder = join(dir, 'a-folder');
  mkdirSync(folder);
  for (const args of [['status'], ['search', 'solar'], ['export'], ['export', '--what', 'pages'], ['services'], ['crawl', 'http://127.0.0.1:9/']]) {
    await fails([...args, '--db', folder], /a-folder is a folder, not a crawl database file/);
  }
});

test('an empty file is no crawl database, and the reading commands leave it empty', async () => {
  const empty = join(dir, 'empty.db');
  writeFileSync(empty, '');
  for (const args of [['status'], ['search', 'solar'], ['export'], ['export', '--what', 'pages', '--relevant']]) {
    await fails([...args, '--db', empty], /empty\.db is an empty file, not a crawl database/);
  }
  assert.equal(statSync(empty).size, 0);
});

test('--out naming the database it reads is refused before the database is touched', async () => {
  const path = join(dir, 'kept.db');
  await new SqliteDb(path, { create: true }).close();
  const before = readFileSync(path);
  await fails(['export', '--db', path, '--out', path], /--out .*kept\.db is the --db it would read/);
  await fails(['export', '--what', 'pages', '--db', path, '--out', join(dir, '.', 'kept.db')], /is the --db it would read/);
  await fails(['services', '--db', path, '--out', path], /is the --db it would read/);
  // Another crawl's database is no output either; a file that is not one is replaced, as with curl -o.
  const other = join(dir, 'other.db');
  await new SqliteDb(other, { create: true }).close();
  const otherBefore = readFileSync(other);
  await fails(['export', '--db', path, '--out', other, '--format', 'csv'], /--out .*other\.db is a SQLite database: writing it would destroy it/);
  assert.ok(readFileSync(other).equals(otherBefore), 'the other database is untouched');
  writeFileSync(join(dir, 'old.csv'), 'old');
  assert.equal((await runCli(['export', '--db', path, '--out', join(dir, 'old.csv')])).code, 0);
  assert.notEqual(readFileSync(join(dir, 'old.csv'), 'utf8'), 'old');
  // An --out that cannot be written is named before any work: a group crawl runs for hours first.
  mkdirSync(join(dir, 'outdir'), { recursive: true });
  await fails(['services', '--db', path, '--out', join(dir, 'outdir')], /cannot write .*outdir: it is a folder/);
  await fails(['export', '--db', path, '--out', join(dir, 'kept.db', 'x.csv')], /cannot write .*x\.csv: .*kept\.db is not a folder/);
  writeFileSync(join(dir, 'sites.tsv'), 'http://127.0.0.1:9/\tsite\n');
  writeFileSync(join(dir, 'examples.tsv'), 'http://127.0.0.1:9/\thttp://127.0.0.1:9/\n');
  await fails(['group', '--sites', join(dir, 'sites.tsv'), '--examples', join(dir, 'examples.tsv'), '--db', join(dir, 'g.db'), '--out', join(dir, 'outdir')], /cannot write .*outdir: it is a folder/);
  assert.ok(!existsSync(join(dir, 'g.db')), 'no group database was created');
  assert.deepEqual(readFileSync(path), before);
  const status = await runCli(['status', '--db', path], { cwd: dir });
  assert.equal(status.code, 0, status.stderr);
});

test('seeds: two URLs on a line, an empty file, and a binary file are each named in one printable line', async () => {
  writeFileSync(join(dir, 'two.txt'), 'http://127.0.0.1:9/ http://127.0.0.1:9/a\n');
  await fails(['crawl', '--seeds-file', join(dir, 'two.txt')], /two\.txt:1: .* has a space in it/);
  await fails(['crawl', 'http://127.0.0.1:9/a b'], /seed 'http:\/\/127\.0\.0\.1:9\/a b' has a space in it/);
  writeFileSync(join(dir, 'blank.txt'), '\n# nothing yet\n\n');
  await fails(['crawl', '--seeds-file', join(dir, 'blank.txt')], /seeds file .*blank\.txt holds no seed URL/);
  writeFileSync(join(dir, 'binary.bin'), Buffer.from([0x1b, 0x5b, 0x32, 0x4a, 0x00, 0x07, 0x41]));
  // Named as no text, not quoted back: the line is nobody's URL (an escape sequence to the terminal).
  const line = await fails(['crawl', '--seeds-file', join(dir, 'binary.bin')], /binary\.bin:1: bytes that are not UTF-8 text; save the seeds file as UTF-8$/);
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(line) && !line.includes('[2J'), `the line is not echoed: ${JSON.stringify(line)}`);
  const long = `http://127.0.0.1:9/${'q'.repeat(100_000)}`;
  const named = await fails(['crawl', long, '--db', join(dir, 'long.db')], /seed 'http:\/\/127\.0\.0\.1:9\/q+…' is 100019 characters, longer than maxUrlLength \(2083; --max-url-length\)/);
  assert.ok(named.length < 300, 'the URL is cut in the message');
  assert.ok(!existsSync(join(dir, 'long.db')), 'no database was created');
});
