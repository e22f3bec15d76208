import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCrawl } from '../../src/crawl.js';
import { writeWeb, DEFAULT_WEB } from '../../src/bench/topical-web.js';
import { startTestServer } from '../helpers/misbehaving-server.js';

async function crawlLog(config: Parameters<typeof startCrawl>[0]): Promise<string[]> {
  const crawl = await startCrawl(config);
  try {
    await crawl.run();
    await crawl.db.settle();
    return (crawl.db.db.prepare("SELECT url || ' ' || state || ' ' || ifnull(status, '-') || ' ' || ifnull(title, '') FROM crawl_log ORDER BY url").pluck().all() as string[]);
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
    // Two copies of a header: one line each in the WARC, not a broken header block.
    [/^\/two-robots-tags$/, (_q, res) => {
      res.setHeader('x-robots-tag', ['otherbot: none', 'noindex']);
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
  assert.match(records, /\r\nx-robots-tag: otherbot: none, noindex\r\n/i, 'one header line, no bare line feed in the header block');
  await assert.rejects(startCrawl({ ...common, db: join(dir, 'x.db'), replay: join(dir, 'missing.warc') }), /no recording at .*missing\.warc/);
});

test('a web written by bench gen can be crawled with no server', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-replay-web-'));
  const spec = { ...DEFAULT_WEB, hosts: 2, pagesPerHost: 60, basePort: 29511 };
  writeWeb(spec, dir);
  const log = await crawlLog({ seeds: ['http://127.0.0.1:29511/'], db: join(dir, 'c.db'), replay: dir, delayMs: 0, scope: 'any', maxPages: 50 });
  assert.ok(log.filter((l) => l.includes(' done 200 ')).length >= 40, log.slice(0, 5).join('\n'));
});
