import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { crawlToEnd, html } from '../helpers/hostile-web.js';
import { startTestServer } from '../helpers/misbehaving-server.js';
import { MAX_FOLLOW_UP_PAGES } from '../../src/engine/service-probing.js';

/**
 * OGC API servers that page their collections (OGC API - Common part 2: `next` links). A real
 * HTTP server on loopback answers like pygeoapi or ldproxy with `limit`/`offset` pages; the crawl
 * follows the JSON `next` links through the frontier, at most MAX_FOLLOW_UP_PAGES pages.
 */

const json = (res: ServerResponse, body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const landing = (base: string) => ({
  title: `${base} API`,
  links: [
    { rel: 'conformance', href: `${base}/conformance?f=json`, type: 'application/json' },
    { rel: 'data', href: `${base}/collections?f=json`, type: 'application/json' },
  ],
  conformsTo: ['http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core', 'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core'],
});

test('OGC API collections: next links are followed page by page, layers kept in order, at most 20 pages', async () => {
  const PER_PAGE = 3;
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('Data', ['/big/ogcapi/collections?f=html', '/small/ogcapi?f=html', '/loop/ogcapi?f=html']))],
    [/^\/(big|small|loop)\/ogcapi$/, (_q, res, m) => json(res, landing(`/${m[1]}/ogcapi`))],
    [/^\/(big|small|loop)\/ogcapi\/collections$/, (q, res, m) => {
      const offset = Number(new URL(q.url!, 'http://x').searchParams.get('offset') ?? 0);
      const pages = m[1] === 'big' ? 25 : 2;
      const k = offset / PER_PAGE;
      const next = `/${m[1]}/ogcapi/collections?f=json&offset=${m[1] === 'loop' ? 0 : offset + PER_PAGE}`;
      json(res, {
        collections: Array.from({ length: PER_PAGE }, (_x, i) => ({ id: `c${k}-${i}`, title: `Collection ${k}.${i}`, extent: { spatial: { bbox: [[100, 20, 125, 40]] } } })),
        // The HTML alternate is listed first: the JSON one must be taken.
        links: k + 1 < pages
          ? [{ rel: 'next', href: next.replace('f=json', 'f=html'), type: 'text/html' }, { rel: 'next', href: next, type: 'application/geo+json' }]
          : [],
      });
    }],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [srv.origin + '/'], detect: ['ogcapi'] });
    assert.equal(r.summary.reason, 'exhausted');
    const entry = (name: string) => r.services.find((s) => s.endpoint === `${srv.origin}/${name}/ogcapi`)!;
    // The link on the home page is also followed as a page (a path hint, docs/services.md): not a collections request.
    const asked = (name: string) => [...srv.hits.keys()].filter((k) => k.startsWith(`/${name}/ogcapi/collections?f=json`));

    const big = entry('big');
    assert.equal(big.status, 'valid');
    assert.equal(asked('big').length, MAX_FOLLOW_UP_PAGES, 'the first page and 19 next pages');
    assert.ok(!srv.hits.has(`/big/ogcapi/collections?f=json&offset=${MAX_FOLLOW_UP_PAGES * PER_PAGE}`), 'page 21 is never asked for');
    assert.ok(![...srv.hits.keys()].some((k) => k.includes('f=html') && k.includes('offset')), 'only JSON next links');
    assert.equal(big.layers.length, MAX_FOLLOW_UP_PAGES * PER_PAGE);
    assert.deepEqual(big.layers.slice(0, 4).map((l) => l.name), ['c0-0', 'c0-1', 'c0-2', 'c1-0']);
    assert.equal(big.layers.at(-1)!.name, `c${MAX_FOLLOW_UP_PAGES - 1}-2`);
    assert.deepEqual(big.layers[5]!.wgs84, [100, 20, 125, 40]);

    const small = entry('small');
    assert.deepEqual(small.layers.map((l) => l.name), ['c0-0', 'c0-1', 'c0-2', 'c1-0', 'c1-1', 'c1-2'], 'a last page without next ends it');
    assert.equal(asked('small').length, 2);

    // A next link back to the first page under another URL (offset=0 added): asked once, its
    // layers not listed twice, and its own next link, that same URL, is not asked again.
    assert.deepEqual(entry('loop').layers.map((l) => l.name), ['c0-0', 'c0-1', 'c0-2']);
    assert.deepEqual(asked('loop'), ['/loop/ogcapi/collections?f=json', '/loop/ogcapi/collections?f=json&offset=0']);
    for (const [k, n] of srv.hits) assert.equal(n, 1, k);
  } finally {
    await srv.close();
  }
});

