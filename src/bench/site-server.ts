import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderPage, type SiteSpec } from './generated-site.js';

export interface RunningSite {
  server: Server;
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves a generated site on 127.0.0.1 (port 0 picks a free one). With `prerender`, every page
 * is rendered once up front so that serving costs as little CPU as possible (benchmarks).
 */
export async function serveSite(spec: SiteSpec, opts: { port?: number; prerender?: boolean } = {}): Promise<RunningSite> {
  const cache: (Buffer | undefined)[] = [];
  if (opts.prerender) for (let i = 0; i < spec.pages; i++) cache[i] = Buffer.from(renderPage(spec, i)!);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      return;
    }
    const m = path === '/' ? ['', '0'] : /^\/p\/(\d+)$/.exec(path);
    const i = m ? Number(m[1]) : -1;
    const body = cache[i] ?? (i >= 0 ? renderPage(spec, i) : null);
    if (body === null || body === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
