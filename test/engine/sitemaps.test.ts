import { collect } from '../helpers/collect.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { startCrawl } from '../../src/crawl.js';
import type { CrawlConfigInput } from '../../src/config/crawl-config.js';
import type { CrawlStats } from '../../src/engine/crawl-stats.js';
import type { LogEntry } from '../../src/store/store.js';
import { startTestServer, type Handler, type TestServer } from '../helpers/misbehaving-server.js';

const urlset = (origin: string, paths: string[], lastmod = false) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
  paths.map((p) => `<url><loc>${p.startsWith('http') ? p : origin + p}</loc>${lastmod ? '<lastmod>2024-05-01</lastmod>' : ''}</url>`).join('') +
  '</urlset>';
const sitemapIndex = (origin: string, paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
  paths.map((p) => `<sitemap><loc>${origin + p}</loc></sitemap>`).join('') +
  '</sitemapindex>';
const xml = (res: ServerResponse, body: string | Buffer, headers: Record<string, string> = {}) =>
  res.writeHead(200, { 'content-type': 'application/xml', ...headers }).end(body);
/** The seed: a home page that links one ordinary page, never the pages only sitemaps list. */
const home: [RegExp, Handler] = [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Home</title><a href="/html/linked">linked</a>')];

async function crawl(srv: TestServer, options: Partial<CrawlConfigInput> = {}): Promise<{ stats: CrawlStats; log: Map<string, LogEntry>; entries: LogEntry[] }> {
  const c = await startCrawl({
    seeds: [srv.origin + '/'],
    db: join(mkdtempSync(join(tmpdir(), 'fc-sitemaps-')), 'crawl.db'),
    concurrency: 4,
    perHost: 2,
    delayMs: 0,
    retryBaseMs: 10,
    ...options,
  });
  const { stats } = await c.run();
  await c.db.settle();
  const entries = await collect(c.store.logEntries());
  await c.close();
  return { stats, entries, log: new Map(entries.map((e) => [e.url.startsWith(srv.origin) ? e.url.slice(srv.origin.length) : e.url, e])) };
}

test('robots.txt Sitemap lines: an index with two children, one a .xml.gz file, one gzip by Content-Encoding; out-of-scope URLs discarded', async () => {
  const srv = await startTestServer([
    home,
    [/^\/maps\/index\.xml$/, (_q, res, _m, t) => xml(res, sitemapIndex(t.origin, ['/maps/a.xml', '/maps/b.xml.gz']))],
    [/^\/maps\/a\.xml$/, (_q, res, _m, t) => xml(res, gzipSync(urlset(t.origin, ['/html/o1', '/html/o2', 'http://elsewhere.test/x'], true)), { 'content-encoding': 'gzip' })],
    [/^\/maps\/b\.xml\.gz$/, (_q, res, _m, t) => res.writeHead(200, { 'content-type': 'application/x-gzip' }).end(gzipSync(urlset(t.origin, ['/html/o3'])))],
  ]);
  try {
    srv.robots = `User-agent: *\nDisallow: /private/\nSitemap: ${srv.origin}/maps/index.xml\n`;
    const { stats, log } = await crawl(srv);
    for (const p of ['/maps/index.xml', '/maps/a.xml', '/maps/b.xml.gz', '/html/o1', '/html/o2', '/html/o3', '/html/linked']) {
      assert.equal(srv.hits.get(p), 1, `${p} requested once`);
      assert.equal(log.get(p)?.state, 'done', p);
    }
    assert.equal(srv.hits.get('/sitemap.xml'), undefined, 'robots.txt names the sitemaps: /sitemap.xml is not guessed');
    assert.match(log.get('/maps/index.xml')!.error!, /sitemap index: 2 sitemaps/);
    assert.match(log.get('/maps/a.xml')!.error!, /sitemap: 3 URLs, 2 new/);
    assert.equal(log.get('/html/o1')!.depth, 1, 'sitemap URLs are at depth 1');
    const out = log.get('http://elsewhere.test/x');
    assert.equal(out?.state, 'discarded');
    assert.equal(out?.error, 'out of scope (host)');
    assert.equal(stats.sitemaps, 3);
    assert.equal(stats.sitemapUrls, 3);
    assert.equal(stats.sitemapsCut, 0);
  } finally {
    await srv.close();
  }
});

test('/sitemap.xml is read when robots.txt names no sitemap; a URL only in it is fetched', async () => {
  const srv = await startTestServer([home, [/^\/sitemap\.xml$/, (_q, res, _m, t) => xml(res, urlset(t.origin, ['/html/only', '/html/linked']))]]);
  try {
    const { stats, log } = await crawl(srv);
    assert.equal(srv.hits.get('/sitemap.xml'), 1);
    assert.equal(srv.hits.get('/html/only'), 1);
    assert.equal(log.get('/html/only')?.state, 'done');
    assert.equal(srv.hits.get('/html/linked'), 1, 'a URL both linked and listed is fetched once');
    assert.equal(stats.sitemaps, 1);
    assert.ok(stats.sitemapUrls >= 1 && stats.sitemapUrls <= 2);
  } finally {
    await srv.close();
  }
});

test('a site without sitemaps: the guessed /sitemap.xml answered 404 ends done with a note, not as an error; a named one that is missing is an error', async () => {
  const srv = await startTestServer([home]);
  try {
    const { stats, log } = await crawl(srv);
    assert.equal(srv.hits.get('/sitemap.xml'), 1);
    const guess = log.get('/sitemap.xml');
    assert.equal(guess?.state, 'done');
    assert.equal(guess?.status, 404);
    assert.match(guess!.error!, /sitemap: none \(HTTP 404 for the guessed \/sitemap\.xml\)/);
    assert.equal(stats.errors, 0, 'a crawl that went well ends without errors');
    srv.robots = `User-agent: *\nSitemap: ${srv.origin}/maps/gone.xml\n`;
    const named = await crawl(srv);
    assert.equal(named.log.get('/maps/gone.xml')?.state, 'error');
    assert.equal(named.log.get('/maps/gone.xml')?.error, 'HTTP 404');
    assert.equal(named.stats.errors, 1);
  } finally {
    await srv.close();
  }
});

test('a soft-404 site (every path answered with its HTML page): the guessed /sitemap.xml ends done with a note; a named one that is HTML is still an error', async () => {
  const page = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!-- soft 404 -->\n<!DOCTYPE html><html><title>Home</title><a href="/">home</a></html>');
  const srv = await startTestServer([home, [/^\/(sitemap\.xml|maps\/named\.xml)$/, (_q, res) => page(res)]]);
  try {
    const { stats, log } = await crawl(srv);
    assert.equal(log.get('/sitemap.xml')?.state, 'done');
    assert.match(log.get('/sitemap.xml')!.error!, /sitemap: none \(the guessed \/sitemap\.xml is an HTML page, HTTP 200\)/);
    assert.equal(stats.errors, 0);
    srv.robots = `User-agent: *\nSitemap: ${srv.origin}/maps/named.xml\n`;
    const named = await crawl(srv);
    assert.equal(named.log.get('/maps/named.xml')?.state, 'error', 'a sitemap the site named and serves as HTML is its fault');
  } finally {
    await srv.close();
  }
});

test('--no-sitemaps (sitemaps: false) fetches no sitemap', async () => {
  const srv = await startTestServer([home, [/^\/sitemap\.xml$/, (_q, res, _m, t) => xml(res, urlset(t.origin, ['/html/only']))]]);
  try {
    const { stats, log } = await crawl(srv, { sitemaps: false });
    assert.equal(srv.hits.get('/sitemap.xml'), undefined);
    assert.equal(srv.hits.get('/html/only'), undefined);
    assert.equal(log.has('/html/only'), false);
    assert.equal(stats.sitemaps, 0);
    assert.equal(srv.hits.get('/html/linked'), 1);
  } finally {
    await srv.close();
  }
});

test('--no-robots crawls read /sitemap.xml on their first page', async () => {
  const srv = await startTestServer([home, [/^\/sitemap\.xml$/, (_q, res, _m, t) => xml(res, urlset(t.origin, ['/html/only']))]]);
  try {
    const { log } = await crawl(srv, { robots: false });
    assert.equal(srv.hits.get('/robots.txt'), undefined);
    assert.equal(srv.hits.get('/sitemap.xml'), 1);
    assert.equal(log.get('/html/only')?.state, 'done');
  } finally {
    await srv.close();
  }
});

test('a huge sitemap is cut at the URL limit, and the cut recorded', async () => {
  const paths = Array.from({ length: 40 }, (_v, i) => `/html/u${i}`);
  const srv = await startTestServer([home, [/^\/sitemap\.xml$/, (_q, res, _m, t) => xml(res, urlset(t.origin, paths))]]);
  try {
    const { stats, log } = await crawl(srv, { sitemapMaxUrls: 5 });
    assert.deepEqual(paths.map((p) => srv.hits.get(p) ?? 0), paths.map((_p, i) => (i < 5 ? 1 : 0)), 'the first 5 URLs, and only those');
    assert.equal(log.get('/sitemap.xml')?.state, 'done');
    assert.match(log.get('/sitemap.xml')!.error!, /sitemap: 5 URLs, 5 new; cut at 5 URLs/);
    assert.equal(stats.sitemapUrls, 5);
    assert.equal(stats.sitemapsCut, 1);
  } finally {
    await srv.close();
  }
});

test('a sitemap over the byte limit is cut there, also when gzipped; the URLs before the cut are read', async () => {
  const paths = Array.from({ length: 200 }, (_v, i) => `/html/b${i}`);
  const srv = await startTestServer([
    home,
    [/^\/sitemap\.xml$/, (_q, res, _m, t) => xml(res, gzipSync(urlset(t.origin, paths)), { 'content-encoding': 'gzip' })],
  ]);
  try {
    const { stats, log } = await crawl(srv, { sitemapMaxBytes: 2000 });
    const fetched = paths.filter((p) => srv.hits.get(p) === 1).length;
    assert.ok(fetched > 10 && fetched < 60, `${fetched} URLs read before the cut`);
    assert.deepEqual(paths.slice(0, fetched).map((p) => srv.hits.get(p)), paths.slice(0, fetched).map(() => 1), 'a prefix of the file');
    assert.equal(log.get('/sitemap.xml')?.state, 'done');
    assert.match(log.get('/sitemap.xml')!.error!, /cut at 2000 bytes/);
    assert.equal(stats.sitemapUrls, fetched);
    assert.equal(stats.sitemapsCut, 1);
  } finally {
    await srv.close();
  }
});

test('a malformed sitemap ends as an error with its reason; the URLs before the fault are kept', async () => {
  const srv = await startTestServer([
    home,
    [/^\/sitemap\.xml$/, (_q, res, _m, t) => xml(res, `<urlset><url><loc>${t.origin}/html/before</loc></url><url><loc>${t.origin}/html/after&bogus;</loc></url></urlset>`)],
  ]);
  try {
    const { stats, log } = await crawl(srv);
    const e = log.get('/sitemap.xml');
    assert.equal(e?.state, 'error');
    assert.match(e!.error!, /^malformed sitemap: not well-formed XML: 1:\d+: undefined entity\b.*\(sitemap: 1 URLs, 1 new\)$/);
    assert.equal(srv.hits.get('/html/before'), 1);
    assert.equal(srv.hits.get('/html/after'), undefined);
    assert.equal(stats.sitemaps, 1);
  } finally {
    await srv.close();
  }
});

test('a document that is not a sitemap, and a missing /sitemap.xml, are recorded as such', async () => {
  const srv = await startTestServer([home, [/^\/maps\/rss\.xml$/, (_q, res) => xml(res, '<rss><channel/></rss>')]]);
  try {
    srv.robots = `User-agent: *\nSitemap: ${srv.origin}/maps/rss.xml\nSitemap: ${srv.origin}/maps/gone.xml\nSitemap: http://elsewhere.test/sitemap.xml\n`;
    const { stats, log } = await crawl(srv);
    assert.equal(log.get('/maps/rss.xml')?.state, 'error');
    assert.match(log.get('/maps/rss.xml')!.error!, /^malformed sitemap: not a sitemap: root element <rss>/);
    assert.deepEqual([log.get('/maps/gone.xml')?.state, log.get('/maps/gone.xml')?.error], ['error', 'HTTP 404']);
    assert.equal(log.get('http://elsewhere.test/sitemap.xml')?.error, 'out of scope (host)', 'a sitemap file out of scope is discarded, not fetched');
    assert.equal(srv.hits.get('/maps/rss.xml'), 1);
    assert.equal(srv.hits.get('/maps/gone.xml'), 1);
    assert.equal(stats.sitemaps, 2);
  } finally {
    await srv.close();
  }
});

test('an index that lists one sitemap many times counts it once against the per-site cap', async () => {
  const srv = await startTestServer([
    home,
    [/^\/robots\.txt$/, (_q, res, _m, t) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`Sitemap: ${t.origin}/idx.xml\n`)],
    [/^\/idx\.xml$/, (_q, res, _m, t) => xml(res, sitemapIndex(t.origin, [...Array.from({ length: 6 }, () => '/dup.xml'), '/real.xml']))],
    [/^\/dup\.xml$/, (_q, res, _m, t) => xml(res, urlset(t.origin, ['/html/d']))],
    [/^\/real\.xml$/, (_q, res, _m, t) => xml(res, urlset(t.origin, ['/html/r']))],
  ]);
  try {
    const { log } = await crawl(srv, { sitemapsPerSite: 3 });
    assert.equal(srv.hits.get('/real.xml'), 1, 'the second distinct file is read');
    assert.equal(srv.hits.get('/dup.xml'), 1);
    assert.equal(log.get('/html/r')?.state, 'done');
    assert.doesNotMatch(log.get('/idx.xml')?.error ?? '', /over the limit/);
  } finally {
    await srv.close();
  }
});

test('a sitemap in UTF-16 with a BOM, or in Latin-1 with the declaration saying so, is read', async () => {
  const utf16 = (origin: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(urlset(origin, ['/html/caf%C3%A9-16']).replace('UTF-8', 'UTF-16'), 'utf16le')]);
  const latin1 = (origin: string) => Buffer.from(urlset(origin, ['/html/café']).replace('UTF-8', 'ISO-8859-1'), 'latin1');
  const srv = await startTestServer([
    home,
    [/^\/robots\.txt$/, (_q, res, _m, t) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`Sitemap: ${t.origin}/s16.xml\nSitemap: ${t.origin}/s1.xml\n`)],
    [/^\/s16\.xml$/, (_q, res, _m, t) => xml(res, utf16(t.origin))],
    [/^\/s1\.xml$/, (_q, res, _m, t) => xml(res, latin1(t.origin))],
  ]);
  try {
    const { log } = await crawl(srv);
    assert.equal(log.get('/s16.xml')?.state, 'done', log.get('/s16.xml')?.error ?? undefined);
    assert.equal(log.get('/s1.xml')?.state, 'done', log.get('/s1.xml')?.error ?? undefined);
    assert.equal(srv.hits.get('/html/caf%C3%A9-16'), 1);
    assert.equal(srv.hits.get('/html/caf%C3%A9'), 1, 'é read as é, not as a replacement character');
  } finally {
    await srv.close();
  }
});

