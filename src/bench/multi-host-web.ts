import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it: when it arrived and when its answer was sent (ms, one clock). */
export interface ServedRequest {
  host: string;
  path: string;
  /** When the handler ran: at or after the request arrived. */
  start: number;
  /**
   * Taken just before the answer is written: at or before the crawler can have it. Taken after
   * the write, a pause of this process (its collector) between the two moved it later than the
   * answer was sent, and a request made the delay after the answer looked early.
   */
  end: number;
}

export interface MultiHostWebSpec {
  hosts: number;
  pagesPerHost: number;
  /** Links per page to pages of the same host (besides the next page, which every page links). Default 6. */
  localLinks?: number;
  /** Links per page to other hosts' pages. Default 2. */
  crossLinks?: number;
  /** How long each answer takes (ms): so that requests overlap and politeness is visible. Default 0. */
  latencyMs?: number;
  /** Words of text per page. Default 150. */
  words?: number;
}

export interface MultiHostWeb {
  /** host:port of every host, in order. */
  hosts: string[];
  /** The root URL of every host (the seeds). */
  roots: string[];
  /** Every page URL of the web: all reachable from any root. */
  pages(): string[];
  /** Every request served so far, in arrival order. */
  log: ServedRequest[];
  close(): Promise<void>;
}

const WORDS = 'crawler frontier politeness worker redis postgres fingerprint lease shard queue host delay page link anchor topic harvest recall'.split(' ');

/** Deterministic small integers from (a, b, c): the same page always has the same links. */
function mix(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35) ^ Math.imul(c + 0x27d4eb2f, 0x165667b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}

/**
 * A web of many hosts on 127.0.0.1 (one port each), for the scale-out tests and bench/distributed:
 * every page links the next page of its host (so every page is reachable from its root), a few
 * other pages of the host and a few pages of other hosts. Every request is logged with its
 * arrival and answer times, so a test can check the per-host delay and concurrency afterwards.
 */
export async function serveMultiHostWeb(spec: MultiHostWebSpec): Promise<MultiHostWeb> {
  const local = spec.localLinks ?? 6;
  const cross = spec.crossLinks ?? 2;
  const words = spec.words ?? 150;
  const servers: Server[] = [];
  const hosts: string[] = [];
  const log: ServedRequest[] = [];
  // Page 0 is the root, linked as / (so that it has one URL).
  const path = (i: number) => (i === 0 ? '/' : `/p/${i}`);
  const page = (h: number, i: number): string => {
    const links: string[] = [];
    if (i + 1 < spec.pagesPerHost) links.push(path(i + 1));
    for (let k = 0; k < local; k++) links.push(path(mix(h, i, k) % spec.pagesPerHost));
    for (let k = 0; k < cross; k++) {
      const other = mix(i, h, 100 + k) % spec.hosts;
      links.push(`http://${hosts[other]}${path(mix(other, i, 200 + k) % spec.pagesPerHost)}`);
    }
    const text: string[] = [];
    for (let k = 0; k < words; k++) text.push(WORDS[mix(h, i, 1000 + k) % WORDS.length]!);
    return `<!doctype html><html><head><meta charset="utf-8"><title>Host ${h} page ${i}</title></head><body><h1>Host ${h} page ${i}</h1><p>${text.join(' ')}</p>${links.map((l, k) => `<a href="${l}">link ${k}</a>`).join(' ')}</body></html>`;
  };
  for (let h = 0; h < spec.hosts; h++) {
    const server = createServer((req, res) => {
      const start = performance.timeOrigin + performance.now();
      const asked = (req.url ?? '/').split('?')[0]!;
      const answer = () => {
        const m = asked === '/' ? ['', '0'] : /^\/p\/([1-9]\d*)$/.exec(asked);
        const i = m ? Number(m[1]) : -1;
        const body = i >= 0 && i < spec.pagesPerHost ? page(h, i) : null;
        log.push({ host: hosts[h]!, path: asked, start, end: performance.timeOrigin + performance.now() });
        if (body !== null) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
        else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      };
      if (spec.latencyMs) setTimeout(answer, spec.latencyMs);
      else answer();
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    hosts.push(`127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  return {
    hosts,
    roots: hosts.map((h) => `http://${h}/`),
    pages: () => hosts.flatMap((h) => Array.from({ length: spec.pagesPerHost }, (_, i) => (i === 0 ? `http://${h}/` : `http://${h}/p/${i}`))),
    log,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      })));
    },
  };
}

/**
 * Checks a request log against per-host politeness: at most `perHost` requests of a host in flight
 * at once, and with `perHost` 1, at least `delayMs` from one answer to the next request. Returns
 * the violations found (empty when the limits held). `slackMs` absorbs the timer granularity.
 */
export function politenessViolations(log: ServedRequest[], perHost: number, delayMs: number, slackMs = 2): string[] {
  const byHost = new Map<string, ServedRequest[]>();
  for (const r of log) {
    // robots.txt is read by each worker's robots cache before the host's first request, outside the frontier's schedule.
    if (r.path === '/robots.txt') continue;
    const list = byHost.get(r.host) ?? [];
    list.push(r);
    byHost.set(r.host, list);
  }
  const out: string[] = [];
  for (const [host, list] of byHost) {
    list.sort((a, b) => a.start - b.start);
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!;
      const overlapping = list.filter((o) => o !== r && o.start <= r.start && o.end > r.start + slackMs).length;
      if (overlapping + 1 > perHost) out.push(`${host}${r.path}: ${overlapping + 1} requests in flight at once (limit ${perHost})`);
      if (perHost === 1 && i > 0) {
        const gap = r.start - list[i - 1]!.end;
        if (gap < delayMs - slackMs) out.push(`${host}${r.path}: ${gap.toFixed(1)} ms after the previous answer (delay ${delayMs} ms)`);
      }
    }
  }
  return out;
}
