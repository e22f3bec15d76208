import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTruth } from '../../src/dashboard/truth-file.js';
import { readSitesFile } from '../../src/group/group-inputs.js';
import { runCli } from '../helpers/run-cli.js';
import { resumeCrawl, startCrawl } from '../../src/crawl.js';

const dir = mkdtempSync(join(tmpdir(), 'fc-binary-inputs-'));
// Bytes of a compressed file: no line of it is text, and none may be echoed to the terminal.
const BINARY = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x4e, 0x61, 0x53, 0x00, 0x64, 0x74, 0xc3, 0x28, 0x0a, 0xff, 0xfe, 0x1b, 0x5b, 0x33, 0x31, 0x6d]);

test('a binary file given as a list of URLs (truth, sites) is named as not UTF-8 text, not echoed as a URL', () => {
  const file = join(dir, 'c6.yaml');
  writeFileSync(file, BINARY);
  assert.throws(() => loadTruth(file), (e: Error) => /^--truth .*c6\.yaml:1: bytes that are not UTF-8 text; save the file as UTF-8, one URL a line$/.test(e.message));
  assert.throws(() => readSitesFile(file), (e: Error) => /c6\.yaml:1: bytes that are not UTF-8 text; save the sites file as UTF-8$/.test(e.message));
});

test('bench seen refuses a binary file as its trace, in one line naming the file (exit 2)', async () => {
  const file = join(dir, 'trace.bin');
  writeFileSync(file, BINARY);
  const r = await runCli(['bench', 'seen', '--trace', file, '--sizes', '2']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^focuscrawl: .*trace\.bin:1: bytes that are not UTF-8 text; a trace is a text file of URLs, one a line\n$/);
  assert.equal(r.stdout, '', 'no table of a nonsense trace');
});

test('bench seen --plot or --json naming a folder fails in one line naming it (exit 2)', async () => {
  const trace = join(dir, 'trace.txt');
  writeFileSync(trace, 'http://a.example/1\nhttp://a.example/2\nhttp://a.example/1\n');
  const folder = join(dir, 'plots');
  mkdirSync(folder);
  for (const flag of ['--plot', '--json']) {
    const r = await runCli(['bench', 'seen', '--trace', trace, '--sizes', '2', flag, folder]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /\nfocuscrawl: cannot write .*plots: it is a folder \(EISDIR\)\n$/);
  }
});

test("an argument commander refuses is quoted on one line, its line breaks shown escaped; commander's own hint stays on that line", async () => {
  const header = await runCli(['crawl', 'http://127.0.0.1:9/', '--header', 'X: a\r\nY: b']);
  assert.equal(header.code, 2, header.stderr);
  assert.equal(header.stderr.split('\n').length, 2, `one line: ${JSON.stringify(header.stderr)}`);
  assert.match(header.stderr, /^focuscrawl: error: option '--header <header>' argument 'X: a\\x0d\\x0aY: b' is invalid\./);
  const typo = await runCli(['crawl', 'http://127.0.0.1:9/', '--max-pagez', '3']);
  assert.equal(typo.code, 2, typo.stderr);
  assert.equal(typo.stderr, "focuscrawl: error: unknown option '--max-pagez' (Did you mean --max-pages?)\n");
});

test('a crawl does not start with an empty User-Agent or retries without end, but a stored crawl that holds them still resumes', async () => {
  const { default: Database } = await import('better-sqlite3');
  const blank = await runCli(['crawl', 'http://127.0.0.1:9/', '--db', join(dir, 'ua.db'), '--user-agent', '  ']);
  assert.equal(blank.code, 2, blank.stderr);
  assert.equal(blank.stderr, "focuscrawl: crawl option 'userAgent' (--user-agent): is empty or only spaces: a crawler names itself, and how to reach whoever runs it\n");
  // The group crawler took an empty one for none and used the default.
  const sites = join(dir, 'sites.txt');
  const examples = join(dir, 'examples.txt');
  writeFileSync(sites, 'http://127.0.0.1:9/\n');
  writeFileSync(examples, 'http://127.0.0.1:9/\thttp://127.0.0.1:9/faq.html\n');
  const group = await runCli(['group', '--sites', sites, '--examples', examples, '--db', join(dir, 'g.db'), '--user-agent', '']);
  assert.equal(group.code, 2, group.stderr);
  assert.match(group.stderr, /^focuscrawl: crawl option 'userAgent' \(--user-agent\): is empty or only spaces/);
  const config = join(dir, 'retries.yaml');
  writeFileSync(config, 'retries: 1000\n');
  const many = await runCli(['crawl', 'http://127.0.0.1:9/', '--db', join(dir, 'r.db'), '--config', config]);
  assert.equal(many.code, 2, many.stderr);
  // Named at the file's line; given another way, the crawl's own check names the option.
  await assert.rejects(startCrawl({ seeds: ['http://127.0.0.1:9/'], db: join(dir, 'r2.db'), retries: 1000 }), /^FocusCrawlError: crawl option 'retries': must be at most 100 /);
  assert.match(many.stderr, /^focuscrawl: .*retries\.yaml:1: config field 'retries': must be at most 100 \(each retry waits twice as long as the last\)\n$/);
  // A crawl stored with them (accepted before these checks) resumes as it was.
  const db = join(dir, 'stored.db');
  await (await startCrawl({ seeds: ['http://127.0.0.1:9/'], db })).close();
  const sql = new Database(db);
  const stored = JSON.parse(sql.prepare("SELECT value FROM meta WHERE key = 'config'").pluck().get() as string) as Record<string, unknown>;
  sql.prepare("UPDATE meta SET value = ? WHERE key = 'config'").run(JSON.stringify({ ...stored, retries: 1000, userAgent: '' }));
  sql.close();
  const resumed = await runCli(['status', '--db', db]);
  assert.equal(resumed.code, 0, resumed.stderr);
  const again = await resumeCrawl(db);
  try {
    assert.equal(again.config.retries, 1000);
  } finally {
    await again.close();
  }
});
