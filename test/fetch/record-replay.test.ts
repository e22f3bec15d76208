import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCrawl } from '../../src/crawl.js';
import { writeWeb, DEFAULT_WEB } from '../../src/bench/topical-web.js';
import { startTestServer } from '../helpers/misbehaving-server.js';
import { RecordingFetcher } from '../../src/fetch/recording-fetcher.js';
import { ReplayFetcher } from '../../src/fetch/replay-fetcher.js';
import type { Fetcher } from '../../src/fetch/fetcher.js';
import { SqliteCrawlReader } from '../../src/store/sqlite-crawl-reader.js';
import { SqliteDb } from '../../src/store/sqlite-db.js';

async function crawlLog(config: Parameters<typeof startCrawl>[0]): Promise<string[]> {
  const crawl = await startCrawl(config);
  try {
    await crawl.run();
    await crawl.db.settle();
    const log = crawl.db.db.prepare("SELECT url || ' ' || state || ' ' || ifnull(status, '-') || ' ' || ifnull(title, '') FROM crawl_log ORDER BY url").pluck().all() as string[];
    // What X-Robots-Tag decided: the page's text withheld or kept.
    const pages = crawl.db.db.prepare("SELECT url || ' noindex=' || noindex || ' text=' || length(ifnull(text, '')) FROM pages ORDER BY url").pluck().all() as string[];
    return [...log, ...pages];
  } finally {
    await crawl.close();
  }
}

test('a recorded crawl replays offline with the same outcome for every URL', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-warc-'));
  const srv = await startTestServer([
    [/^\/hub$/, (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        '<title>Hub</title>' + ['/html/a', '/redirect/1', '/status/404', '/gbk', '/pdf', '/private/x', '/two-robots-tags'].map((h) => `<a href="${h}">${h}</a>`).join(' '),
      );
    }],
    // Two copies of a header: one line each in the WARC, and the same scopes on replay (noindex is
    // this crawler's; "otherbot: none" is another's).
    [/^\/two-robots-tags$/, (_q, res) => {
      res.setHeader('x-robots-tag', ['otherbot: none', 'noindex']);
      res.setHeader('set-cookie', ['a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT', 'b=2']);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Tagged</title><a href="/html/a">a</a>');
    }],
  ]);
  const warc = join(dir, 'crawl.warc.gz');
  const common = { seeds: [srv.origin + '/hub'], delayMs: 0, perHost: 1, concurrency: 1, retries: 0 };
  const live = await crawlLog({ ...common, db: join(dir, 'live.db'), record: warc });
  await srv.close();
  const replayed = await crawlLog({ ...common, db: join(dir, 'replay.db'), replay: warc });
  assert.deepEqual(replayed, live);
  assert.ok(live.some((l) => l.startsWith(`${srv.origin}/redirect/1 done 200 Page landed`)), live.join('\n'));
  assert.ok(live.some((l) => l.includes('/gbk done 200 太阳能')), 'the decoded GBK page replays too');
  assert.ok(live.some((l) => l.startsWith(`${srv.origin}/private/x discarded`)), 'robots.txt is replayed');
  assert.ok(live.some((l) => l.startsWith(`${srv.origin}/two-robots-tags done 200 Tagged`)), live.join('\n'));
  const records = gunzipSync(readFileSync(warc)).toString('latin1');
  assert.match(records, /\r\nx-robots-tag: otherbot: none\r\nx-robots-tag: noindex\r\n/i, 'one header line per copy, no bare line feed in the header block');
  assert.ok(live.includes(`${srv.origin}/two-robots-tags noindex=1 text=0`), live.join('\n'));
  assert.match(records, /\r\nset-cookie: a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT\r\nset-cookie: b=2\r\n/i, 'cookies are never folded into one line');
  await assert.rejects(startCrawl({ ...common, db: join(dir, 'x.db'), replay: join(dir, 'missing.warc') }), /no recording at .*missing\.warc/);
  // A host the recording never asked: its robots.txt is absent (a 404), and its pages fail at once.
  const replay = await ReplayFetcher.open(warc, 5);
  assert.equal((await replay.fetch('http://127.0.0.9:9/robots.txt', { anyContentType: true })).status, 404);
  await assert.rejects(replay.fetch('http://127.0.0.9:9/page'), /http:\/\/127\.0\.0\.9:9\/page is not in the recording/);
});

