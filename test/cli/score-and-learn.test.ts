import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';
import { clusterOf, isChinese, renderPage, titleOf } from '../../src/bench/generated-site.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { cliFails } from '../helpers/cli-fails.js';
import { runCli } from '../helpers/run-cli.js';

let site: RunningSite;
const spec = { pages: 60, seed: 5, words: [150, 250] as [number, number] };
const dir = mkdtempSync(join(tmpdir(), 'fc-score-'));
// An English page about solar energy, chosen from the generator's labels.
const solar = Array.from({ length: spec.pages }, (_x, i) => i).find((i) => clusterOf(spec, i) === 'solar' && !isChinese(spec, i))!;
before(async () => {
  site = await serveSite(spec);
});
after(() => site.close());

test('score prints the page relevance, level and link scores with their terms', async () => {
  const r = await runCli(['score', '--topic', DEMO_TOPIC, '--json', '--links', '50', site.origin + `/p/${solar}`]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { title: string; relevance: { score: number; terms: [string, number][] }; level: { level: number }; links: { url: string; anchorScore: { score: number }; level: number; adaptive: { priority: number; anchor: number; inherited: number } }[] };
  assert.equal(out.title, titleOf(spec, solar));
  assert.ok(out.relevance.score > 0.15);
  assert.ok(out.relevance.terms.some(([t]) => t === 'solar'));
  assert.ok([1, 2].includes(out.level.level));
  assert.ok(out.links.length > 5);
  const scores = out.links.map((l) => l.adaptive.priority);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a), 'links come best first, by the default strategy');
  const withAnchor = out.links.find((l) => l.anchorScore.score > 0);
  assert.ok(withAnchor && withAnchor.adaptive.anchor > 0, 'the anchor evidence is explained');
  const text = await runCli(['score', '--topic', DEMO_TOPIC, site.origin + `/p/${solar}`]);
  assert.match(text.stdout, /relevance \(position-weighted VSM, method C\): 0\.\d{3}  solar/);
});

