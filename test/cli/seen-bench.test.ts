import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';
import { runCli } from '../helpers/run-cli.js';

let site: RunningSite;
const dir = mkdtempSync(join(tmpdir(), 'fc-seen-'));
const db = join(dir, 'c.db');
before(async () => {
  site = await serveSite({ pages: 40, seed: 2, words: [100, 150], links: [5, 10] });
  const r = await runCli(['crawl', '--seeds', site.origin + '/', '--db', db, '--max-pages', '20', '--delay-ms', '0', '--per-host', '4']);
  assert.equal(r.code, 0, r.stderr);
});
after(() => site.close());

test('export --what links writes every extracted link in extraction order', async () => {
  const txt = await runCli(['export', '--db', db, '--what', 'links']);
  const urls = txt.stdout.trim().split('\n');
  const json = await runCli(['export', '--db', db, '--what', 'links', '--format', 'jsonl']);
  const rows = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { src: string; url: string; anchor: string });
  assert.equal(urls.length, rows.length);
  assert.deepEqual(urls, rows.map((r) => r.url));
  assert.ok(urls.length > 20 * 5, 'at least the minimum links of 20 pages');
  assert.equal(rows[0]!.src, site.origin + '/');
  const bad = await runCli(['export', '--db', db, '--format', 'txt']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--format txt is for --what links/);
});

test('bench seen replays a trace and reports miss rates; the infinite cache misses each distinct URL once', async () => {
  const trace = join(dir, 'trace.txt');
  writeFileSync(trace, ['http://a/1', 'http://a/2', 'http://a/1', 'http://a/3', 'http://a/2', 'http://a/1'].join('\n') + '\n');
  const out = join(dir, 'r.json');
  const plot = join(dir, 'r.svg');
  const r = await runCli(['bench', 'seen', '--trace', trace, '--sizes', '1,2^1,4', '--json', out, '--plot', plot]);
  assert.equal(r.code, 0, r.stderr);
  const res = JSON.parse(readFileSync(out, 'utf8')) as { links: number; distinct: number; results: { policy: string; size: number; misses: number }[] };
  assert.deepEqual([res.links, res.distinct], [6, 3]);
  const misses = (p: string, s: number) => res.results.find((x) => x.policy === p && x.size === s)!.misses;
  assert.equal(misses('infinite', 1), 3);
  assert.equal(misses('lru', 1), 6);
  assert.equal(misses('lru', 2), 5); // 1 2 1(h) 3 2 1: with two entries only the first repeat of 1 hits
  assert.equal(misses('min', 2), 4);
  assert.equal(misses('lru', 4), 3);
  assert.match(r.stdout, /\| 2\^1 \(2\) \| /);
  assert.match(readFileSync(plot, 'utf8'), /^<svg[^>]*>[\s\S]*lru[\s\S]*<\/svg>$/);
  const badSize = await runCli(['bench', 'seen', '--trace', trace, '--sizes', 'lots']);
  assert.equal(badSize.code, 2);
  assert.match(badSize.stderr, /'lots' is not a size/);
});

test('bench trace writes a generated link trace', async () => {
  const out = join(dir, 'gen.txt');
  const r = await runCli(['bench', 'trace', '--out', out, '--links', '5000']);
  assert.equal(r.code, 0, r.stderr);
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  assert.equal(lines.length, 5000);
  // Early in the simulated crawl most links are new (78% at 5,000; 31% distinct at a million).
  assert.ok(new Set(lines).size < 0.9 * lines.length, 'links repeat');
});