test('a service host reached only by probes gets no guessed sitemap, and no discard is counted for one', async () => {
  const caps = readFileSync(new URL('../../../test/fixtures/services/wms-130-geoserver.xml', import.meta.url));
  const partner = await startTestServer([[/^\/ows$/, (_q, res) => xml(res, caps)]], '127.0.0.9');
  const portal = await startTestServer([[/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Portal</title><a href="/html/linked">linked</a> <a href="${partner.origin}/ows?service=WMS&amp;request=GetCapabilities">WMS</a>`)]]);
  try {
    const { stats, log, entries } = await crawl(portal, { detect: ['wms'], allowPrivate: true });
    const fromPartner = entries.filter((e) => e.url.startsWith(partner.origin));
    assert.equal(fromPartner.length, 1, 'nothing of the partner but the probe: ' + fromPartner.map((e) => e.url).join(' '));
    assert.match(fromPartner[0]!.url, /\/ows\?/);
    assert.equal(fromPartner[0]!.state, 'done', 'the endpoint was probed: ' + fromPartner[0]!.error);
    assert.equal(partner.hits.get('/sitemap.xml') ?? 0, 0);
    assert.equal(stats.frontier.discarded, 0, 'no discard that no page wrote');
    assert.equal(log.get('/sitemap.xml')?.state, 'done', "the portal's own sitemap is still guessed");
  } finally {
    await portal.close();
    await partner.close();
  }
});
