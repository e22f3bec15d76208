import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { runCli } from '../helpers/run-cli.js';
import { cliFails } from '../helpers/cli-fails.js';

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
  // Labels read as --truth is: a line that is no URL is named; labels on no host of the web are refused.
  writeFileSync(join(dir, 'bad-labels.txt'), `${labels[0]}\nnot a url\n`);
  await cliFails(['bench', 'run', '--web', web, '--topic', DEMO_TOPIC, '--labels', join(dir, 'bad-labels.txt'), '--strategies', 'bfs', '--budget', '5', '--out', out], /--labels .*bad-labels\.txt:2: 'not a url' is not an http\(s\) URL/);
  writeFileSync(join(dir, 'noted-labels.txt'), `${labels[0]}\n${labels[1]}\trelevant\n`);
  await cliFails(['bench', 'run', '--web', web, '--topic', DEMO_TOPIC, '--labels', join(dir, 'noted-labels.txt'), '--strategies', 'bfs', '--budget', '5', '--out', out], /--labels .*noted-labels\.txt:2: '[^']+\\x09relevant' has a space in it \(one URL a line/);
  writeFileSync(join(dir, 'far-labels.txt'), 'http://127.0.0.9:9/p/1\n');
  await cliFails(['bench', 'run', '--web', web, '--topic', DEMO_TOPIC, '--labels', join(dir, 'far-labels.txt'), '--strategies', 'bfs', '--budget', '5', '--out', out], /--labels .*far-labels\.txt: none of its 1 URLs is on a host of the web/);
  await cliFails(['bench', 'run', '--web', web, '--topic', DEMO_TOPIC, '--strategies', 'bfs@keep@keep', '--budget', '5', '--out', out], /--strategies: 'bfs@keep@keep' is not NAME or NAME@keep/);
  await cliFails(['bench', 'gen', '--out', join(dir, 'w2'), '--hosts', '6', '--port', '65534'], /--port 65534 with --hosts 6: the hosts' ports would run past 65535/);
  // Written again, smaller, into the same folder: none of the larger web is left behind.
  const again = await runCli(['bench', 'gen', '--out', web, '--hosts', '1', '--pages', '30', '--port', '29431']);
  assert.equal(again.code, 0, again.stderr);
  assert.ok(!existsSync(join(web, 'h1')), 'the second host of the earlier web is gone');
  assert.ok(!existsSync(join(web, 'h0', 'p', '50.html')), 'pages past the new size are gone');
  assert.ok(existsSync(join(web, 'h0', 'p', '29.html')));
  await cliFails(['bench', 'gen', '--out', out, '--hosts', '1', '--pages', '10'], /--out .*out: the folder holds "[^"]+", which bench gen did not write/);
  // A gen cut short (web.json is written last): its host folders and labels are replaced too.
  const cutShort = join(dir, 'cut-short');
  mkdirSync(join(cutShort, 'h3'), { recursive: true });
  writeFileSync(join(cutShort, 'labels.txt'), '');
  const resumed = await runCli(['bench', 'gen', '--out', cutShort, '--hosts', '1', '--pages', '10', '--port', '29431']);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.ok(!existsSync(join(cutShort, 'h3')) && existsSync(join(cutShort, 'web.json')));
  assert.ok(existsSync(join(out, 'results.json')), 'a folder of other files is left as it was');
  mkdirSync(join(dir, 'w3'));
  writeFileSync(join(dir, 'w3', 'web.json'), '{"hosts": "abc"}');
  await cliFails(['bench', 'run', '--web', join(dir, 'w3'), '--topic', DEMO_TOPIC, '--out', out], /w3\/web\.json: hosts must be a whole number of at least 1, not "abc"/);
});
