import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { FocusCrawlError } from '../errors.js';
import type { WebSpec } from './topical-web.js';

/** Serves a written web: host k's folder DIR/h<k> on 127.0.0.1:(basePort + k). */
export async function serveWeb(dir: string, spec: WebSpec): Promise<{ close(): Promise<void> }> {
  const servers: Server[] = [];
  for (let h = 0; h < spec.hosts; h++) {
    const root = join(dir, `h${h}`);
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      const file = normalize(join(root, path === '/' ? 'index.html' : path));
      if (!file.startsWith(root)) return void res.writeHead(404).end();
      readFile(file).then(
        (body) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body),
        () => res.writeHead(404, { 'content-type': 'text/html' }).end('<title>not found</title>'),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err) => reject(new FocusCrawlError('IO', `cannot serve host ${h} on 127.0.0.1:${spec.basePort + h}: ${(err as Error).message}`)));
      server.listen(spec.basePort + h, '127.0.0.1', () => resolve());
    }).catch(async (err) => {
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      throw err;
    });
    servers.push(server);
  }
  return {
    close: () => Promise.all(servers.map((s) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); }))).then(() => undefined),
  };
}
