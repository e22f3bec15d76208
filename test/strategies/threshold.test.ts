import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThresholdStrategy } from '../../src/strategies/threshold.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import { startCrawl } from '../../src/crawl.js';
import type { CrawlRequest, Page } from '../../src/types.js';

const topic = topicFromFile({ name: 't', keywords: { solar: 1 }, threshold: 0.2 });
const request = (depth: number): CrawlRequest => ({ key: '0000000000000001', id: 1, url: 'http://a/', host: 'a', depth, parent: null, anchor: '', priority: 0, data: null, attempts: 0 });
const page = { url: 'http://a/', title: '', text: '', headings: '', links: [], canonical: null, noindex: false, nofollow: false, encoding: 'UTF-8' } as Page;
const links = [{ url: 'http://a/1', anchor: 'x', nofollow: false }, { url: 'http://a/2', anchor: 'y', nofollow: false }];

test('threshold: a page at or above the threshold passes its relevance to its links; below it, they are discarded', () => {
  const s = new ThresholdStrategy(topic);
  assert.equal(s.seed().priority, 1);
  assert.deepEqual(s.scoreLinks({ request: request(1), page, relevance: 0.19 }, links), [null, null]);
  assert.deepEqual(s.scoreLinks({ request: request(2), page, relevance: 0.2 }, links).map((d) => d?.priority), [0.2, 0.2]);
  assert.deepEqual(s.scoreLinks({ request: request(1), page, relevance: 0.35 }, links).map((d) => d?.priority), [0.35, 0.35]);
  // A seed page is trusted: below the threshold, its links still wait, at its relevance.
  assert.deepEqual(s.scoreLinks({ request: request(0), page, relevance: 0.05 }, links).map((d) => d?.priority), [0.05, 0.05]);
});

const PAGES: Record<string, string> = {
  '/': '<title>Welcome</title><a href="/news">News</a> <a href="/about">About us</a> <a href="/data">Data</a>',
  '/news': '<title>News</title><p>football results and the weather</p><a href="/n1">Match report</a> <a href="/n2">Weather</a>',
  '/about': '<title>About</title><p>who we are</p><a href="/n3">Contact</a>',
  '/data': '<title>Solar data</title><p>solar photovoltaic inverter data, solar panels</p><a href="/s1">More</a>',
  '/s1': '<title>Solar panels</title><p>solar photovoltaic panels and inverters</p><a href="/s2">Next</a>',
  '/s2': '<title>Contact</title><p>phone</p><a href="/s3">Next</a>',
  '/s3': '<title>Solar</title><p>solar</p>',
};

let server: Server;
let origin: string;
before(async () => {
  server = createServer((req, res) => {
    const body = PAGES[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

test('threshold in a crawl: the seed is followed, off-topic pages are dead ends, and every gate is a counted discard', async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'fc-threshold-')), 'c.db');
  const crawl = await startCrawl({ seeds: [origin + '/'], topic: { name: 'solar', keywords: { solar: 3, photovoltaic: 3, inverter: 2 }, threshold: 0.2 }, strategy: 'threshold', concurrency: 1, delayMs: 0, db });
  try {
    const summary = await crawl.run();
    assert.equal(summary.reason, 'exhausted');
    const fetched = (crawl.db.db.prepare("SELECT url FROM crawl_log WHERE state = 'done' AND url NOT LIKE '%/sitemap.xml' ORDER BY seq").pluck().all() as string[]).map((u) => u.slice(origin.length));
    // The seed scores 0 but is trusted: its three links wait at 0, in discovery order. /data (solar)
    // opens /s1 (solar), which opens /s2; /s2 is off-topic, so /s3 behind it is never reached.
    assert.deepEqual(fetched, ['/', '/news', '/about', '/data', '/s1', '/s2']);
    // Gated: /news's two links, /about's one and /s2's one.
    assert.equal(summary.stats.discardedBy['discarded by strategy threshold'], 4);
  } finally {
    await crawl.close();
  }
});
