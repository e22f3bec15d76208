import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { runCli } from '../helpers/run-cli.js';
import Database from 'better-sqlite3';

let site: RunningSite;
const dir = mkdtempSync(join(tmpdir(), 'fc-cli-crawl-'));
const db = join(dir, 'c.db');
let crawlOut: string;

before(async () => {
  site = await serveSite({ pages: 120, seed: 3, words: [150, 300], links: [8, 15] });
  const r = await runCli(['crawl', '--seeds', site.origin + '/', '--topic', DEMO_TOPIC, '--db', db, '--max-pages', '60', '--delay-ms', '0', '--per-host', '4', '--no-sitemaps']);
  assert.equal(r.code, 0, r.stderr);
  crawlOut = r.stdout;
});
after(() => site.close());

test('crawl prints a summary with the budget reason and relevance', () => {
  assert.match(crawlOut, /crawl ended \(page budget reached\)/);
  assert.match(crawlOut, /60 fetched this run/);
  assert.match(crawlOut, /relevant: \d+ this run \(harvest rate/);
});

test('status reports the stored crawl', async () => {
  const r = await runCli(['status', '--db', db, '--json']);
  const s = JSON.parse(r.stdout) as { urls: { done: number; waiting: number }; pages: number; unindexed: number; topic: string; finished: boolean };
  assert.equal(s.urls.done, 60);
  assert.equal(s.pages, 60);
  assert.equal(s.unindexed, 0, 'the end of a crawl run brings the full-text index up to date');
  assert.equal(s.topic, 'solar energy');
  assert.equal(s.finished, false);
});

test('search finds English and Chinese words', async () => {
  const en = await runCli(['search', '--db', db, '--json', 'photovoltaic']);
  const hits = en.stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string; title: string });
  assert.ok(hits.length > 0);
  assert.ok(hits.every((h) => h.url.startsWith(site.origin)));
  const none = await runCli(['search', '--db', db, 'xylophonist']);
  assert.match(none.stdout, /no page matches/);
});

test('search prints no control character a page stored before the parser dropped them still holds (ESC sequences drove the terminal)', async () => {
  const copy = join(dir, 'escapes.db');
  const sql = new Database(db, { readonly: true });
  await sql.backup(copy);
  sql.close();
  const old = new Database(copy);
  old.prepare("UPDATE pages SET title = 'red\x1b[31m title\x07'").run();
  old.close();
  const r = await runCli(['search', '--db', copy, 'photovoltaic']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /red\[31m title/);
  assert.doesNotMatch(r.stdout, /[\x1b\x07]/);
});

test('search says when more pages match than it shows', async () => {
  const all = (await runCli(['search', '--db', db, '--json', '--limit', '100', 'photovoltaic'])).stdout.trim().split('\n');
  const n = all.length;
  assert.ok(n > 10 && n < 100, `${n} hits`);
  const shown = await runCli(['search', '--db', db, 'photovoltaic']);
  assert.equal(shown.stdout.match(/^\d+\. /gm)?.length, 10, 'the default limit');
  assert.match(shown.stdout, /\n… and more match: --limit 20 shows more\n$/);
  const exact = await runCli(['search', '--db', db, '--limit', String(n), 'photovoltaic']);
  assert.doesNotMatch(exact.stdout, /and more/, 'all shown');
  const short = await runCli(['search', '--db', db, '--json', '--limit', String(n - 1), 'photovoltaic']);
  assert.equal(short.stdout.trim().split('\n').length, n - 1);
  assert.equal(short.stderr, `… and more match: --limit ${2 * (n - 1)} shows more\n`, 'JSON lines stay JSON: the note is on stderr');
});

test('export writes the crawl log in fetch order as JSONL and CSV', async () => {
  const j = await runCli(['export', '--db', db, '--format', 'jsonl']);
  const rows = j.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(j.stderr, '', 'writing to standard output, export says nothing more');
  assert.deepEqual(Object.keys(rows[0]!), ['seq', 'url', 'final_url', 'state', 'status', 'depth', 'parent', 'anchor', 'title', 'relevance', 'priority', 'fetched_at', 'error']);
  assert.equal(rows[0]!.url, site.origin + '/');
  assert.equal(rows.filter((r) => r.state === 'done').length, 60);
  assert.ok(rows.slice(1).every((r) => r.state !== 'done' || typeof r.parent === 'string'), 'fetched non-seeds name their parent');
  const out = join(dir, 'log.csv');
  const c = await runCli(['export', '--db', db, '--format', 'csv', '--out', out]);
  assert.equal(c.code, 0, c.stderr);
  const lines = readFileSync(out, 'utf8').trim().split('\r\n');
  assert.equal(lines[0], 'seq,url,final_url,state,status,depth,parent,anchor,title,relevance,priority,fetched_at,error');
  assert.equal(lines.length, rows.length + 1);
  // Writing a file, it says so in one line, as report and group do.
  assert.equal(c.stdout, '');
  assert.equal(c.stderr, `wrote ${rows.length} log records to ${out}\n`);
  // "-" is standard output (Scrapy's -o -), not a file named "-".
  const dash = await runCli(['export', '--db', db, '--format', 'csv', '--out', '-'], { cwd: dir });
  assert.equal(dash.code, 0, dash.stderr);
  assert.equal(dash.stdout.trim().split('\r\n').length, rows.length + 1);
  assert.equal(existsSync(join(dir, '-')), false);
  const linksOut = join(dir, 'links.txt');
  const l = await runCli(['export', '--db', db, '--what', 'links', '--out', linksOut]);
  assert.equal(l.stderr, `wrote ${readFileSync(linksOut, 'utf8').trim().split('\n').length} links to ${linksOut}\n`);
});

test('export --what pages writes every stored page with its text; --relevant keeps those the topic calls relevant', async () => {
  type Page = { url: string; title: string; text: string; relevance: number; noindex: boolean };
  const all = (await runCli(['export', '--db', db, '--what', 'pages'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as Page);
  assert.equal(all.length, 60);
  assert.ok(all.every((p) => p.url.startsWith(site.origin) && p.text.length > 100 && p.noindex === false));
  const search = (await runCli(['search', '--db', db, '--json', '--limit', '100', 'photovoltaic'])).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { url: string }).url);
  assert.ok(all.filter((p) => /photovoltaic/i.test(p.text)).every((p) => search.includes(p.url)), 'the text exported is the text indexed');
  const r = await runCli(['export', '--db', db, '--what', 'pages', '--relevant']);
  assert.equal(r.code, 0, r.stderr);
  const relevant = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Page);
  const threshold = Number(/^threshold: ([\d.]+)/m.exec(readFileSync(DEMO_TOPIC, 'utf8'))![1]);
  assert.deepEqual(relevant.map((p) => p.url), all.filter((p) => p.relevance >= threshold).map((p) => p.url));
  assert.ok(relevant.length > 0 && relevant.length < all.length, `${relevant.length} of ${all.length}`);
  const csvOut = join(dir, 'pages.csv');
  const p = await runCli(['export', '--db', db, '--what', 'pages', '--relevant', '--format', 'csv', '--out', csvOut]);
  assert.equal(p.code, 0, p.stderr);
  assert.equal(p.stderr, `wrote ${relevant.length} pages to ${csvOut}\n`);
  const csv = readFileSync(csvOut, 'utf8');
  assert.ok(csv.startsWith('url,final_url,status,content_type,fetched_at,encoding,title,relevance,canonical,noindex,text\r\n'));
  // One record a page: a row starts with its quoted-or-bare URL; the text field may hold line breaks, quoted.
  assert.equal(csv.split('\r\n').filter((l) => l.startsWith(site.origin)).length, relevant.length);
  const wrong = await runCli(['export', '--db', db, '--what', 'pages', '--format', 'txt']);
  assert.equal([wrong.code, wrong.stderr.trim()].join(' '), '2 focuscrawl: --format txt is for --what links; the pages are jsonl, json or csv');
  const wrongLog = await runCli(['export', '--db', db, '--format', 'txt']);
  assert.equal([wrongLog.code, wrongLog.stderr.trim()].join(' '), '2 focuscrawl: --format txt is for --what links; the log is jsonl, json or csv');
});

