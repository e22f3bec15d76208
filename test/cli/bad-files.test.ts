import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliFails } from '../helpers/cli-fails.js';

/** Files that are not what a flag expects: recordings, topic and config files, a page's URL. */
const dir = mkdtempSync(join(tmpdir(), 'fc-bad-files-'));
const seed = 'http://127.0.0.1:9/';

const fails = (args: string[], message: RegExp) => cliFails(args, message, dir);

test('a recording that is no WARC, a WARC that is a folder, and recording into the replayed file are named', async () => {
  writeFileSync(join(dir, 'noise.warc'), Buffer.from('not a warc at all\n\x00\x01\x02'));
  await fails(['crawl', seed, '--db', join(dir, 'r1.db'), '--replay', join(dir, 'noise.warc')], /noise\.warc holds no WARC response record: not a recording to replay/);
  mkdirSync(join(dir, 'a-folder.warc'));
  await fails(['crawl', seed, '--db', join(dir, 'r2.db'), '--record', join(dir, 'a-folder.warc')], /cannot write WARC .*a-folder\.warc: it is a folder \(EISDIR\)/);
  const before = readFileSync(join(dir, 'noise.warc'));
  await fails(['crawl', seed, '--db', join(dir, 'r3.db'), '--replay', join(dir, 'noise.warc'), '--record', join(dir, '.', 'noise.warc')], /--record .*noise\.warc is the --replay recording/);
  assert.deepEqual(readFileSync(join(dir, 'noise.warc')), before);
  assert.ok(!existsSync(join(dir, 'r3.db')), 'nothing created');
});

