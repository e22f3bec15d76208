import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { listenOrExplain } from './listen.js';
import { isLoopback } from '../dashboard/access.js';

/**
 * Serves `registry` at /metrics (and nothing else) on host:port; the crawl's --metrics-port.
 * `what` names the port in an error: the library's argument, or the CLI's flag.
 */
export async function serveMetrics(registry: Registry, port: number, host = '127.0.0.1', what = "serveMetrics' port"): Promise<Server> {
  const text = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' };
  // Bound to loopback, the Host header must name loopback too: a web page that rebinds its own
  // name to 127.0.0.1 (DNS rebinding) cannot read the crawl's hosts and counts from a browser.
  // Bound elsewhere, scrapers name the machine as they please.
  const local = isLoopback(host);
  const server = createServer((req, res) => {
    if (local && !isLoopback((req.headers.host ?? '').replace(/:\d+$/, ''))) return void res.writeHead(403, text).end('a loopback metrics server answers requests for a loopback host only\n');
    // A scraper may add a query (?name[]=...): the path alone decides.
    if ((req.url ?? '').split('?')[0] !== '/metrics') return void res.writeHead(404, text).end('only /metrics here\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { ...text, allow: 'GET, HEAD' }).end('only GET /metrics here\n');
    registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': registry.contentType, 'x-content-type-options': 'nosniff' }).end(body),
      (err: Error) => res.writeHead(500, text).end(`metrics failed: ${err.message}\n`),
    );
  });
  server.setTimeout(30_000, (socket) => socket.destroy());
  await listenOrExplain(server, port, host, what, "serveMetrics' host");
  return server;
}