test('a web written by bench gen can be crawled with no server', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-replay-web-'));
  const spec = { ...DEFAULT_WEB, hosts: 2, pagesPerHost: 60, basePort: 29511 };
  writeWeb(spec, dir);
  const log = await crawlLog({ seeds: ['http://127.0.0.1:29511/'], db: join(dir, 'c.db'), replay: dir, delayMs: 0, scope: 'any', maxPages: 50 });
  assert.ok(log.filter((l) => l.includes(' done 200 ')).length >= 40, log.slice(0, 5).join('\n'));
});

test('a recording that fails mid-crawl (a full disk) fails its fetches and closes: records still being written do not wait for it', { timeout: 120_000 }, async () => {
  // The timeout only keeps a hang from holding the suite: the old code waited forever.
  // Many answers in flight when /dev/full refuses the first write: a record serialised while the
  // stream failed used to wait for a 'drain' that a destroyed stream never emits.
  const body = new TextEncoder().encode('<title>x</title>' + 'x'.repeat(40_000));
  const inner: Fetcher = {
    fetch: async (url) => ({ url, finalUrl: url, status: 200, headers: { 'content-type': 'text/html' }, redirects: [], contentType: 'text/html', body, bytes: body.length, fetchMs: 1 }),
    close: async () => {},
  };
  for (let round = 0; round < 5; round++) {
    const rec = await RecordingFetcher.open(inner, '/dev/full');
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => rec.fetch(`http://127.0.0.1/${i}`)));
    // close() says so too: a failure that came after the last fetch would otherwise end the crawl as if whole.
    await assert.rejects(rec.close(), /cannot write WARC \/dev\/full: ENOSPC/);
    await assert.rejects(rec.fetch('http://127.0.0.1/after'), /cannot write WARC \/dev\/full: ENOSPC/);
    assert.ok(outcomes.some((o) => o.status === 'fulfilled'), 'answers that came before the failure was known are returned');
  }
});

test('a replay keeps no delay between requests: neither the crawl\'s nor a recorded robots.txt Crawl-delay', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-warc-delay-'));
  const srv = await startTestServer([
    [/^\/start$/, (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Start</title><a href="/html/a">a</a>')],
  ]);
  srv.robots = 'User-agent: *\nCrawl-delay: 1\n';
  const warc = join(dir, 'delay.warc.gz');
  const common = { seeds: [srv.origin + '/start'], perHost: 1, concurrency: 1, retries: 0, sitemaps: false };
  await crawlLog({ ...common, delayMs: 0, db: join(dir, 'live.db'), record: warc });
  await srv.close();
  await crawlLog({ ...common, delayMs: 250, db: join(dir, 'replay.db'), replay: warc });
  const delays = async (db: string) => {
    const reader = new SqliteCrawlReader(new SqliteDb(db, { create: false }), true);
    try {
      return (await reader.hosts(10, null)).map((h) => h.delayMs);
    } finally {
      await reader.close();
    }
  };
  assert.deepEqual(await delays(join(dir, 'live.db')), [1000], 'the live crawl kept the Crawl-delay');
  assert.deepEqual(await delays(join(dir, 'replay.db')), [0], 'the replay kept none');
});

test('a WARC cut short (a crash mid-write) is not appended to, and replays the records before the cut, saying so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-warc-cut-'));
  const srv = await startTestServer([
    [/^\/hub$/, (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Hub</title>' + ['/html/a', '/html/b', '/html/c'].map((h) => `<a href="${h}">${h}</a>`).join(' '))],
  ]);
  try {
    const warc = join(dir, 'crawl.warc.gz');
    const common = { seeds: [srv.origin + '/hub'], delayMs: 0, perHost: 1, concurrency: 1, retries: 0 };
    const live = await crawlLog({ ...common, db: join(dir, 'live.db'), record: warc });
    const whole = readFileSync(warc);
    writeFileSync(warc, whole.subarray(0, whole.length - 40));
    const before = readFileSync(warc);
    await assert.rejects(
      startCrawl({ ...common, db: join(dir, 'again.db'), record: warc }),
      /--record .*crawl\.warc\.gz: unreadable near byte [\d,]+ of [\d,]+ \(unexpected end of file\); records are appended only to a whole WARC: give a new file/,
    );
    assert.ok(readFileSync(warc).equals(before), 'the damaged recording is left as it was');
    const crawl = await startCrawl({ ...common, db: join(dir, 'replay.db'), replay: warc });
    try {
      assert.equal(crawl.notes.length, 1, crawl.notes.join('\n'));
      assert.match(crawl.notes[0]!, /the recording .*crawl\.warc\.gz is damaged: unreadable near byte .*; replaying the \d+ response records before it/);
      await crawl.run();
    } finally {
      await crawl.close();
    }
    const replayed = await crawlLog({ ...common, db: join(dir, 'replay2.db'), replay: warc });
    const done = (log: string[]) => log.filter((l) => / done 200 /.test(l));
    assert.equal(done(replayed).length, done(live).length - 1, 'all but the cut record replay');

    // A plain WARC (gunzipped by a user): appended to with plain records, never gzip members after them.
    const plain = join(dir, 'plain.warc');
    writeFileSync(plain, gunzipSync(whole));
    await crawlLog({ ...common, db: join(dir, 'plain.db'), record: plain });
    assert.equal(readFileSync(plain).subarray(0, 5).toString('latin1'), 'WARC/');
    assert.ok(!readFileSync(plain).includes(Buffer.from([0x1f, 0x8b, 0x08])), 'no gzip member in the plain file');
    assert.deepEqual(await crawlLog({ ...common, db: join(dir, 'plain-replay.db'), replay: plain }), live);
    // Its last record cut mid-body: dropped, not replayed as a whole page with half its text (on
    // the first recording alone, where every URL is recorded once).
    const text = gunzipSync(whole);
    const records = text.toString('latin1').split('WARC/1.1\r\n').length - 1;
    writeFileSync(plain, text.subarray(0, text.length - 30));
    const cut = await ReplayFetcher.open(plain, 5);
    assert.match(cut.notes[0]!, /its last record is cut short/);
    const lastStart = text.lastIndexOf('WARC/1.1\r\n');
    const lastUrl = /WARC-Target-URI: (\S+)/.exec(text.subarray(lastStart).toString('latin1'))![1]!;
    await assert.rejects(cut.fetch(lastUrl), /is not in the recording/, 'the cut record is not replayed');
    // Cut inside the last record's WARC header, before its URL: the record before it is whole and replays.
    writeFileSync(plain, text.subarray(0, lastStart + 12));
    const inHeader = await ReplayFetcher.open(plain, 5);
    const previous = text.lastIndexOf('WARC/1.1\r\n', lastStart - 1);
    const beforeUrl = /WARC-Target-URI: (\S+)/.exec(text.subarray(previous, lastStart).toString('latin1'))![1]!;
    assert.ok(records > 2 && beforeUrl !== lastUrl);
    assert.equal((await inHeader.fetch(beforeUrl, { anyContentType: true })).finalUrl, beforeUrl);
    // A gzip recording that ends in zero bytes (what a crash can leave): not appended to either.
    writeFileSync(warc, Buffer.concat([whole, Buffer.alloc(4096)]));
    await assert.rejects(startCrawl({ ...common, db: join(dir, 'zeros.db'), record: warc }), /--record .*crawl\.warc\.gz: it ends with zero bytes where a record should end/);
  } finally {
    await srv.close();
  }
});

