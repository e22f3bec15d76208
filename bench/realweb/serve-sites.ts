import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { pageFile } from './built-site.js';

export interface ServedSite {
  origin: string;
  close(): Promise<void>;
}

const PAGE = /^\/p\/[0-9a-f]{10}\.html$/;

/**
 * Serves one built site on 127.0.0.1 (port 0: any free port). `page(file)` returns a page's bytes
 * (a folder of files, or pages kept in memory for the test slice). A GBK site is sent as
 * `text/html` with no charset, so the crawler has only the page's <meta> to go by.
 */
export async function serveBuiltSite(o: { port: number; encoding: 'utf-8' | 'gbk'; page: (file: string) => Promise<Buffer | null> }): Promise<ServedSite> {
  const type = o.encoding === 'gbk' ? 'text/html' : 'text/html; charset=utf-8';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (path !== '/' && !PAGE.test(path)) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    o.page(pageFile(path)).then(
      (body) => (body ? res.writeHead(200, { 'content-type': type }).end(body) : res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>')),
      () => res.writeHead(500).end(),
    );
  });
  server.keepAliveTimeout = 30_000;
  // Links are root-relative, so another loopback address (FOCUSCRAWL_BENCH_HOST) serves the same web
  // beside a run that holds the ports on 127.0.0.1.
  const host = process.env.FOCUSCRAWL_BENCH_HOST ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new Error(`cannot serve on ${host}:${o.port}: ${(err as Error).message}`)));
    server.listen(o.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A built site's folder of pages (out/<site>/pages). */
export const folderPages = (dir: string) => (file: string) => readFile(join(dir, file)).catch(() => null);
