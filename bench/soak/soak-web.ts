import { createServer, type Server } from 'node:http';
import { seededRandom } from '../../src/bench/seeded-random.js';

/**
 * The soak web: `hosts` hosts of `pagesPerHost` pages each, every host its own loopback address
 * (127.0.1.1, 127.0.1.2, ..., 250 a /24) on one port, so the crawl sees that many hosts for
 * politeness and the frontier. Pages are made on request from (host, page): about 2 KB of text,
 * a fifth of them about solar energy, 15 links within the host and 5 to other hosts.
 */
export interface SoakWebOptions {
  hosts: number;
  pagesPerHost: number;
  port: number;
}

const TOPIC = 'solar photovoltaic panel inverter renewable energy battery sunlight module grid'.split(' ');
const OTHER = 'football match league recipe garlic oven travel hotel museum concert election market river bridge garden'.split(' ');
const FILLER = 'the of and to in is that for on with as by this from at are be was an or which has more about new year people first'.split(' ');

export function hostAddress(h: number): string {
  return `127.0.${1 + Math.floor(h / 250)}.${1 + (h % 250)}`;
}

export function pageUrl(o: SoakWebOptions, h: number, p: number): string {
  return `http://${hostAddress(h)}:${o.port}/p/${p}.html`;
}

function page(o: SoakWebOptions, h: number, p: number): string {
  const r = seededRandom(h * 1_000_003 + p * 7 + 1);
  const solar = r() < 0.2;
  const words: string[] = [];
  for (let i = 0; i < 300; i++) {
    const u = r();
    const pool = u < (solar ? 0.2 : 0.01) ? TOPIC : u < 0.35 ? OTHER : FILLER;
    words.push(pool[Math.floor(r() * pool.length)]!);
  }
  const links: string[] = [];
  for (let i = 0; i < 20; i++) {
    const th = i < 15 ? h : Math.floor(r() * o.hosts);
    const tp = Math.floor(r() * o.pagesPerHost);
    const anchor = words[Math.floor(r() * words.length)]!;
    links.push(`<li><a href="${th === h ? `/p/${tp}.html` : pageUrl(o, th, tp)}">${anchor} ${tp}</a></li>`);
  }
  const title = `${solar ? 'solar' : OTHER[p % OTHER.length]} ${h}-${p}`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${words.join(' ')}</p><ul>${links.join('')}</ul></body></html>`;
}

/** Starts one server per host address; returns the request count and a closer. */
export async function serveSoakWeb(o: SoakWebOptions): Promise<{ requests: () => number; firstRequestAfter: (t: number) => Promise<number>; close(): Promise<void> }> {
  let requests = 0;
  let waiters: { after: number; resolve: (t: number) => void }[] = [];
  const servers: Server[] = [];
  for (let h = 0; h < o.hosts; h++) {
    const server = createServer((req, res) => {
      requests++;
      const now = Date.now();
      if (waiters.length) waiters = waiters.filter((w) => (now >= w.after ? (w.resolve(now), false) : true));
      const path = req.url ?? '/';
      if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      const m = /^\/(?:p\/(\d+)\.html)?$/.exec(path);
      const p = m ? Number(m[1] ?? 0) : -1;
      if (p < 0 || p >= o.pagesPerHost) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>not found</title>');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(o, h, p));
    });
    server.keepAliveTimeout = 2000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, hostAddress(h), () => resolve());
    });
    servers.push(server);
  }
  return {
    requests: () => requests,
    firstRequestAfter: (after) => new Promise((resolve) => waiters.push({ after, resolve })),
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); })));
    },
  };
}
