import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'fc-small-'));

/** A server whose every page is titled with its path; `hits` are the paths asked for, robots.txt aside. */
async function titledPages(): Promise<{ origin: string; hits: string[]; close(): void }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    if (req.url !== '/robots.txt') hits.push(req.url!);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${req.url}</title>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, close: () => server.close() };
}

test('--seeds with --seeds-file: both are crawled and the merge is said', async () => {
  const { origin, hits, close } = await titledPages();
  const file = join(dir, 'seeds.txt');
  writeFileSync(file, `# more\n${origin}/b\n${origin}/c\n`);
  try {
    const db = join(dir, 'seeds.db');
    const r = await runCli(['crawl', '--seeds', origin + '/a', '--seeds-file', file, '--db', db, '--delay-ms', '0', '--no-sitemaps']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stderr.includes(`focuscrawl: crawling the 1 seed given and the 2 of --seeds-file ${file} together`), r.stderr);
    const done = (await runCli(['export', '--db', db])).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { url: string }).url).sort();
    assert.deepEqual(done, ['/a', '/b', '/c'].map((p) => origin + p));
    assert.deepEqual(hits.sort(), ['/a', '/b', '/c']);
  } finally {
    close();
  }
});

test('crawl URL: URLs given as arguments are seeds, beside --seeds; a bad one is named in one line', async () => {
  const { origin, hits, close } = await titledPages();
  try {
    const db = join(dir, 'positional.db');
    const r = await runCli(['crawl', `${origin}/a`, `${origin}/b`, '--seeds', `${origin}/c`, '--db', db, '--delay-ms', '0', '--no-sitemaps', '--no-robots']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(hits.sort(), ['/a', '/b', '/c']);
    // Crawled without a topic: its pages have no relevance, so neither cut can select any (both said, not an empty export).
    const noTopic = await runCli(['export', '--db', db, '--what', 'pages', '--relevant']);
    assert.equal([noTopic.code, noTopic.stderr.trim()].join(' '), `2 focuscrawl: --relevant: ${db} was crawled without a topic, so its pages have no relevance score to cut on; export them without --relevant`);
    const noScores = await runCli(['export', '--db', db, '--what', 'pages', '--min-relevance', '0']);
    assert.equal([noScores.code, noScores.stderr.trim()].join(' '), `2 focuscrawl: --min-relevance: ${db} was crawled without a topic, so its pages have no relevance score to cut on; export them without --min-relevance`);
    const bad = await runCli(['crawl', 'example.org', '--db', join(dir, 'bad.db')]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr.trim(), "focuscrawl: seed 'example.org' is not an http(s) URL");
  } finally {
    close();
  }
});

test('score FILE shows relative links as written (no null/...), and --url or <base> resolves them', async () => {
  const topic = join(dir, 'topic.yaml');
  writeFileSync(topic, 'name: t\nkeywords:\n  solar: 2\n');
  const page = join(dir, 'page.html');
  writeFileSync(page, '<html><body><p>solar</p><a href="a.html">solar A</a> <a href="/b">B</a> <a href="../up.html">up</a> <a href="https://ex.org/z">abs</a></body></html>');
  const plain = await runCli(['score', '--topic', topic, page]);
  assert.equal(plain.code, 0, plain.stderr);
  assert.doesNotMatch(plain.stdout, /null/);
  assert.match(plain.stdout, /relative links as the file has them: it has no <base>; --url URL resolves them/);
  // The link is the field before its quoted anchor text.
  const shown = plain.stdout.split('\n').filter((l) => /^\s+\d/.test(l)).map((l) => /\s(\S+)\s+"[^"]*"/.exec(l)?.[1]).sort();
  assert.deepEqual(shown, ['../up.html', '/b', 'a.html', 'https://ex.org/z']);

  const json = JSON.parse((await runCli(['score', '--topic', topic, page, '--json', '--url', 'https://site.org/dir/p.html'])).stdout) as { relativeLinks: boolean; links: { url: string }[] };
  assert.equal(json.relativeLinks, false);
  assert.deepEqual(json.links.map((l) => l.url).sort(), ['https://ex.org/z', 'https://site.org/b', 'https://site.org/dir/a.html', 'https://site.org/up.html']);

  const based = join(dir, 'based.html');
  writeFileSync(based, '<html><head><base href="https://base.org/x/"></head><body><a href="a.html">solar</a></body></html>');
  const b = JSON.parse((await runCli(['score', '--topic', topic, based, '--json'])).stdout) as { relativeLinks: boolean; links: { url: string }[] };
  assert.deepEqual([b.relativeLinks, b.links.map((l) => l.url)], [false, ['https://base.org/x/a.html']]);
});

test('--max-urls-per-pattern: a site of numbered pages is cut at the cap as a trap, and the flag lets a bigger one through', async () => {
  // /t/0 links /t/1 ... /t/29: thirty URLs of one pattern (/t/#).
  const server = createServer((req, res) => {
    const links = req.url === '/t/0' ? Array.from({ length: 29 }, (_, i) => `<a href="/t/${i + 1}">thread ${i + 1}</a>`).join(' ') : '';
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${req.url}</title>${links}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const crawl = (name: string, extra: string[]) => runCli(['crawl', '--seeds', `${origin}/t/0`, '--db', join(dir, name), '--delay-ms', '0', '--no-sitemaps', '--no-robots', ...extra]);
    const capped = await crawl('capped.db', ['--max-urls-per-pattern', '10']);
    assert.equal(capped.code, 0, capped.stderr);
    assert.match(capped.stdout, /10 fetched this run/);
    assert.match(capped.stdout, /discarded this run: 20 trap/);
    const raised = await crawl('raised.db', ['--max-urls-per-pattern', '100']);
    assert.match(raised.stdout, /30 fetched this run/);
    assert.doesNotMatch(raised.stdout, /discarded this run/);
  } finally {
    server.close();
  }
});
