import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { runCli } from '../helpers/run-cli.js';

test('bench gen writes a labelled web; bench run compares strategies on it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-web-'));
  const web = join(dir, 'web');
  const gen = await runCli(['bench', 'gen', '--out', web, '--hosts', '2', '--pages', '80', '--port', '29431']);
  assert.equal(gen.code, 0, gen.stderr);
  const labels = readFileSync(join(web, 'labels.txt'), 'utf8').trim().split('\n');
  assert.ok(labels.length >= 10 && labels.every((u) => u.startsWith('http://127.0.0.1:2943')));
  const out = join(dir, 'out');
  const run = await runCli(['bench', 'run', '--web', web, '--topic', DEMO_TOPIC, '--strategies', 'bfs,best-first', '--budget', '40', '--out', out]);
  assert.equal(run.code, 0, run.stderr);
  const res = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { results: { strategy: string; fetched: number; targets: number; elapsed: number[] }[] };
  assert.deepEqual(res.results.map((r) => r.strategy), ['bfs', 'best-first']);
  for (const r of res.results) assert.ok(r.fetched === 40 && r.targets <= 40, JSON.stringify(r));
  // The found-over-time curve: seconds at every 10th fetch, never going back.
  for (const r of res.results) assert.ok(r.elapsed.length === 4 && r.elapsed.every((t, i) => t >= 0 && (i === 0 || t >= r.elapsed[i - 1]!)), JSON.stringify(r.elapsed));
  assert.match(run.stdout, /\| bfs \| [\d.]+ \/ /);
  for (const f of ['results.md', 'harvest.svg', 'recall.svg', 'found.svg', 'found-time.svg']) assert.ok(existsSync(join(out, f)), f);
  const bad = await runCli(['bench', 'run', '--web', dir, '--topic', DEMO_TOPIC]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /is not a generated web/);
});