test("export without --format writes what the --out file's extension says", async () => {
  const csvOut = join(dir, 'by-name.csv');
  const c = await runCli(['export', '--db', db, '--out', csvOut]);
  assert.equal(c.code, 0, c.stderr);
  assert.ok(readFileSync(csvOut, 'utf8').startsWith('seq,url,final_url,state,'));
  const linksOut = join(dir, 'by-name.jsonl');
  const l = await runCli(['export', '--db', db, '--what', 'links', '--out', linksOut]);
  assert.equal(l.code, 0, l.stderr);
  const first = JSON.parse(readFileSync(linksOut, 'utf8').split('\n')[0]!) as Record<string, unknown>;
  assert.deepEqual(Object.keys(first), ['src', 'url', 'anchor']);
  // A .json file is one JSON array, as Scrapy's -o writes it: the same records as JSON lines.
  const jsonOut = join(dir, 'by-name.json');
  const j = await runCli(['export', '--db', db, '--what', 'links', '--out', jsonOut]);
  assert.equal(j.code, 0, j.stderr);
  const array = JSON.parse(readFileSync(jsonOut, 'utf8')) as unknown[];
  assert.deepEqual(array, readFileSync(linksOut, 'utf8').trim().split('\n').map((line) => JSON.parse(line)));
  // No record is still one array, not an empty file a JSON reader refuses.
  const none = await runCli(['export', '--db', db, '--what', 'pages', '--min-relevance', '1', '--format', 'json']);
  assert.equal(none.code, 0, none.stderr);
  const lines = await runCli(['export', '--db', db, '--what', 'pages', '--min-relevance', '1', '--format', 'jsonl']);
  assert.equal((JSON.parse(none.stdout) as unknown[]).length, lines.stdout.split('\n').filter(Boolean).length);
  // --format wins over the name, and a .txt log is refused with the file named.
  const forced = join(dir, 'forced.csv');
  assert.equal((await runCli(['export', '--db', db, '--format', 'jsonl', '--out', forced])).code, 0);
  assert.doesNotThrow(() => JSON.parse(readFileSync(forced, 'utf8').split('\n')[0]!));
  const txt = join(dir, 'log.txt');
  const bad = await runCli(['export', '--db', db, '--out', txt]);
  assert.equal([bad.code, bad.stderr.trim()].join(' '), `2 focuscrawl: --out ${txt}: a .txt file is for --what links; the log is jsonl, json or csv (name the file .jsonl, .json or .csv, or give --format)`);
});

test('resume with a larger budget continues the same crawl; a smaller one is refused', async () => {
  const lower = await runCli(['resume', '--db', db, '--max-pages', '10']);
  assert.equal([lower.code, lower.stderr.trim()].join(' '), "2 focuscrawl: --max-pages 10 is below the crawl's budget of 60: resume raises the budget");
  const r = await runCli(['resume', '--db', db, '--max-pages', '80']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /20 fetched this run/);
});
