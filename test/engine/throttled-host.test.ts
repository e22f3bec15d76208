import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCrawl } from '../../src/crawl.js';
import { startTestServer } from '../helpers/misbehaving-server.js';

const PAGES = Array.from({ length: 10 }, (_x, i) => `/p/${i}`);

/**
 * A host that answers 429 with a Retry-After of an hour. The crawl cannot wait an hour for one URL
 * (it fails, saying why), but the host's other URLs must not be fetched at full pace meanwhile:
 * before, the ten below went out within milliseconds, one after another.
 */
test('a host that answers 429 with a long Retry-After is paused as a whole: its other URLs wait, unfetched', { timeout: 30_000 }, async () => {
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>hub</title>' + PAGES.map((p) => `<a href="${p}">${p}</a>`).join(' '))],
    [/^\/p\/\d+$/, (_q, res) => void res.writeHead(429, { 'retry-after': '3600', 'content-type': 'text/plain' }).end('slow down')],
  ]);
  const crawl = await startCrawl({ seeds: [srv.origin + '/'], db: join(mkdtempSync(join(tmpdir(), 'fc-429-')), 'c.db'), delayMs: 0, perHost: 1, concurrency: 1, sitemaps: false });
  try {
    // The 429's URL ends as an error (the pause is then in place), however long a loaded machine takes to get there.
    const throttled = new Promise<void>((resolve) => crawl.crawler.events.on('fetched', (e) => e.state === 'error' && resolve()));
    const run = crawl.run();
    const asked = () => PAGES.reduce((n, p) => n + (srv.hits.get(p) ?? 0), 0);
    await throttled;
    // Long enough for the other nine to have gone out without the pause (they took milliseconds).
    await new Promise((r) => setTimeout(r, 1000));
    crawl.crawler.stop();
    await run;
    assert.equal(asked(), 1, 'one request to the host after it asked for an hour');
    await crawl.db.settle();
    const failed = crawl.db.db.prepare("SELECT error FROM crawl_log WHERE state = 'error'").pluck().all() as string[];
    assert.deepEqual(failed, ['HTTP 429 (Retry-After 3600 s, longer than the 60 s a retry waits)']);
    const waiting = crawl.db.db.prepare('SELECT count(*) FROM urls WHERE state = 0 AND attempts = 0').pluck().get();
    assert.equal(waiting, 9, 'the others wait for the host, no attempt counted');
  } finally {
    await crawl.close();
    await srv.close();
  }
});
