import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCrawlConfigFile } from '../../src/config/crawl-config.js';
import { refuses, writtenFile } from '../helpers/refuses.js';
import { loadTopicFile } from '../../src/relevance/topic.js';

/** Config and topic files as a user (or an attacker) might write them: each refusal is one line naming the file. */
const dir = mkdtempSync(join(tmpdir(), 'fc-load-file-'));

const file = (name: string, text: string | Buffer) => writtenFile(dir, name, text);

test('a YAML "billion laughs" is refused as too many aliases, as topic and as config', () => {
  const levels = 'abcdefghi';
  const lines = [`a: &a [${Array(9).fill('"lol"').join(',')}]`];
  for (let i = 1; i < levels.length; i++) lines.push(`${levels[i]}: &${levels[i]} [${Array(9).fill(`*${levels[i - 1]}`).join(',')}]`);
  const laughs = file('laughs.yaml', `name: lol\nkeywords: {lol: 1}\n${lines.join('\n')}\n`);
  refuses(() => loadTopicFile(laughs), /laughs\.yaml: too many YAML aliases/);
  refuses(() => loadCrawlConfigFile(laughs), /laughs\.yaml: too many YAML aliases/);
  // A few aliases, as people use them, still work.
  const few = file('few-aliases.yaml', 'allow: &a ["^http://a/"]\ndeny: *a\n');
  assert.deepEqual(loadCrawlConfigFile(few).deny, ['^http://a/']);
});

test('what is no regular file is refused at once, without reading it', () => {
  refuses(() => loadCrawlConfigFile('/dev/zero'), /cannot read config file \/dev\/zero: not a regular file \(a device\)/);
  const fifo = join(dir, 'fifo.yaml');
  execFileSync('mkfifo', [fifo]);
  // Opened without O_NONBLOCK, a FIFO nobody writes to blocked here forever.
  refuses(() => loadTopicFile(fifo), /cannot read topic file .*fifo\.yaml: not a regular file \(a pipe\)/);
  refuses(() => loadTopicFile(dir), /cannot read topic file .*: it is a folder \(EISDIR\)/);
  refuses(() => loadTopicFile(join(dir, 'missing.yaml')), /cannot read topic file .*missing\.yaml: no such file \(ENOENT\)/);
});

test('a file over the limit is refused by its size, before it is read', () => {
  const big = file('big.yaml', '');
  // Sparse: 1.5 GB that takes no disk; reading it would take seconds and 1.5 GB of memory.
  truncateSync(big, 1_500_000_000);
  const peakBefore = process.resourceUsage().maxRSS;
  refuses(() => loadCrawlConfigFile(big), /big\.yaml: config file of 1500000000 bytes, more than the 1048576 read/);
  // maxRSS is the process's peak (kB): a read of the file would have raised it by 1.5 GB.
  assert.ok(process.resourceUsage().maxRSS - peakBefore < 200_000, 'the file was not read');
});

test('JSON files: a byte order mark is skipped, a duplicate key is named as JSON', () => {
  const bom = file('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name": "t", "keywords": {"solar": 2}}\n')]));
  assert.deepEqual(loadTopicFile(bom).keywords, { solar: 2 });
  const cfgBom = file('bom-config.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"maxPages": 5}\n')]));
  assert.equal(loadCrawlConfigFile(cfgBom).maxPages, 5);
  const dup = file('dup.json', '{\n  "maxPages": 5,\n  "maxPages": 6\n}\n');
  refuses(() => loadCrawlConfigFile(dup), /dup\.json:3: invalid JSON: duplicate key 'maxPages'/);
  // An object never closed: named at its last line, not at the empty one after the final newline.
  refuses(() => loadCrawlConfigFile(file('unclosed.json', '{\n  "maxPages": 5,\n  "delayMs": 0\n')), /unclosed\.json:3: invalid JSON: /);
  // YAML says it its own way.
  const dupYaml = file('dup.yaml', 'maxPages: 5\nmaxPages: 6\n');
  refuses(() => loadCrawlConfigFile(dupYaml), /dup\.yaml:2: invalid YAML: Map keys must be unique/);
});

