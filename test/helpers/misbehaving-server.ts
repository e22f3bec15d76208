import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib';
import iconv from 'iconv-lite';

/**
 * A real HTTP server on 127.0.0.1 with named misbehaviour routes, in the manner of Scrapy's
 * mockserver. Every request is counted per path, so tests can assert what was fetched.
 */
export interface TestServer {
  origin: string;
  hits: Map<string, number>;
  /** robots.txt body, or a status code to answer /robots.txt with. */
  robots: string | number;
  close(): Promise<void>;
}

const page = (title: string, body: string, head = '') =>
  `<!DOCTYPE html><html><head>${head}<title>${title}</title></head><body>${body}</body></html>`;

export const GBK_TEXT = '太阳能光伏发电是一种可再生能源';
export const BIG5_TEXT = '太陽能光伏發電是一種可再生能源';

type Handler = (req: IncomingMessage, res: ServerResponse, m: RegExpExecArray, t: TestServer) => void;

/** Answers 200 at once, then sends the body one byte every `ms` until the client goes away. */
export function drip(ms: number): Handler {
  return (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).flushHeaders();
    const body = page('drip', 'x'.repeat(100_000));
    let i = 0;
    const t = setInterval(() => res.write(body[i++ % body.length]!), ms);
    res.on('close', () => clearInterval(t));
  };
}

const routes: [RegExp, Handler][] = [
  [/^\/robots\.txt$/, (_q, res, _m, t) => {
    if (typeof t.robots === 'number') res.writeHead(t.robots).end('robots error');
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(t.robots);
  }],
  [/^\/html\/(\w+)$/, (_q, res, m) => res.writeHead(200, { 'content-type': 'text/html' }).end(page(`Page ${m[1]}`, `<p>solar page ${m[1]}</p>`))],
  [/^\/status\/(\d+)$/, (_q, res, m) => res.writeHead(Number(m[1]), { 'content-type': 'text/html' }).end(page('status', 'status page'))],
  [/^\/delay\/(\d+)$/, (_q, res, m) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(page('slow', 'slow')), Number(m[1]));
  }],
  [/^\/drop$/, (req) => req.socket.destroy()],
  [/^\/hang$/, () => { /* never answers */ }],
  [/^\/drip\/\w+$/, drip(100)],
  [/^\/redirect\/(\d+)$/, (_q, res, m) => {
    const n = Number(m[1]);
    res.writeHead(302, { location: n > 0 ? `/redirect/${n - 1}` : '/html/landed' }).end();
  }],
  [/^\/loop\/(a|b)$/, (_q, res, m) => res.writeHead(301, { location: m[1] === 'a' ? '/loop/b' : '/loop/a' }).end()],
  [/^\/gzip$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(page('Gzipped', '<p>compressed gzip body</p>')))],
  [/^\/deflate$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'deflate' }).end(deflateSync(page('Deflated', '<p>compressed deflate body</p>')))],
  [/^\/br$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' }).end(brotliCompressSync(page('Brotli', '<p>compressed brotli body</p>')))],
  [/^\/bomb$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(bomb())],
  [/^\/gbk$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(iconv.encode(page(GBK_TEXT, `<p>${GBK_TEXT}</p>`, '<meta charset="gbk">'), 'gbk'))],
  [/^\/gbk-header$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html; charset=GBK' }).end(iconv.encode(page(GBK_TEXT, `<p>${GBK_TEXT}</p>`), 'gbk'))],
  [/^\/big5$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(iconv.encode(page(BIG5_TEXT, `<p>${BIG5_TEXT}</p>`, '<meta http-equiv="Content-Type" content="text/html; charset=big5">'), 'big5'))],
  [/^\/pdf$/, (_q, res) => res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '5000' }).end(Buffer.alloc(5000, 1))],
  [/^\/big$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50_000_000) }).end()],
  [/^\/endless$/, (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => { while (res.write(chunk)) { /* fill */ } };
    res.on('drain', pump);
    res.on('close', () => res.off('drain', pump));
    pump();
  }],
  // A spider trap: every page links one level deeper, forever.
  [/^\/trap((?:\/\d+)*)$/, (_q, res, m) => {
    const here = '/trap' + m[1];
    // Each page names its path: identical pages would be cut earlier, as copies of their parent.
    res.writeHead(200, { 'content-type': 'text/html' }).end(page(`trap ${here}`, `<a href="${here}/1">deeper</a> <a href="${here}/2">deeper</a>`));
  }],
  // 503 with Retry-After: 1 for the first two requests per path suffix, then 200.
  [/^\/flaky\/(\w+)$/, (q, res, _m, t) => {
    const n = t.hits.get(q.url!) ?? 0;
    if (n <= 2) res.writeHead(503, { 'retry-after': '0' }).end('busy');
    else res.writeHead(200, { 'content-type': 'text/html' }).end(page('recovered', 'finally'));
  }],
  [/^\/reset-once$/, (q, res, _m, t) => {
    if ((t.hits.get(q.url!) ?? 0) <= 1) q.socket.destroy();
    else res.writeHead(200, { 'content-type': 'text/html' }).end(page('after reset', 'ok'));
  }],
];

let bombCache: Buffer | null = null;
/** 200 MB of zeros gzipped to about 200 KB. */
function bomb(): Buffer {
  bombCache ??= gzipSync(Buffer.alloc(200 * 1024 * 1024), { level: 9 });
  return bombCache;
}

/** Starts the server with an optional extra route table consulted first, on 127.0.0.1 or another loopback address. */
export async function startTestServer(extra: [RegExp, Handler][] = [], address = '127.0.0.1'): Promise<TestServer> {
  const t: TestServer = { origin: '', hits: new Map(), robots: 'User-agent: *\nDisallow: /private/\n', close: async () => {} };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    t.hits.set(req.url!, (t.hits.get(req.url!) ?? 0) + 1);
    for (const [re, h] of [...extra, ...routes]) {
      const m = re.exec(path);
      if (m) return h(req, res, m, t);
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end(page('not found', 'nothing here'));
  });
  await new Promise<void>((r) => server.listen(0, address, r));
  t.origin = `http://${address}:${(server.address() as AddressInfo).port}`;
  t.close = () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); });
  return t;
}

export type { Handler };