test('OGC API follow-ups stay on the endpoint\'s host and pass --deny, like probes', async () => {
  const other = await startTestServer([[/^\/offhost\//, (_q, res) => json(res, { collections: [{ id: 'stolen' }] })]], '127.0.0.22');
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('Data', ['/a/ogcapi?f=html', '/b/ogcapi?f=html']))],
    [/^\/(a|b)\/ogcapi$/, (_q, res, m) => json(res, landing(`/${m[1]}/ogcapi`))],
    [/^\/(a|b)\/ogcapi\/collections$/, (q, res, m) => {
      const first = !q.url!.includes('page=2');
      const next = m[1] === 'a' ? `${other.origin}/offhost/collections?f=json` : `/b/ogcapi/collections?f=json&page=2&secret=1`;
      json(res, { collections: [{ id: `${m[1]}-${first ? 1 : 2}` }], links: first ? [{ rel: 'next', href: next, type: 'application/json' }] : [] });
    }],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [srv.origin + '/'], detect: ['ogcapi'], scope: 'any', allowPrivate: true, deny: ['secret='] });
    assert.deepEqual(r.services.find((s) => s.endpoint === `${srv.origin}/a/ogcapi`)!.layers.map((l) => l.name), ['a-1']);
    assert.deepEqual(r.services.find((s) => s.endpoint === `${srv.origin}/b/ogcapi`)!.layers.map((l) => l.name), ['b-1']);
    assert.equal([...other.hits.keys()].filter((k) => k.startsWith('/offhost')).length, 0, 'no request off the endpoint\'s host');
    assert.ok(![...srv.hits.keys()].some((k) => k.includes('secret=')), 'no request --deny refuses');
  } finally {
    await srv.close();
    await other.close();
  }
});

test('an OGC API landing page whose conformance declaration is missing or empty is invalid, with the reason', async () => {
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('Data', ['/gone/ogcapi?f=html', '/empty/ogcapi?f=html']))],
    [/^\/(gone|empty)\/ogcapi$/, (_q, res, m) => json(res, { title: m[1], links: [{ rel: 'conformance', href: `/${m[1]}/ogcapi/conformance?f=json` }] })],
    [/^\/empty\/ogcapi\/conformance$/, (_q, res) => json(res, { conformsTo: [] })],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [srv.origin + '/'], detect: ['ogcapi'], retries: 0 });
    const entry = (name: string) => r.services.find((s) => s.endpoint === `${srv.origin}/${name}/ogcapi`)!;
    assert.deepEqual([entry('gone').status, entry('gone').title], ['invalid', 'gone']);
    assert.match(entry('gone').reason ?? '', /^conformance declaration: HTTP 404/);
    assert.deepEqual([entry('empty').status, entry('empty').reason], ['invalid', 'conformance declaration: no conformance class']);
    assert.equal(r.summary.stats.services.valid, 0);
  } finally {
    await srv.close();
  }
});

test('an OGC API linked by its collections as JSON (collections?f=json) is probed, not fetched as a page: its layers are read', async () => {
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('Data', ['/api/ogcapi/collections?f=json']))],
    [/^\/api\/ogcapi$/, (_q, res) => json(res, landing('/api/ogcapi'))],
    [/^\/api\/ogcapi\/conformance$/, (_q, res) => json(res, { conformsTo: ['http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core'] })],
    [/^\/api\/ogcapi\/collections$/, (_q, res) => json(res, { collections: [{ id: 'roads' }, { id: 'rivers' }], links: [] })],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [srv.origin + '/'], detect: ['ogcapi'] });
    const entry = r.services.find((s) => s.endpoint === `${srv.origin}/api/ogcapi`)!;
    assert.equal(entry.status, 'valid');
    assert.deepEqual(entry.layers.map((l) => l.name), ['roads', 'rivers']);
    assert.equal(srv.hits.get('/api/ogcapi/collections?f=json'), 1, 'asked once, by the probe');
  } finally {
    await srv.close();
  }
});

test('a probe the filters refuse (too long, --deny), linked or written in text, is a discard with its reason, never a request', async () => {
  const long = `/long/wms?SERVICE=WMS&REQUEST=GetCapabilities&pad=${'x'.repeat(300)}`;
  const page = `<!doctype html><title>Maps</title><a href="/denied/wms?SERVICE=WMS&amp;REQUEST=GetCapabilities">WMS</a>
    <pre>%ORIGIN%${long.replace(/&/g, '&amp;')}</pre>`;
  const srv = await startTestServer([[/^\/$/, (q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page.replace('%ORIGIN%', `http://${q.headers.host}`))]]);
  try {
    const r = await crawlToEnd({ seeds: [srv.origin + '/'], detect: ['wms'], allowPrivate: true, deny: ['/denied/'], maxUrlLength: 200 });
    assert.deepEqual([...srv.hits.keys()].filter((k) => k !== '/' && k !== '/robots.txt'), [], 'no probe was sent');
    // The probe asks the endpoint's own capabilities request (its parameters in the probe's order).
    assert.deepEqual(r.entries.filter((e) => e.url.startsWith(`${srv.origin}/long/wms?`)).map((e) => e.error), ['out of scope (longer than 200 characters)']);
    assert.equal(r.log.get(`${srv.origin}/denied/wms?SERVICE=WMS&REQUEST=GetCapabilities`)?.error, 'out of scope (deny)');
    assert.equal(r.summary.stats.discarded, 2);
    assert.deepEqual(r.services, [], 'no source row for an endpoint never probed');
  } finally {
    await srv.close();
  }
});
