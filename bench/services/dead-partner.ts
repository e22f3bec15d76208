import { appendFileSync, mkdtempSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCrawl } from '../../src/crawl.js';
import { deadOrigin, silentHost } from '../../test/helpers/hostile-web.js';
import { MAPSERV, startMapServerFront } from '../../test/helpers/mapserver-front.js';

/**
 * bench/services/dead-partner: issue 16's target. A portal on the real MapServer (behind the
 * test CGI front) prints its endpoints in text and links partner services on a host that is
 * dead in one of four ways; the crawl runs with the CLI's defaults (timeouts, retries, 250 ms
 * per-host delay, robots.txt), only allowPrivate set because the partner is another loopback
 * address. Measured: how long the crawl goes on after its last request to the live portal, and
 * how many requests the partner got. Needs MapServer (apt-get install cgi-mapserver).
 *
 *   npm run build && node dist/bench/services/dead-partner.js [--no-record]
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const record = !process.argv.includes('--no-record');
if (!MAPSERV) throw new Error('MapServer is not installed: apt-get install cgi-mapserver');

interface Partner {
  origin: string;
  /** Requests (or connections) the partner received, when it can count them. */
  count: (() => number) | null;
  close(): Promise<void>;
}

/** The four ways a partner host can be dead, each on its own loopback address; the third again with a shorter headers timeout. */
const silent = async (): Promise<Partner> => {
  const h = await silentHost('127.0.0.4');
  return { origin: h.origin, count: h.connections, close: h.close };
};
const PARTNERS: [string, () => Promise<Partner>, { headersTimeoutMs?: number }?][] = [
  ['refuses connections (closed port)', async () => ({ origin: await deadOrigin('127.0.0.2'), count: null, close: async () => {} })],
  ['resets every connection', async () => {
    let n = 0;
    const s = createServer((sock) => {
      n++;
      sock.resetAndDestroy();
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.3', r));
    return { origin: `http://127.0.0.3:${(s.address() as AddressInfo).port}`, count: () => n, close: () => new Promise((r) => s.close(() => r())) };
  }],
  ['accepts and never answers', silent],
  ['accepts and never answers, headersTimeoutMs 3000', silent, { headersTimeoutMs: 3000 }],
  ['answers robots.txt (404), service paths hang', async () => {
    let n = 0;
    const s = createHttpServer((req, res) => {
      n++;
      if (req.url === '/robots.txt') res.writeHead(404).end();
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.5', r));
    return {
      origin: `http://127.0.0.5:${(s.address() as AddressInfo).port}`,
      count: () => n,
      close: () => new Promise((r) => { s.closeAllConnections(); s.close(() => r()); }),
    };
  }],
];

interface Row {
  partner: string;
  requests: number | null;
  tail: number;
  seconds: number;
  valid: number;
  live: number;
  ended: string;
}

async function run(name: string, make: () => Promise<Partner>, extra: { headersTimeoutMs?: number } = {}): Promise<Row> {
  const partner = await make();
  const p = partner.origin;
  const front = await startMapServerFront((o) => ({
    pages: {
      '/': `<html><head><title>Hydrology data portal</title></head><body><a href="/endpoints.html">Service addresses</a> <a href="/partners.html">Partners</a></body></html>`,
      '/endpoints.html': `<html><head><title>Service addresses</title></head><body>
        <code>${o}/cgi-bin/mapserv?SERVICE=WMS&amp;REQUEST=GetCapabilities</code>
        <pre>${o}/cgi-bin/mapserv?service=WFS&amp;request=GetCapabilities</pre>
        <input value="${o}/cgi-bin/mapserv?service=WCS&amp;request=GetCapabilities">
        <p>OGC API: ${o}/cgi-bin/mapserv/hydro/ogcapi/collections?f=json</p></body></html>`,
      '/partners.html': `<html><head><title>Partners</title></head><body>
        ${['WMS', 'WFS', 'WCS'].map((t) => `<a href="${p}/geoserver/ows?service=${t}&amp;request=GetCapabilities">Partner ${t}</a>`).join(' ')}
        <code>${p}/geoserver/ows?service=WMTS&amp;request=GetCapabilities</code> <a href="${p}/about.html">Partner site</a></body></html>`,
    },
  }));
  const db = join(mkdtempSync(join(tmpdir(), 'fc-bench-dead-')), 'c.db');
  try {
    const t0 = Date.now();
    const crawl = await startCrawl({ seeds: [front.origin + '/'], db, allowPrivate: true, detect: ['all'], maxDepth: 3, ...extra });
    await crawl.run();
    const end = Date.now();
    const services = await crawl.services.entries();
    await crawl.close();
    const dead = services.filter((s) => s.endpoint.startsWith(p));
    const reasons = [...new Set(dead.map((s) => (s.reason ?? '').replace(/: .*?(\(\d+ failures in a row\))$/, ' $1').replace(/ \(after.*$/, ' (after retries)')))];
    return {
      partner: name,
      requests: partner.count?.() ?? null,
      tail: (end - Math.max(...front.hitTimes)) / 1000,
      seconds: (end - t0) / 1000,
      valid: services.filter((s) => s.status === 'valid').length,
      live: services.filter((s) => !s.endpoint.startsWith(p)).length,
      ended: `${dead.length} invalid: ${reasons.join('; ')}`,
    };
  } finally {
    await front.close();
    await partner.close();
  }
}

const rows: Row[] = [];
for (const [name, make, extra] of PARTNERS) {
  const r = await run(name, make, extra);
  rows.push(r);
  process.stderr.write(`${name}: ${r.tail.toFixed(1)} s after the last live request\n`);
}
const table = [
  '| partner host | requests it got | crawl end after the last live request | whole crawl | valid services (of the portal\'s 4) | partner endpoints |',
  '|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.partner} | ${r.requests ?? 'not countable'} | ${r.tail.toFixed(1)} s | ${r.seconds.toFixed(1)} s | ${r.valid} / ${r.live} | ${r.ended} |`),
].join('\n');
process.stdout.write(table + '\n');
if (record) {
  appendFileSync(join(repo, 'bench', 'RESULTS.md'), `\n## bench/services dead partner (${new Date().toISOString().slice(0, 10)})\n\n\`npm run build && node dist/bench/services/dead-partner.js\` (MapServer ${MAPSERV}, default timeouts and retries, 250 ms per-host delay)\n\n${table}\n`);
}
