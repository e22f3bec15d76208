import { after, before } from 'node:test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChainSite {
  origin: string;
  /** Every page URL of the site, the root first. */
  pages: string[];
  close(): Promise<void>;
}

/**
 * `n` pages on `host` (any 127.0.0.x: a private address a crawl fetches only when a seed or
 * --hosts names it), each linking the next: a small budget leaves the rest waiting.
 * robots.txt and sitemap.xml answer 404.
 */
export async function serveChainSite(host: string, n: number): Promise<ChainSite> {
  const server = createServer((req, res) => {
    const m = /^\/(\d*)$/.exec(req.url ?? '');
    const i = m ? Number(m[1] || 0) : -1;
    if (i < 0 || i >= n) return void res.writeHead(404).end();
    const next = i + 1 < n ? `<a href="/${i + 1}">page ${i + 1}</a>` : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<title>${host} page ${i}</title><p>solar inverter page ${i}</p>${next}`);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    pages: Array.from({ length: n }, (_, i) => `${origin}/${i ? i : ''}`),
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/**
 * Two chain sites, 6 pages on 127.0.0.2 and 3 on 127.0.0.3, started before the file's tests and
 * closed after them (node:test hooks registered here): read `sites.a` and `sites.b` in a test.
 */
export function twoChainSites(): { a: ChainSite; b: ChainSite } {
  const sites = {} as { a: ChainSite; b: ChainSite };
  before(async () => {
    sites.a = await serveChainSite('127.0.0.2', 6);
    sites.b = await serveChainSite('127.0.0.3', 3);
  });
  after(async () => {
    await sites.a.close();
    await sites.b.close();
  });
  return sites;
}
