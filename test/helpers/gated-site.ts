import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderPage, type SiteSpec } from '../../src/bench/generated-site.js';

export interface GatedSite {
  origin: string;
  /** Page requests answered or held so far. */
  requests(): number;
  /** Resolves when the site holds the request that reached `gate` (the crawl is paused there). */
  reached(gate: number): Promise<void>;
  /** Answers the requests held at `gate` and lets the crawl go on. */
  open(gate: number): void;
  close(): Promise<void>;
}

/**
 * The generated site, but holding page requests at given counts until the test opens the gate:
 * a crawl with one request in flight is then provably still running while the test looks at it,
 * with no timing in the test.
 */
export async function serveGatedSite(spec: SiteSpec, gates: number[]): Promise<GatedSite> {
  let count = 0;
  const held = new Map<number, (() => void)[]>();
  const opened = new Set<number>();
  const waiters = new Map<number, () => void>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/robots.txt') return void res.writeHead(404).end();
    const m = path === '/' ? ['', '0'] : /^\/p\/(\d+)$/.exec(path);
    const body = m ? renderPage(spec, Number(m[1])) : null;
    const answer = () => (body ? res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body) : res.writeHead(404).end());
    const n = ++count;
    const gate = gates.find((g) => g === n && !opened.has(g));
    if (gate === undefined) return answer();
    held.set(gate, [...(held.get(gate) ?? []), answer]);
    waiters.get(gate)?.();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    reached: (gate) => (held.has(gate) ? Promise.resolve() : new Promise((r) => waiters.set(gate, r))),
    open(gate) {
      opened.add(gate);
      for (const answer of held.get(gate) ?? []) answer();
      held.delete(gate);
    },
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