test('topic and config files: too large, UTF-16, nested too deeply', async () => {
  const keywords = Array.from({ length: 20_000 }, (_x, i) => `  keyword${i}: 1`).join('\n');
  writeFileSync(join(dir, 'huge.yaml'), `name: huge\nkeywords:\n${keywords}\n`);
  await fails(['crawl', seed, '--topic', join(dir, 'huge.yaml')], /huge\.yaml: topic file of \d+ bytes, more than the 262144 read/);
  writeFileSync(join(dir, 'utf16.yaml'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name: t\nkeywords:\n  solar: 2\n', 'utf16le')]));
  await fails(['crawl', seed, '--topic', join(dir, 'utf16.yaml')], /utf16\.yaml: topic file in UTF-16; save it as UTF-8/);
  // 光伏 in GBK: said to be no UTF-8, not quoted back as replacement characters.
  writeFileSync(join(dir, 'gbk.yaml'), Buffer.concat([Buffer.from('name: t\nkeywords:\n  '), Buffer.from([0xb9, 0xe2, 0xb7, 0xfc]), Buffer.from(': 2\n')]));
  await fails(['crawl', seed, '--topic', join(dir, 'gbk.yaml')], /gbk\.yaml: topic file is not UTF-8 \(saved as GBK, Big5 or Latin-1\?\); save it as UTF-8$/);
  writeFileSync(join(dir, 'binary.yaml'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0x1b, 0x5b, 0x32, 0x4a]));
  await fails(['crawl', seed, '--topic', join(dir, 'binary.yaml')], /binary\.yaml: not a topic file \(it holds binary data\); a topic file is YAML or JSON text$/);
  writeFileSync(join(dir, 'lone.yaml'), 'name: t\nkeywords:\n  solar: 2\n  光: 1\n');
  await fails(['crawl', seed, '--topic', join(dir, 'lone.yaml')], /lone\.yaml:4: topic field 'keywords\.光': keyword '光' holds a single Chinese character, which no page gives/);
  writeFileSync(join(dir, 'blank.yaml'), 'name: t\nkeywords:\n  "   ": 2\n  solar: 1\n');
  await fails(['crawl', seed, '--topic', join(dir, 'blank.yaml')], /blank\.yaml:3: topic field 'keywords': has the key ' {3}': a keyword needs a word, not only spaces/);
  writeFileSync(join(dir, 'hosts.yaml'), 'hosts: ["not a host!!"]\n');
  await fails(['crawl', seed, '--config', join(dir, 'hosts.yaml')], /hosts\.yaml:1: config field 'hosts\.0': not a host name/);
  writeFileSync(join(dir, 'strategy.yaml'), 'strategy: nonsense\n');
  await fails(['crawl', seed, '--config', join(dir, 'strategy.yaml')], /strategy\.yaml:1: config field 'strategy': unknown strategy 'nonsense' \(bfs, best-first, /);
  writeFileSync(join(dir, 'near.yaml'), '# a near miss\nstrategy: bestfirst\n');
  await fails(['crawl', seed, '--config', join(dir, 'near.yaml')], /near\.yaml:2: config field 'strategy': unknown strategy 'bestfirst' \(did you mean 'best-first'\?\)$/);
  // The file's strategy with an option it does not take: named at the option's own line.
  writeFileSync(join(dir, 'option.yaml'), 'strategy: adaptive\nstrategyOptions:\n  decay: 0.3\n  decayy: 0.3\n');
  await fails(['crawl', seed, '--config', join(dir, 'option.yaml')], /option\.yaml:4: config field 'strategyOptions\.decayy': adaptive unknown \(did you mean 'decay'\?\)$/);
  // Rules the crawl checks when it starts, at the file's line when the file gives the value.
  writeFileSync(join(dir, 'retries.yaml'), 'maxPages: 5\nretries: 1000\n');
  await fails(['crawl', seed, '--config', join(dir, 'retries.yaml')], /retries\.yaml:2: config field 'retries': must be at most 100 \(each retry waits twice as long as the last\)$/);
  writeFileSync(join(dir, 'agent.yaml'), 'userAgent: "  "\n');
  await fails(['crawl', seed, '--config', join(dir, 'agent.yaml')], /agent\.yaml:1: config field 'userAgent': is empty or only spaces/);
  // A topic file the config names, read from the config's folder: the config is named, and a --topic flag replaces it.
  writeFileSync(join(dir, 'no-topic.yaml'), 'topic: missing-topic.yaml\n');
  await fails(['crawl', seed, '--config', join(dir, 'no-topic.yaml')], /no-topic\.yaml: config field 'topic': no such file .*missing-topic\.yaml \(a path in a config file is read from the file's folder\)$/);
  await fails(['crawl', seed, '--config', join(dir, 'no-topic.yaml'), '--topic', join(dir, 'lone.yaml')], /lone\.yaml:4: topic field 'keywords\.光'/);
  writeFileSync(join(dir, 'deep.json'), '['.repeat(100_000) + ']'.repeat(100_000));
  await fails(['crawl', seed, '--config', join(dir, 'deep.json')], /deep\.json: config file nested too deeply to read/);
});

test('score --url that is no http(s) URL is named', async () => {
  writeFileSync(join(dir, 'page.html'), '<title>Solar</title><p>solar panels</p><a href="a.html">a</a>');
  writeFileSync(join(dir, 'topic.yaml'), 'name: solar\nkeywords:\n  solar: 2\n');
  await fails(['score', join(dir, 'page.html'), '--topic', join(dir, 'topic.yaml'), '--url', 'notaurl'], /--url: 'notaurl' is not an http\(s\) URL/);
});

test('a binary file given as a page or as a links file is named, not read as text', async () => {
  writeFileSync(join(dir, 'photo.html'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
  writeFileSync(join(dir, 'topic.yaml'), 'name: solar\nkeywords:\n  solar: 2\n');
  await fails(['score', join(dir, 'photo.html'), '--topic', join(dir, 'topic.yaml')], /photo\.html is not an HTML file \(it holds binary data\)/);
  writeFileSync(join(dir, 'web.json'), '{"pages": []}\n');
  await fails(['score', join(dir, 'web.json'), '--topic', join(dir, 'topic.yaml')], /web\.json is not an HTML file \(it holds JSON\)/);
  await fails(['score', '127.0.0.1:9/p/70.html', '--topic', join(dir, 'topic.yaml')], /cannot read 127\.0\.0\.1:9\/p\/70\.html: .* \(for a URL, write http:\/\/127\.0\.0\.1:9\/p\/70\.html\)$/);
  // A missing file is only a missing file: no URL hint for a name with an extension.
  await fails(['score', join(dir, 'missing.html'), '--topic', join(dir, 'topic.yaml')], /missing\.html: no such file \(ENOENT\)$/);
  writeFileSync(join(dir, 'links.txt'), 'http://127.0.0.1:9/wms?service=WMS\nnot a link\n');
  await fails(['topic', 'learn-links', '--links', join(dir, 'links.txt'), '--out', join(dir, 'links.yaml')], /links\.txt:2: 'not a link' is not an http\(s\) URL/);
});

test('crawl settings that failed only once the crawl ran are refused before it starts', async () => {
  const db = join(dir, 'never.db');
  await fails(['crawl', seed, '--db', db, '--user-agent', 'bot/1 ✓'], /crawl option 'userAgent': holds '✓': .*non-ASCII is not allowed/);
  await fails(['crawl', seed, '--db', db, '--user-agent', 'bot/1\nX-Other: 1'], /crawl option 'userAgent': holds a line break or NUL/);
  writeFileSync(join(dir, 'js-seed.yaml'), `seeds:\n  - ${seed}\n  - "javascript:alert(1)"\n`);
  await fails(['crawl', '--config', join(dir, 'js-seed.yaml'), '--db', db], /js-seed\.yaml:3: config field 'seeds\.1': 'javascript:alert\(1\)' is not an http\(s\) URL/);
  await fails(['crawl', '--seeds', `${seed}\n${seed}x`, '--db', db], /--seeds: '.*' has a line break in it/);
  await fails(['crawl', seed, '--db', db, '--hosts', 'bü cher.example'], /crawl option 'hosts\.0': not a host name: 'bü cher\.example'/);
  writeFileSync(join(dir, 'seeds16.txt'), Buffer.from(`${seed}\n`, 'utf16le'));
  await fails(['crawl', '--seeds-file', join(dir, 'seeds16.txt'), '--db', db], /seeds16\.txt: seeds file in UTF-16; save it as UTF-8/);
  await fails(['crawl', '--seeds-file', '/dev/zero', '--db', db], /cannot read seeds file \/dev\/zero: not a regular file/);
  assert.ok(!existsSync(db), 'nothing created');
});
