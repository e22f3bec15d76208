import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian's cgi-mapserver installs the CGI here; mapserver-bin's copy is on PATH. */
export const MAPSERV = ['/usr/lib/cgi-bin/mapserv', '/usr/bin/mapserv'].find((p) => existsSync(p)) ?? null;
/** The mapfiles; a page may link to `?map=${MAPFILES}retired.map` (MS_MAP_PATTERN allows this folder). */
export const MAPFILES = fileURLToPath(new URL('../../../test/fixtures/mapserver/', import.meta.url));
const FIXTURES = MAPFILES;

export interface MapServerFront {
  origin: string;
  /** Every request path and query the front received, in order. */
  hits: string[];
  /** When each of `hits` arrived (Date.now()). */
  hitTimes: number[];
  close(): Promise<void>;
}

/** A file the front serves: MapServer's answer to `query` (a capabilities document saved as a file), or fixed text. */
export interface FrontDocument {
  /** Query string for the default mapfile, e.g. `SERVICE=WFS&REQUEST=GetCapabilities`. */
  query?: string;
  text?: string;
  /** Content type sent; default `application/xml`. */
  contentType?: string;
}

export interface FrontContent {
  /** path -> HTML */
  pages: Record<string, string>;
  /** path -> file */
  documents?: Record<string, FrontDocument>;
}

/**
 * A small HTTP front on 127.0.0.1 that runs the real MapServer as a CGI for /cgi-bin/mapserv
 * (the fixture mapfile hydro.map by default, also published as OGC API under
 * /cgi-bin/mapserv/hydro/ogcapi; other fixture mapfiles with `map=`)
 * and serves `pages` (path -> HTML) for everything else. `content` may be a function of the
 * front's origin, for pages that print absolute endpoint URLs, and may add documents: files whose
 * body is what MapServer answers to a query (a capabilities document published as a .xml file).
 */
export async function startMapServerFront(content: Record<string, string> | ((origin: string) => FrontContent)): Promise<MapServerFront> {
  if (!MAPSERV) throw new Error('MapServer is not installed: apt-get install cgi-mapserver (.ci/run does)');
  const conf = join(mkdtempSync(join(tmpdir(), 'fc-mapserver-')), 'mapserver.conf');
  const mapfile = join(FIXTURES, 'hydro.map');
  const pattern = '^' + FIXTURES.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '[a-z]+\\.map$';
  writeFileSync(conf, `CONFIG\n  ENV\n    MS_MAPFILE "${mapfile}"\n    MS_MAP_PATTERN "${pattern}"\n  END\n  MAPS\n    "hydro" "${mapfile}"\n  END\nEND\n`);
  const hits: string[] = [];
  const hitTimes: number[] = [];
  let served: FrontContent = { pages: {} };
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    hits.push(url);
    hitTimes.push(Date.now());
    let [path, query = ''] = url.split('?') as [string, string?];
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    const doc = served.documents?.[path];
    if (doc?.text !== undefined) return void res.writeHead(200, { 'content-type': doc.contentType ?? 'application/xml' }).end(doc.text);
    if (doc) [path, query] = ['/cgi-bin/mapserv', doc.query ?? ''];
    if (path === '/cgi-bin/mapserv' || path.startsWith('/cgi-bin/mapserv/')) {
      const { port } = server.address() as AddressInfo;
      const child = spawn(MAPSERV!, [], {
        cwd: FIXTURES,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin', MAPSERVER_CONFIG_FILE: conf, REQUEST_METHOD: 'GET', QUERY_STRING: query,
          SCRIPT_NAME: '/cgi-bin/mapserv', PATH_INFO: path.slice('/cgi-bin/mapserv'.length), SERVER_NAME: '127.0.0.1', SERVER_PORT: String(port),
        },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const out: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.on('close', () => {
        const raw = Buffer.concat(out);
        const split = raw.indexOf('\r\n\r\n') >= 0 ? raw.indexOf('\r\n\r\n') : raw.indexOf('\n\n');
        const sep = raw.indexOf('\r\n\r\n') >= 0 ? 4 : 2;
        const head = raw.subarray(0, Math.max(split, 0)).toString('latin1');
        const headers: Record<string, string> = {};
        let status = 200;
        for (const line of head.split(/\r?\n/)) {
          const i = line.indexOf(':');
          if (i < 0) continue;
          const k = line.slice(0, i).trim().toLowerCase();
          const v = line.slice(i + 1).trim();
          if (k === 'status') status = parseInt(v, 10);
          else headers[k] = v;
        }
        if (doc) headers['content-type'] = doc.contentType ?? 'application/xml';
        res.writeHead(status, headers).end(raw.subarray(split + sep));
      });
      return;
    }
    const page = served.pages[path];
    if (page === undefined) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  served = typeof content === 'function' ? content(origin) : { pages: content };
  return {
    origin,
    hits,
    hitTimes,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
