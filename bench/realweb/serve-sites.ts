import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { pageFile } from './built-site.js';
import type { SiteEncoding } from './manifest.js';

export interface ServedSite {
  origin: string;
  close(): Promise<void>;
}

const PAGE = /^\/p\/[0-9a-f]{10}\.html$/;

/**
 * Serves one built site on 127.0.0.1 (port 0: any free port). `page(file)` returns a page's bytes
 * (a folder of files, or pages kept in memory for the test slice). A GBK or Big5 site is sent as
 * `text/html` with no charset, so the crawler has only the page's <meta> to go by.
 */
export async function serveBuiltSite(o: { port: number; encoding: SiteEncoding; page: (file: string) => Promise<Buffer | null> }): Promise<ServedSite> {
  const type = o.encoding === 'utf-8' ? 'text/html; charset=utf-8' : 'text/html';
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
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  try {
    await listen(o.port);
  } catch (err) {
    // Another run of the bench holds the port: any free one will do, since only paths are graded.
    if (o.port === 0 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw new Error(`cannot serve on 127.0.0.1:${o.port}: ${(err as Error).message}`);
    process.stderr.write(`realweb: port ${o.port} is in use; serving on a free port instead\n`);
    await listen(0);
  }
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A built site's folder of pages (out/<site>/pages). */
export const folderPages = (dir: string) => (file: string) => readFile(join(dir, file)).catch(() => null);
