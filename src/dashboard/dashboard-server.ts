import { basename } from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { OpenReader } from '../cli/open-reader.js';
import { listenOrExplain } from '../metrics/listen.js';
import { readerMetrics } from '../metrics/reader-metrics.js';
import { FocusCrawlError } from '../errors.js';
import { allowed, matchingToken, tokenCookie } from './access.js';
import { strictQuery } from './query-params.js';
import { normalizeUrl } from '../parse/normalize-url.js';
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

/** Every response: no MIME sniffing, and no framing by another site (a page could trick a click on a label button). */
// script-src 'self': a crawled string that reaches the page as HTML despite the page's care (a
// library that takes strings as markup, as Leaflet's tooltips do) runs no inline handler.
const SAFE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'; script-src 'self'; object-src 'none'; base-uri 'none'",
};

function json(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  // Before the head: a body that cannot be written (past V8's longest string) is a logged 500, not an empty 200.
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SAFE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra }).end(text);
}

/** The largest label body read; a larger one is answered 413. */
const MAX_BODY = 64 * 1024;
/** Labels kept at most: each is a person's click, and a script posting junk must not grow the database without end. */
const MAX_LABELS = 100_000;

class TooLarge extends Error {}

function readBody(req: IncomingMessage, max = MAX_BODY): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(new TooLarge());
        req.pause();
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
  // The file's name, not its path: a dashboard off loopback shows it to whoever holds the token.
  const label = open.label.startsWith("crawl '") ? open.label : basename(open.label);
  const poller = new SnapshotPoller({ reader: open.reader, label, runningNow: () => open.runningNow(), liveness: () => open.liveness(), truth: o.truth ?? null }, o.intervalMs ?? 1000);
  const metrics = readerMetrics(open.reader);
  const streams = new Set<ServerResponse>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://dashboard');
    if (!allowed(req, url, o.token)) {
      // Without a token the only check is the Host header (DNS rebinding): a proxy or an alias fails it, not a missing token.
      if (o.token === null) {
        res.writeHead(403, { ...SAFE_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end(`focuscrawl serve: this dashboard answers to a loopback address only (127.0.0.1, localhost), not to Host '${String(req.headers.host ?? '').slice(0, 100)}'; behind a proxy or a name of your own, serve it with --host and its token\n`);
        return;
      }
      res.writeHead(401, { ...SAFE_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' }).end('focuscrawl serve: this dashboard needs its token (open the address serve printed)\n');
      return;
    }
    // The first visit carries the token in the address; a cookie carries it from then on (EventSource cannot send headers).
    const cookie = o.token !== null && matchingToken(req, url, o.token)?.fromQuery ? { 'set-cookie': tokenCookie(o.token, req.socket.localPort ?? 0) } : {};
    const path = url.pathname;
    // HEAD is GET without the body (Node's response drops it); any other method is only for the labels.
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (method !== 'GET' && !(method === 'POST' && path === '/api/labels')) {
      return json(res, 405, { error: `${req.method} is not served here` }, { allow: path === '/api/labels' ? 'GET, HEAD, POST' : 'GET, HEAD' });
    }
    // Every query string decoded strictly: a malformed escape is a 400 wherever it is sent.
    const params = strictQuery(url.search);
    // The crawl's file deleted or replaced under serve: its figures are of a file nobody sees now.
    const gone = path.startsWith('/api/') || path === '/metrics' ? open.fileGone() : null;
    if (gone) return json(res, 410, { error: `${gone}: restart focuscrawl serve to show the crawl there now` });
    if (method === 'GET' && path === '/api/snapshot') return json(res, 200, await poller.read());
    if (method === 'GET' && path === '/api/search') {
      const q = (params.get('q') ?? '').trim();
      // An empty search is a mistake to report, not a question whose answer is "nothing".
      if (!q) return json(res, 400, { error: params.has('q') ? 'q is empty: give the words to look for' : 'q is missing: give the words to look for (?q=…)' });
      // Whole hits (1.5 is 1), at most 100; 0, -5 and 'abc' were read as 20 or 1 without a word.
      const given = params.get('limit');
      const wanted = given === undefined ? 20 : Math.floor(Number(given));
      if (!Number.isFinite(wanted) || wanted < 1) return json(res, 400, { error: `limit must be a number of hits, at least 1, not '${String(given).slice(0, 20)}'` });
      const limit = Math.min(100, wanted);
      // The lag says why a page stored a moment ago may not match yet (the embedded index is batched).
      await open.prepareSearch();
      return json(res, 200, { hits: await searchPages(open.reader, q, limit), lag: await open.searchLag() });
    }
    if (method === 'GET' && path === '/api/labels') return json(res, 200, await open.reader.labels());
    if (method === 'POST' && path === '/api/labels') {
      // JSON only: a cross-site form cannot send it without a CORS preflight, which this server never grants.
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') return json(res, 415, { error: 'send application/json' });
      if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) return json(res, 413, { error: `a label is at most ${MAX_BODY} bytes` }, { connection: 'close' });
      let body: unknown = null;
      try {
        body = JSON.parse(await readBody(req));
      } catch (err) {
        if (err instanceof TooLarge) return json(res, 413, { error: `a label is at most ${MAX_BODY} bytes` }, { connection: 'close' });
        // Reported below as a bad body.
      }
      const parsed = labelBody.safeParse(body);
      if (!parsed.success) return json(res, 400, { error: 'expected {"url": string, "relevant": boolean}' });
      // A label names a page of this crawl, as the crawl writes its URL (http://h:1 is http://h:1/):
      // anything else would count as a target nobody can find.
      const labelled = normalizeUrl(parsed.data.url) ?? parsed.data.url;
      const stored = await open.reader.anchorPaths([labelled], 1);
      if (!stored[labelled]) return json(res, 404, { error: 'no stored page has this URL' });
      if ((await open.reader.labels()).length >= MAX_LABELS) return json(res, 409, { error: `this crawl has ${MAX_LABELS} labels, the most kept` });
      await open.labels().label(labelled, parsed.data.relevant);
      return json(res, 200, { ok: true, url: labelled, relevant: parsed.data.relevant });
    }
    if (method === 'GET' && path === '/api/events') {
      res.writeHead(200, { ...SAFE_HEADERS, 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      // HEAD asks for the headers alone: a stream it never reads would hold the connection.
      if (req.method === 'HEAD') return void res.end();
      streams.add(res);
      const send = (s: unknown) => {
        const gone = open.fileGone();
        // Said once on the stream, which then ends: the page shows it instead of freezing.
        if (gone) return void res.end(`event: gone\ndata: ${JSON.stringify(`${gone}: restart focuscrawl serve to show the crawl there now`)}\n\n`);
        res.write(`event: snapshot\ndata: ${JSON.stringify(s)}\n\n`);
      };
      send(await poller.read());
      const off = poller.subscribe(send);
      // A comment line now and then: a big crawl's snapshot can take longer than the idle timeout.
      const beat = setInterval(() => res.write(': keepalive\n\n'), 15_000);
      req.on('close', () => {
        clearInterval(beat);
        off();
        streams.delete(res);
      });
      return;
    }
    if (method === 'GET' && path === '/metrics') {
      res.writeHead(200, { ...SAFE_HEADERS, 'content-type': metrics.contentType }).end(await metrics.metrics());
      return;
    }
    const file = dashboardFile(path);
    if (!file) return json(res, 404, { error: `no ${req.method} ${path}` });
    res.writeHead(200, { ...SAFE_HEADERS, 'content-type': file.type, ...cookie }).end(file.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (res.headersSent) return void res.end();
      // The request's fault (a malformed %-escape in the path or the query, a search with no words) is a 400 that says why;
      // anything else is this server's, logged here and not described to the client.
      if (err instanceof URIError) return json(res, 400, { error: 'malformed percent-encoding in the address' });
      if (err instanceof FocusCrawlError && err.code === 'USAGE') return json(res, 400, { error: err.message });
      process.stderr.write(`focuscrawl serve: ${req.method} ${req.url}: ${err.stack ?? err.message}\n`);
      json(res, 500, { error: 'internal error (see the server log)' });
    });
  });
  // Connections that send nothing are closed (open ones cost a file handle each: enough of them
  // would shut out everyone); event streams write every second and are not idle.
  server.setTimeout(30_000, (socket) => socket.destroy());
  server.maxConnections = 2_000;
  await listenOrExplain(server, o.port, o.host, '--port');
  const port = (server.address() as AddressInfo).port;
  // Bound to every address, the address to open is this machine's own (the wildcard opens nothing).
  const shown = o.host === '::' ? '[::1]' : o.host.includes(':') ? `[${o.host}]` : o.host === '0.0.0.0' ? '127.0.0.1' : o.host;
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
