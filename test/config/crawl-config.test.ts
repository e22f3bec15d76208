import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crawlConfigSchema, loadCrawlConfigFile } from '../../src/config/crawl-config.js';
import { refuses, writtenFile } from '../helpers/refuses.js';

/** Config file settings that were accepted and then failed (or were dropped) once the crawl ran. */
const dir = mkdtempSync(join(tmpdir(), 'fc-crawl-config-'));

const file = (name: string, text: string | Buffer) => writtenFile(dir, name, text);

test('config seeds are checked as command-line seeds are', () => {
  refuses(() => loadCrawlConfigFile(file('js.yaml', 'seeds: ["javascript:alert(1)"]\n')), /js\.yaml:1: config field 'seeds\.0': 'javascript:alert\(1\)' is not an http\(s\) URL/);
  refuses(() => loadCrawlConfigFile(file('mail.yaml', 'seeds:\n  - http://a.example/\n  - mailto:x@y.z\n')), /mail\.yaml:3: config field 'seeds\.1': 'mailto:x@y\.z' is not an http\(s\) URL/);
  refuses(() => loadCrawlConfigFile(file('space.yaml', 'seeds: ["http://h/a b"]\n')), /space\.yaml:1: config field 'seeds\.0': 'http:\/\/h\/a b' has a space in it/);
  refuses(() => loadCrawlConfigFile(file('break.yaml', 'seeds: ["http://h/a\\nhttp://h/b"]\n')), /break\.yaml:1: config field 'seeds\.0': .* has a line break in it/);
  assert.deepEqual(loadCrawlConfigFile(file('good-seeds.yaml', 'seeds: ["http://h/a%20b", "https://例子.example/"]\n')).seeds, ['http://h/a%20b', 'https://例子.example/']);
});

test('userAgent holds only what an HTTP header value may', () => {
  refuses(() => loadCrawlConfigFile(file('ua.yaml', 'userAgent: "bot/1 ✓"\n')), /ua\.yaml:1: config field 'userAgent': holds '✓': .*non-ASCII is not allowed/);
  refuses(() => loadCrawlConfigFile(file('ua-nl.yaml', 'userAgent: "bot/1\\r\\nX-Evil: 1"\n')), /ua-nl\.yaml:1: config field 'userAgent': holds a line break or NUL/);
  refuses(() => loadCrawlConfigFile(file('ua-ctl.yaml', 'userAgent: "bot/1\\x01"\n')), /config field 'userAgent': holds '\\x01'/);
  assert.equal(loadCrawlConfigFile(file('ua-ok.yaml', 'userAgent: "bot/1.0 (+https://example.org/bot; a@b.c)\\tx"\n')).userAgent, 'bot/1.0 (+https://example.org/bot; a@b.c)\tx');
  assert.equal(crawlConfigSchema.safeParse({ userAgent: 'bot\n' }).success, false);
});

test('an empty file name is refused, naming the field', () => {
  refuses(() => loadCrawlConfigFile(file('db.yaml', 'db: ""\n')), /db\.yaml:1: config field 'db': is empty: give a file name/);
  refuses(() => loadCrawlConfigFile(file('topic.yaml', 'topic: ""\n')), /topic\.yaml:1: config field 'topic': is empty: give a file name/);
  refuses(() => loadCrawlConfigFile(file('record.yaml', 'record: ""\n')), /record\.yaml:1: config field 'record': is empty/);
});

test('a regular expression V8 cannot compile is refused when the config is read, not on every URL', () => {
  const huge = 'a'.repeat(500_000);
  refuses(() => loadCrawlConfigFile(file('re.json', JSON.stringify({ deny: [huge] }))), /re\.json:1: config field 'deny\.0': is not a valid regular expression: Regular expression too large$/);
  refuses(() => loadCrawlConfigFile(file('re-syntax.yaml', 'allow: ["("]\n')), /config field 'allow\.0': is not a valid regular expression: Unterminated group/);
});

test('hosts: a name in another script is taken as URLs carry it; a bad one is named', () => {
  assert.deepEqual(loadCrawlConfigFile(file('idn.yaml', 'hosts: ["bücher.example", "BÜCHER.example:8080", "example.org", "[::1]:8080"]\n')).hosts, ['xn--bcher-kva.example', 'xn--bcher-kva.example:8080', 'example.org', '[::1]:8080']);
  refuses(() => loadCrawlConfigFile(file('bad-host.yaml', 'hosts: ["not a host!!"]\n')), /bad-host\.yaml:1: config field 'hosts\.0': not a host name: 'not a host!!'/);
});

test("the files a config file names are found beside it; --seeds-file is said to be a flag", () => {
  mkdirSync(join(dir, 'cfg'), { recursive: true });
  const cfg = loadCrawlConfigFile(writtenFile(join(dir, 'cfg'), 'files.yaml', 'db: r.db\ntopic: t.yaml\nrecord: rec.warc\nreplay: old.warc\n'));
  assert.deepEqual([cfg.db, cfg.topic, cfg.record, cfg.replay], ['r.db', 't.yaml', 'rec.warc', 'old.warc'].map((f) => join(dir, 'cfg', f)));
  refuses(() => loadCrawlConfigFile(file('seeds-file.yaml', 'seedsFile: seeds.txt\n')), /seeds-file\.yaml:1: config field 'seedsFile': given on the command line only \(--seeds-file; a config file lists its seeds under seeds:\)/);
});
