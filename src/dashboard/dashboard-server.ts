import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { OpenReader } from '../cli/open-reader.js';
import { listenOrExplain } from '../metrics/listen.js';
import { readerMetrics } from '../metrics/reader-metrics.js';
import { allowed, requestToken } from './access.js';
import { searchPages } from './read-snapshot.js';
import { SnapshotPoller } from './snapshot-poller.js';
import { checkDashboardFiles, dashboardFile } from './static-files.js';
import type { TruthList } from './truth-file.js';

export interface DashboardOptions {
  host: string;
  port: number;
  /** Required of every request when set (see access.ts). */
  token: string | null;
  /** Seconds between pushed snapshots (1 by default). */
  intervalMs?: number;
  /** Ground truth for the recall chart (--truth). */
  truth?: TruthList | null;
}

export interface RunningDashboard {
  server: Server;
  /** The address to open (with the token when one is required). */
  url: string;
  close(): Promise<void>;
}

const labelBody = z.object({ url: z.string().min(1).max(8192), relevant: z.boolean() });

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage, max = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The dashboard's HTTP server: the built front end, a JSON API over the CrawlReader, snapshots
 * pushed by server-sent events, the label button's POST, and /metrics. No SQL here: everything
 * goes through `open.reader` and `open.labels()`.
 */
export async function startDashboard(open: OpenReader, o: DashboardOptions): Promise<RunningDashboard> {
  checkDashboardFiles();
  const poller = new SnapshotPoller({ reader: open.reader, label: open.label, runningNow: () => open.runningNow(), truth: o.truth ?? null }, o.intervalMs ?? 1000);
  const metrics = readerMetrics(open.reader);
  const streams = new Set<ServerResponse>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://dashboard');
    if (!allowed(req, url, o.token)) {
      res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' }).end('focuscrawl serve: this dashboard needs its token (open the address serve printed)\n');
      return;
    }
    // The first visit carries the token in the address; a cookie carries it from then on (EventSource cannot send headers).
    const cookie = o.token !== null && requestToken(req, url).fromQuery ? { 'set-cookie': `focuscrawl_token=${encodeURIComponent(o.token)}; HttpOnly; SameSite=Strict; Path=/` } : {};
    const path = url.pathname;
    if (req.method === 'GET' && path === '/api/snapshot') return json(res, 200, await poller.read());
    if (req.method === 'GET' && path === '/api/search') {
      const q = (url.searchParams.get('q') ?? '').trim();
      const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 20) || 20));
      // The lag says why a page stored a moment ago may not match yet (the embedded index is batched).
      return json(res, 200, { hits: q ? await searchPages(open.reader, q, limit) : [], lag: await open.searchLag() });
    }
    if (req.method === 'GET' && path === '/api/labels') return json(res, 200, await open.reader.labels());
    if (req.method === 'POST' && path === '/api/labels') {
      // JSON only: a cross-site form cannot send it without a CORS preflight, which this server never grants.
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return json(res, 415, { error: 'send application/json' });
      let body: unknown = null;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        // Reported below as a bad body.
      }
      const parsed = labelBody.safeParse(body);
      if (!parsed.success) return json(res, 400, { error: 'expected {"url": string, "relevant": boolean}' });
      await open.labels().label(parsed.data.url, parsed.data.relevant);
      return json(res, 200, { ok: true, ...parsed.data });
    }
    if (req.method === 'GET' && path === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      streams.add(res);
      const send = (s: unknown) => res.write(`event: snapshot\ndata: ${JSON.stringify(s)}\n\n`);
      send(await poller.read());
      const off = poller.subscribe(send);
      req.on('close', () => {
        off();
        streams.delete(res);
      });
      return;
    }
    if (req.method === 'GET' && path === '/metrics') {
      res.writeHead(200, { 'content-type': metrics.contentType }).end(await metrics.metrics());
      return;
    }
    const file = req.method === 'GET' ? dashboardFile(path) : null;
    if (!file) return json(res, 404, { error: `no ${req.method} ${path}` });
    res.writeHead(200, { 'content-type': file.type, ...cookie }).end(file.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (res.headersSent) res.end();
      else json(res, 500, { error: err.message });
    });
  });
  await listenOrExplain(server, o.port, o.host, '--port');
  const port = (server.address() as AddressInfo).port;
  const shown = o.host.includes(':') ? `[${o.host}]` : o.host === '0.0.0.0' ? '127.0.0.1' : o.host;
  return {
    server,
    url: `http://${shown}:${port}/${o.token !== null ? `?token=${encodeURIComponent(o.token)}` : ''}`,
    close: () => {
      poller.stop();
      for (const s of streams) s.end();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
