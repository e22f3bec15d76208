import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';

let site: RunningSite;
const dir = mkdtempSync(join(tmpdir(), 'fc-topic-'));
const cooking = join(dir, 'cooking.yaml');
const fast = ['--delay-ms', '0', '--per-host', '4', '--no-sitemaps'];

before(async () => {
  site = await serveSite({ pages: 120, seed: 9, words: [100, 200], links: [6, 12] });
  writeFileSync(cooking, 'name: cooking\nkeywords:\n  recipe: 3\n  oven: 2\n');
});
after(() => site.close());

interface Status { topic: string | null; relevant: number | null; urls: { done: number }; pages: number }
const status = async (db: string) => JSON.parse((await runCli(['status', '--db', db, '--json'])).stdout) as Status;
const logRows = (db: string) => {
  const sql = new Database(db, { readonly: true });
  const n = sql.prepare('SELECT count(*) FROM crawl_log').pluck().get() as number;
  const config = sql.prepare("SELECT value FROM meta WHERE key = 'config'").pluck().get() as string;
  sql.close();
  return { n, config };
};
function refused(r: CliResult, message: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, message);
}

test('resume --topic gives a crawl without a topic one; a different topic on resume or crawl needs --force; nothing stored is lost', async () => {
  const db = join(dir, 'no-topic.db');
  const first = await runCli(['crawl', '--seeds', site.origin + '/', '--db', db, '--max-pages', '10', ...fast]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal((await status(db)).topic, null);

  const given = await runCli(['resume', '--db', db, '--topic', DEMO_TOPIC, '--max-pages', '20']);
  assert.equal(given.code, 0, given.stderr);
  assert.match(given.stderr, /held a crawl with no topic: from now on pages are scored for topic 'solar energy'/);
  const s = await status(db);
  assert.equal(s.topic, 'solar energy');
  assert.equal(s.urls.done, 20);
  assert.equal(typeof s.relevant, 'number');

  const kept = logRows(db);
  refused(await runCli(['resume', '--db', db, '--topic', cooking]), /no-topic\.db holds a crawl for topic 'solar energy' and resume --topic gives topic 'cooking': pass --force to switch/);
  refused(await runCli(['crawl', '--seeds', site.origin + '/', '--db', db, '--topic', cooking]), /holds a crawl for topic 'solar energy' and crawl --topic gives topic 'cooking': pass --force/);
  refused(await runCli(['crawl', '--seeds', site.origin + '/', '--db', db]), /holds a crawl for topic 'solar energy': pass its --topic to continue it, or --force to continue without a topic/);
  // The group crawler has no --force to suggest.
  writeFileSync(join(dir, 'sites.tsv'), `${site.origin}/\tsite\n`);
  writeFileSync(join(dir, 'examples.tsv'), `${site.origin}/\t${site.origin}/\n`);
  refused(await runCli(['group', '--sites', join(dir, 'sites.tsv'), '--examples', join(dir, 'examples.tsv'), '--db', db]), /no-topic\.db holds a crawl for topic 'solar energy', not a group crawl: pass another --db$/);
  assert.deepEqual(logRows(db), kept, 'refused runs changed nothing');

  const same = await runCli(['crawl', '--seeds', site.origin + '/', '--db', db, '--topic', DEMO_TOPIC, '--max-pages', '25', ...fast]);
  assert.equal(same.code, 0, same.stderr);
  // The database's name has 'topic' in it: only the budget's change is said.
  assert.doesNotMatch(same.stderr, /topic '|no topic|--force/, 'the same topic continues silently');
  assert.match(same.stderr, /options changed since its last start \(old → new\): maxPages 20 → 25;/);

  const switched = await runCli(['crawl', '--seeds', site.origin + '/', '--db', db, '--topic', cooking, '--force', '--max-pages', '30', ...fast]);
  assert.equal(switched.code, 0, switched.stderr);
  assert.match(switched.stderr, /switching topic from 'solar energy' to 'cooking' \(--force\)/);
  const after = await status(db);
  assert.equal(after.topic, 'cooking');
  assert.equal(after.urls.done, 30, 'the pages of every run are kept');
  assert.equal(after.pages, 30);
});

test('a database left with a strategy that needs a topic and none: resume says to pass --topic, and resume --topic continues it', async () => {
  const db = join(dir, 'left.db');
  const r = await runCli(['crawl', '--seeds', site.origin + '/', '--db', db, '--max-pages', '5', ...fast]);
  assert.equal(r.code, 0, r.stderr);
  // What older versions left behind when `crawl --strategy best-first` had no --topic.
  const sql = new Database(db);
  const config = JSON.parse(sql.prepare("SELECT value FROM meta WHERE key = 'config'").pluck().get() as string) as Record<string, unknown>;
  sql.prepare("UPDATE meta SET value = ? WHERE key = 'config'").run(JSON.stringify({ ...config, strategy: 'best-first', topic: null }));
  sql.close();

  refused(await runCli(['resume', '--db', db]), new RegExp(`left\\.db holds a crawl with no topic and its strategy 'best-first' needs one: resume --db .*left\\.db --topic FILE \\(the topic option\\)$`));
  const fixed = await runCli(['resume', '--db', db, '--topic', DEMO_TOPIC, '--max-pages', '12']);
  assert.equal(fixed.code, 0, fixed.stderr);
  const s = await status(db);
  assert.equal(s.topic, 'solar energy');
  assert.equal(s.urls.done, 12, 'the 5 pages from before and 7 more');
});

test('group and crawl do not take over each other\'s database: each is refused, and the crawl stays resumable', async () => {
  writeFileSync(join(dir, 'sites.tsv'), `${site.origin}/\tsite\n`);
  writeFileSync(join(dir, 'examples.tsv'), `${site.origin}/\t${site.origin}/\n`);
  const plain = join(dir, 'plain.db');
  const first = await runCli(['crawl', '--seeds', site.origin + '/', '--db', plain, '--max-pages', '5', ...fast]);
  assert.equal(first.code, 0, first.stderr);
  const kept = logRows(plain);
  refused(await runCli(['group', '--sites', join(dir, 'sites.tsv'), '--examples', join(dir, 'examples.tsv'), '--db', plain]), /plain\.db holds a crawl made by 'focuscrawl crawl': give the group crawl a database of its own \(--db\)$/);
  assert.deepEqual(logRows(plain), kept, 'the refused group run changed nothing');
  const resumed = await runCli(['resume', '--db', plain, '--max-pages', '8']);
  assert.equal(resumed.code, 0, resumed.stderr);

  const grouped = join(dir, 'grouped.db');
  const g = await runCli(['group', '--sites', join(dir, 'sites.tsv'), '--examples', join(dir, 'examples.tsv'), '--db', grouped, '--budget-per-site', '5', '--iterations', '1', ...fast.filter((f) => f !== '--no-sitemaps')]);
  assert.equal(g.code, 0, g.stderr);
  refused(await runCli(['crawl', '--seeds', site.origin + '/', '--db', grouped]), /grouped\.db holds a group crawl: run 'focuscrawl group' with it again/);
});
