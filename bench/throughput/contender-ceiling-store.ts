import { urlKey } from '../../src/seen/fingerprint.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { decodeHtml } from '../../src/fetch/decode-body.js';
import { parseHtml } from '../../src/parse/html-page.js';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { ceilingLoop } from './ceiling-loop.js';
import { arg, measure } from './report.js';

/**
 * The ceiling loop doing the work every page needs in focuscrawl: decode, parse with the same
 * parser, store the page and its log line with the same store (writer thread, batched full-text
 * index). No robots.txt, no politeness, no durable frontier, no seen set beyond a Set of strings.
 * The distance from here to focuscrawl is the engine's own cost; the distance from the plain
 * ceiling to here is the cost of parsing and storing pages at all.
 *
 * --work parse stops after parsing; --work store-no-index stores pages without indexing them.
 */
const origin = arg('origin');
const concurrency = Number(arg('concurrency'));
const maxPages = Number(arg('max-pages'));
const work = arg('work', 'store');
if (!['parse', 'store-no-index', 'store'].includes(work)) throw new Error(`--work parse|store-no-index|store, not ${work}`);
const m = measure(
  work === 'parse'
    ? 'ceiling loop + parse (same decoding and parser, no engine)'
    : work === 'store'
      ? 'ceiling loop + parse + store (same parser and SqliteStore, no engine)'
      : 'ceiling loop + parse + store, no full-text index',
);
const agent = new Agent({ connections: concurrency });
const db = new SqliteDb(join(mkdtempSync(join(tmpdir(), 'fc-bench-')), 'ceiling-store.db'), { create: true, writer: 'thread' });
const store = new SqliteStore(db);
let lastFlush = 0;

const fetched = await ceilingLoop(origin + '/', concurrency, maxPages, async (url, id) => {
  const res = await request(url, { dispatcher: agent });
  const body = new Uint8Array(await res.body.arrayBuffer());
  const contentType = String(res.headers['content-type'] ?? '');
  const { html, encoding } = decodeHtml(body, contentType);
  const page = parseHtml(html, url, encoding);
  const links = page.links.map((l) => l.url);
  if (work === 'parse') return links;
  const fetchedAt = new Date().toISOString();
  void id;
  const key = urlKey(url);
  await store.commit({ key, entry: { url, final_url: url, state: 'done', status: res.statusCode, depth: 0, parent: null, anchor: '', title: page.title,
    relevance: null, priority: 0, fetched_at: fetchedAt, error: null }, page: { key, url, finalUrl: url, status: res.statusCode, contentType, headers: {}, redirects: [], fetchedAt,
    fetchMs: 0, bytes: body.length, encoding, title: page.title, text: page.text, canonical: page.canonical, relevance: null,
    // noindex keeps a page out of the full-text index and nothing else.
    noindex: work === 'store-no-index' || page.noindex, outlinks: page.links } });
  // The same cadence and back-pressure as the crawl engine's journal.
  const now = Date.now();
  if (now - lastFlush >= 25) {
    db.flush();
    lastFlush = now;
  }
  while (db.congested) await new Promise((r) => setTimeout(r, 5));
  return links;
});
store.indexPending();
await db.close();
await agent.close();
console.log(JSON.stringify(m.finish(fetched)));