test("a config file's inline topic is named at the field at fault, not as the union's 'Invalid input'; a missing field is said to be missing", () => {
  const noKeywords = file('inline-topic.yaml', 'seeds: [http://127.0.0.1:9/]\ntopic:\n  name: solar\n  keyword:\n    solar: 1\n');
  // The unknown key explains the missing one, so it is named first, at its own line.
  refuses(() => loadCrawlConfigFile(noKeywords), /^.*inline-topic\.yaml:4: config field 'topic\.keyword': unknown$/);
  const missing = file('inline-missing.yaml', 'seeds: [http://127.0.0.1:9/]\ntopic:\n  name: solar\n');
  refuses(() => loadCrawlConfigFile(missing), /^.*inline-missing\.yaml:3: config field 'topic\.keywords': is missing$/);
  const threshold = file('inline-threshold.yaml', 'topic:\n  name: solar\n  keywords: {solar: 1}\n  threshold: 2\n');
  refuses(() => loadCrawlConfigFile(threshold), /^.*inline-threshold\.yaml:4: config field 'topic\.threshold': must be at most 1$/);
  refuses(() => loadTopicFile(file('no-name.yaml', 'keywords: {solar: 1}\n')), /^.*no-name\.yaml:1: topic field 'name': is missing$/);
  // Neither branch of the union was meant: what the field may be, not zod's "Invalid input".
  refuses(() => loadCrawlConfigFile(file('topic-number.yaml', 'topic: 5\n')), /^.*topic-number\.yaml:1: config field 'topic': must be text or a map of keys, not a number$/);
  // A map's key that breaks its rule, not "Invalid key in record".
  refuses(() => loadTopicFile(file('blank-keyword.yaml', 'name: solar\nkeywords:\n  "  ": 3\n  solar: 1\n')), /^.*blank-keyword\.yaml:\d+: topic field 'keywords': has the key '  ': a keyword needs a word, not only spaces$/);
});

test('a config file that is no YAML or JSON map, or that names where a crawl runs, is refused with what it should be', () => {
  const d = mkdtempSync(join(tmpdir(), 'fc-config-kinds-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(d, name), text);
    return join(d, name);
  };
  refuses(() => loadCrawlConfigFile(file('c.toml', 'maxPages = 5\n')), /c\.toml: a config file is YAML \(\.yaml, \.yml\) or JSON \(\.json\); \.toml files are not read$/);
  refuses(() => loadCrawlConfigFile(file('list.yaml', '- a\n- b\n')), /list\.yaml: a config file holds `key: value` lines \(YAML\) or one JSON object; this one is a list$/);
  refuses(() => loadCrawlConfigFile(file('shared.yaml', 'maxPages: 5\nredis: redis://127.0.0.1:6379\n')), /shared\.yaml:2: config field 'redis': given on the command line only \(--redis, or FOCUSCRAWL_REDIS\), not in a config file$/);
  refuses(() => loadCrawlConfigFile(file('kebab-flag.yaml', 'seed-only: true\n')), /kebab-flag\.yaml:1: config field 'seed-only': given on the command line only \(--seed-only\), not in a config file$/);
  refuses(() => loadCrawlConfigFile(file('proto.yaml', 'constructor: 1\n')), /proto\.yaml:1: config field 'constructor': unknown$/);
  refuses(() => loadCrawlConfigFile(file('half.yaml', 'maxPages: 10.5\n')), /half\.yaml:1: config field 'maxPages': must be a whole number, not a fraction$/);
  refuses(() => loadCrawlConfigFile(file('timeout.yaml', 'maxPages: 5\ntimeoutMs: 100\n')), /timeout\.yaml:2: config field 'timeoutMs': unknown \(did you mean 'connectTimeoutMs', 'headersTimeoutMs', 'bodyTimeoutMs' or 'totalTimeoutMs'\?\)$/);
});

test('a second YAML document, a value not among those allowed, and a short unknown key are said in the reader\'s words', () => {
  refuses(() => loadCrawlConfigFile(file('two-docs.yaml', 'seeds: [http://a.test/]\n---\nmaxPages: 3\n')), /two-docs\.yaml:2: a second YAML document starts here \('---'\); a config file is one document$/);
  refuses(() => loadCrawlConfigFile(file('preset.yaml', 'preset: WMS\n')), /preset\.yaml:1: config field 'preset': must be 'wms'$/);
  refuses(() => loadCrawlConfigFile(file('short.yaml', 'a: 1\n')), /short\.yaml:1: config field 'a': unknown$/);
  refuses(() => loadCrawlConfigFile(file('near.yaml', 'maxPage: 1\n')), /config field 'maxPage': unknown \(did you mean 'maxPages'\?\)$/);
});

test("a config file gives only the keys it holds, so a preset's settings and the crawl's defaults are not read as the file's", async () => {
  const { applyPreset } = await import('../../src/config/presets.js');
  const cfg = loadCrawlConfigFile(file('preset-wms.yaml', 'seeds: [http://a.test/]\npreset: wms\nmaxPages: 2\n'));
  assert.deepEqual(Object.keys(cfg).sort(), ['maxPages', 'preset', 'seeds']);
  const filled = applyPreset(cfg);
  assert.equal(filled.maxDepth, 5);
  assert.equal(filled.concurrency, 5);
  // A value the file gives is the file's, preset or not.
  assert.equal(applyPreset(loadCrawlConfigFile(file('preset-deep.yaml', 'preset: wms\nmaxDepth: 9\n'))).maxDepth, 9);
});