test('a redirect handed off to another host is recorded hop by hop, each with its own Location, and replays the same', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-warc-away-'));
  const there = await startTestServer([[/^\/z$/, (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Z</title>')]]);
  const here = await startTestServer([
    [/^\/hub$/, (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Hub</title><a href="/away">away</a>')],
    [/^\/away$/, (_q, res) => void res.writeHead(302, { location: '/hop' }).end()],
    [/^\/hop$/, (_q, res) => void res.writeHead(301, { location: `${there.origin}/z` }).end()],
  ]);
  const warc = join(dir, 'away.warc.gz');
  const common = { seeds: [here.origin + '/hub'], delayMs: 0, perHost: 1, concurrency: 1, retries: 0, hosts: [there.origin] };
  const live = await crawlLog({ ...common, db: join(dir, 'live.db'), record: warc });
  await here.close();
  await there.close();
  assert.deepEqual(await crawlLog({ ...common, db: join(dir, 'replay.db'), replay: warc }), live);
  assert.ok(live.some((l) => l.startsWith(`${there.origin}/z done 200 Z`)), live.join('\n'));
  const records = gunzipSync(readFileSync(warc)).toString('latin1').split('WARC/1.1\r\n').filter((r) => /WARC-Type: response/.test(r));
  const said = records.map((r) => `${/WARC-Target-URI: (\S+)/.exec(r)?.[1]} ${/HTTP\/1\.1 (\d+)/.exec(r)?.[1]} ${/\r\nlocation: (\S+)/i.exec(r)?.[1] ?? '-'}`);
  assert.deepEqual(
    said.filter((l) => !l.includes('/robots.txt') && !l.includes('/sitemap.xml') && !l.includes('/hub ')),
    [`${here.origin}/away 302 ${here.origin}/hop`, `${here.origin}/hop 301 ${there.origin}/z`, `${there.origin}/z 200 -`],
    said.join('\n'),
  );
});
