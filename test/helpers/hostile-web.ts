import { collect } from './collect.js';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { startCrawl } from '../../src/crawl.js';
import type { CrawlConfigInput } from '../../src/config/crawl-config.js';
import type { CrawlSummary } from '../../src/engine/crawler.js';
import type { LogEntry } from '../../src/store/store.js';
import type { ServiceEntry } from '../../src/services/service-registry.js';

/**
 * The hostile web of issue 13: besides the misbehaving HTTP server (misbehaving-server.ts, which
 * can listen on any 127.0.0.x), a port with nothing listening and a host that accepts connections
 * and never answers. All real sockets on loopback addresses, each address a host of its own.
 */

export const html = (title: string, links: string[]) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><p>${title}</p>${links.map((h) => `<a href="${h}">${h}</a>`).join(' ')}</body></html>`;

/** An origin where connections are refused: a port that was free a moment ago. */
export async function deadOrigin(address: string): Promise<string> {
  const s = createTcpServer();
  await new Promise<void>((r) => s.listen(0, address, r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://${address}:${port}`;
}

/** A host that accepts every connection and never sends a byte. */
export async function silentHost(address: string): Promise<{ origin: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const s = createTcpServer((sock) => {
    connections++;
    sockets.add(sock);
    sock.on('error', () => {});
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((r) => s.listen(0, address, r));
  return {
    origin: `http://${address}:${(s.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () => new Promise((r) => {
      for (const sock of sockets) sock.destroy();
      s.close(() => r());
    }),
  };
}

/**
 * A host that answers each request with the raw bytes `answer(path)` gives (malformed HTTP that no
 * node:http server would send), then closes the connection; `hits` counts requests per path.
 */
export async function rawHost(address: string, answer: (path: string) => string): Promise<{ origin: string; hits: Map<string, number>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const hits = new Map<string, number>();
  const s = createTcpServer((sock) => {
    sockets.add(sock);
    sock.on('error', () => {});
    sock.on('close', () => sockets.delete(sock));
    let head = '';
    sock.on('data', (d) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const path = head.split(' ')[1] ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      sock.end(answer(path), 'latin1');
    });
  });
  await new Promise<void>((r) => s.listen(0, address, r));
  return {
    origin: `http://${address}:${(s.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise((r) => {
      for (const sock of sockets) sock.destroy();
      s.close(() => r());
    }),
  };
}

export interface CrawlOutcome {
  summary: CrawlSummary;
  entries: LogEntry[];
  /** The crawl log by URL. */
  log: Map<string, LogEntry>;
  /** Rows of the urls table per state name. */
  states: Record<string, number>;
  pages: number;
  services: ServiceEntry[];
}

/**
 * Crawls to the end into a fresh database (or `config.db`) with test-sized timings, and checks
 * what must hold after any run: nothing leased, nothing waiting unless the budget ran out, every
 * URL in a final state logged exactly once.
 */
export async function crawlToEnd(config: CrawlConfigInput): Promise<CrawlOutcome> {
  const crawl = await startCrawl({
    db: join(mkdtempSync(join(tmpdir(), 'fc-hostile-')), 'crawl.db'),
    delayMs: 0,
    retryBaseMs: 10,
    robotsRetryMs: 20,
    concurrency: 4,
    perHost: 2,
    // These tests count requests and fetches of pages; sitemaps have their own (test/engine/sitemaps.test.ts).
    sitemaps: false,
    ...config,
  });
  try {
    const summary = await crawl.run();
    await crawl.db.settle();
    const sql = crawl.db.db;
    const entries = await collect(crawl.store.logEntries());
    const names = ['waiting', 'fetching', 'done', 'error', 'discarded'];
    const states: Record<string, number> = {};
    for (const { state, n } of sql.prepare('SELECT state, count(*) AS n FROM urls GROUP BY state').all() as { state: number; n: number }[]) states[names[state]!] = n;
    const urls = sql.prepare('SELECT url FROM urls WHERE state >= 2').pluck().all() as string[];
    if (summary.reason === 'exhausted') assert.equal(states.waiting ?? 0, 0, 'nothing left waiting');
    assert.equal(states.fetching ?? 0, 0, 'nothing left leased');
    assert.equal(new Set(entries.map((e) => e.url)).size, entries.length, 'no URL logged twice');
    assert.deepEqual(new Set(entries.map((e) => e.url)), new Set(urls), 'every URL in a final state is in the log');
    const c = summary.stats.frontier;
    assert.equal(c.done + c.error + c.discarded, urls.length, 'the frontier counts add up');
    return {
      summary,
      entries,
      log: new Map(entries.map((e) => [e.url, e])),
      states,
      pages: sql.prepare('SELECT count(*) FROM pages').pluck().get() as number,
      services: await crawl.services.entries(),
    };
  } finally {
    await crawl.close();
  }
}