test('score reads a file, uses --url for its links, and reports example similarity', async () => {
  const page = join(dir, 'page.html');
  writeFileSync(page, renderPage(spec, 3)!);
  mkdirSync(join(dir, 'ex'), { recursive: true });
  writeFileSync(join(dir, 'ex', 'one.html'), renderPage(spec, 3)!);
  writeFileSync(join(dir, 'topic.yaml'), 'name: solar\nkeywords: {solar: 1, panel: 1}\nexamples: [ex/one.html]\n');
  const r = await runCli(['score', '--topic', join(dir, 'topic.yaml'), '--url', 'http://site.test/p/3', '--json', page]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { example: { score: number; detail: { nearestExample: string } }; links: { url: string }[] };
  assert.ok(out.example.score > 0.99, 'a page is most similar to its own copy');
  assert.equal(out.example.detail.nearestExample, join(dir, 'ex', 'one.html'));
  assert.ok(out.links.every((l) => l.url.startsWith('http://site.test/')));
  const missing = await runCli(['score', '--topic', join(dir, 'topic.yaml'), join(dir, 'nope.html')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read .*nope\.html: no such file \(ENOENT\)/);
  // A host and port without the scheme still gets the hint; a URL of another scheme is named as one.
  await cliFails(['score', '--topic', join(dir, 'topic.yaml'), 'localhost:8080/p.html'], /cannot read localhost:8080\/p\.html: .* \(for a URL, write http:\/\/localhost:8080\/p\.html\)$/);
  await cliFails(['score', '--topic', join(dir, 'topic.yaml'), 'ftp://files.test/p.html'], /^focuscrawl: ftp:\/\/files\.test\/p\.html: ftp: URLs are not read; give an http\(s\) URL or a file$/);
  // An example the topic file names that is not there: the topic file and the field are named.
  writeFileSync(join(dir, 'gone.yaml'), 'name: solar\nkeywords: {solar: 1, panel: 1}\nexamples: [ex/gone.html]\n');
  await cliFails(['score', '--topic', join(dir, 'gone.yaml'), page], /gone\.yaml: examples: cannot read .*ex\/gone\.html: no such file \(ENOENT\)/);
});

test('topic learn ranks candidates by TF-IDF over samples and writes a usable topic file', async () => {
  const samples = join(dir, 'samples');
  mkdirSync(samples, { recursive: true });
  writeFileSync(join(samples, 'a.html'), '<title>WMS list</title><p>wms layer map service wms</p>');
  writeFileSync(join(samples, 'b.html'), '<title>Map server</title><p>wms map getcapabilities</p>');
  writeFileSync(join(dir, 'candidates.txt'), '# terms from the WMS specification\nwms\nmap\nlayer\nfootball\nwms\n');
  const out = join(dir, 'learned.yaml');
  const r = await runCli(['topic', 'learn', '--candidates', join(dir, 'candidates.txt'), '--samples', samples, '--top', '2', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const learned = parse(readFileSync(out, 'utf8')) as { name: string; keywords: Record<string, number> };
  assert.deepEqual(Object.keys(learned.keywords), ['wms', 'map'], 'a candidate listed twice is ranked once');
  assert.equal(learned.keywords.wms, 1);
  assert.equal(learned.name, 'wms');
  const crawlable = await runCli(['score', '--topic', out, join(samples, 'a.html')]);
  assert.equal(crawlable.code, 0, crawlable.stderr);
  // A .json --out is JSON, which the crawler reads back as a topic file.
  const jsonOut = join(dir, 'learned.json');
  const asJson = await runCli(['topic', 'learn', '--candidates', join(dir, 'candidates.txt'), '--samples', samples, '--top', '2', '--out', jsonOut]);
  assert.equal(asJson.code, 0, asJson.stderr);
  assert.deepEqual(JSON.parse(readFileSync(jsonOut, 'utf8')), learned);
  const scoredJson = await runCli(['score', '--topic', jsonOut, join(samples, 'a.html')]);
  assert.equal(scoredJson.code, 0, scoredJson.stderr);
  // A YAML comment in a .json file is named at its own line (V8 gives no position for it).
  writeFileSync(jsonOut, '# a comment\n{"name": "x", "keywords": {"wms": 1}}\n');
  await cliFails(['score', '--topic', jsonOut, join(samples, 'a.html')], /learned\.json:1: invalid JSON: Unexpected token '#'/);
  writeFileSync(jsonOut, '{"name": "# not this one",\n "keywords": {"wms": 1}}\n# but this\n');
  await cliFails(['score', '--topic', jsonOut, join(samples, 'a.html')], /learned\.json:3: invalid JSON: Unexpected (token '#'|non-whitespace character)/);
  const noBackground = await runCli(['topic', 'learn', '--samples', samples, '--out', out]);
  assert.equal(noBackground.code, 2);
  assert.match(noBackground.stderr, /without --candidates, give --background/);
  // A second run does not replace the topic file (perhaps tuned by hand since) unless told to.
  writeFileSync(out, 'name: tuned\nkeywords: {wms: 5}\n');
  await cliFails(['topic', 'learn', '--candidates', join(dir, 'candidates.txt'), '--samples', samples, '--top', '2', '--out', out], /--out .*learned\.yaml exists: give --force to overwrite it/);
  assert.match(readFileSync(out, 'utf8'), /tuned/);
  const forced = await runCli(['topic', 'learn', '--candidates', join(dir, 'candidates.txt'), '--samples', samples, '--top', '2', '--out', out, '--force']);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(readFileSync(out, 'utf8'), /name: wms/);
  // One sample is one sample page, in the file's header and in the table printed.
  const one = await runCli(['topic', 'learn', '--candidates', join(dir, 'candidates.txt'), '--samples', join(samples, 'a.html'), '--top', '2', '--out', out, '--force']);
  assert.equal(one.code, 0, one.stderr);
  assert.match(readFileSync(out, 'utf8'), /^# Written by focuscrawl topic learn from 1 sample page\.$/m);
  assert.match(one.stdout, /^wms\t[\d.]+\t\(in 1 of 1 sample\)$/m);
});
