import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { learnLinkKeywords } from '../../src/relevance/link-keywords.js';
import { applyPreset, WMS_TOPIC } from '../../src/config/presets.js';
import { loadTopic } from '../../src/relevance/topic.js';
import { linkLevel } from '../../src/relevance/link-scorers.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'fc-learn-links-'));
const root = fileURLToPath(new URL('../../../', import.meta.url));

// Words counted per link, from the path and query only (a.example and wms.d.example say nothing):
//   request 4; roads 3, service 3; getcapabilities 2, getmap 2, layers 2, version 2; the rest 1.
// wms (3 links) and ows are acronyms: never keywords. cgi, bin, one-letter words and numbers are dropped.
const LINKS = [
  'http://a.example/geoserver/wms?service=WMS&request=GetCapabilities',
  'http://b.example/cgi-bin/mapserv?map=/x/roads.map&SERVICE=WMS&REQUEST=GetMap&LAYERS=roads&VERSION=1.1.1',
  'https://c.example/ows?service=WMS&version=1.3.0&request=GetMap&layers=roads',
  'http://wms.d.example/arcgis/services/Roads/MapServer/WMSServer?request=GetCapabilities',
];

test('learnLinkKeywords: the words in most sample links, acronyms and URL syntax left out', () => {
  assert.deepEqual(learnLinkKeywords(LINKS, { top: 5 }), [
    { word: 'request', links: 4 },
    { word: 'roads', links: 3 },
    { word: 'service', links: 3 },
    { word: 'getcapabilities', links: 2 },
    { word: 'getmap', links: 2 },
  ]);
});

test('topic learn-links writes the link keywords and abbreviations as a topic-file fragment', async () => {
  const links = join(dir, 'links.txt');
  writeFileSync(links, `# a sample\n${LINKS.join('\n')}\n\n`);
  const out = join(dir, 'links.yaml');
  const r = await runCli(['topic', 'learn-links', '--links', links, '--top', '5', '--abbreviations', 'wms,ows', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^request\tin 4 of 4 links$/m);
  assert.deepEqual(parse(readFileSync(out, 'utf8')), { links: { keywords: ['request', 'roads', 'service', 'getcapabilities', 'getmap'], abbreviations: ['wms', 'ows'] } });
  const json = await runCli(['topic', 'learn-links', '--links', links, '--top', '5', '--abbreviations', 'wms,ows', '--out', join(dir, 'links.json')]);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'links.json'), 'utf8')), parse(readFileSync(out, 'utf8')), 'a .json --out is the same fragment as JSON');
  const bad = await runCli(['topic', 'learn-links', '--links', join(dir, 'missing.txt'), '--out', join(dir, 'never.yaml')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /cannot read links file/);
  // The fragment goes into a topic file by hand: --out naming that file must not replace it.
  const before = readFileSync(out, 'utf8');
  const again = await runCli(['topic', 'learn-links', '--links', links, '--out', out]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /--out .*links\.yaml exists: give --force to overwrite it/);
  assert.equal(readFileSync(out, 'utf8'), before);
  // A link listed twice counts once; a binary file is said to be one.
  writeFileSync(links, `${LINKS.join('\n')}\n${LINKS[0]}\n${LINKS[0]}\n`);
  const twice = await runCli(['topic', 'learn-links', '--links', links, '--top', '5', '--abbreviations', 'wms,ows', '--out', out, '--force']);
  assert.equal(twice.code, 0, twice.stderr);
  assert.match(twice.stdout, /^request\tin 4 of 4 links$/m);
  writeFileSync(join(dir, 'binary.txt'), Buffer.from([0x53, 0x51, 0, 1, 2]));
  const binary = await runCli(['topic', 'learn-links', '--links', join(dir, 'binary.txt'), '--out', join(dir, 'never.yaml')]);
  assert.equal(binary.code, 2);
  assert.match(binary.stderr, /links file .*binary\.txt is not a text file \(it holds binary data\)/);
});

test('topics/wms.yaml is what the learning steps make of topics/wms-sample, and --preset wms uses 5 requests', async () => {
  const terms = join(dir, 'terms.yaml');
  const links = join(dir, 'wms-links.yaml');
  const sample = join(root, 'topics/wms-sample');
  const a = await runCli(['topic', 'learn', '--samples', join(sample, 'pages'), '--candidates', join(sample, 'candidates.txt'), '--top', '10', '--name', 'web map services', '--out', terms]);
  assert.equal(a.code, 0, a.stderr);
  const b = await runCli(['topic', 'learn-links', '--links', join(sample, 'service-links.txt'), '--top', '10', '--out', links]);
  assert.equal(b.code, 0, b.stderr);
  const bundled = readFileSync(WMS_TOPIC, 'utf8').split('\n').slice(2).join('\n');
  assert.equal(bundled, readFileSync(terms, 'utf8') + readFileSync(links, 'utf8'), 'rebuild it with topics/wms-sample/learn.sh');
  const topic = loadTopic(WMS_TOPIC);
  // The source keeps acronyms at the weaker level: a link that only says WMS is level 1.
  assert.equal(linkLevel(topic, 'http://x.example/wms', '').level, 1);
  assert.equal(linkLevel(topic, 'http://x.example/wms?SERVICE=WMS&REQUEST=GetCapabilities', '').level, 2);
  const preset = applyPreset({ seeds: ['http://x.example/'], preset: 'wms' });
  assert.equal(preset.concurrency, 5);
  assert.equal(preset.maxDepth, 5);
});
