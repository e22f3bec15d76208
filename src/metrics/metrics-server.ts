import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { listenOrExplain } from './listen.js';

/** Serves `registry` at /metrics (and nothing else) on host:port; the crawl's --metrics-port. */
export async function serveMetrics(registry: Registry, port: number, host = '127.0.0.1'): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end('only /metrics here\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: Error) => res.writeHead(500).end(`metrics failed: ${err.message}\n`),
    );
  });
  await listenOrExplain(server, port, host, '--metrics-port');
  return server;
}
