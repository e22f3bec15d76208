import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HoldingSite {
  origin: string;
  /** The page URLs `/p/0` ... of the site. */
  urls(n: number): string[];
  /** Paths of the page requests received so far, held or answered, in arrival order. */
  requests: string[];
  /** Resolves once `n` page requests are held at once. */
  holding(n: number): Promise<void>;
  /** Answers every held request, and from then on every request at once. */
  release(): void;
  close(): Promise<void>;
}

/**
 * One host whose pages (`/p/N`, a title and a sentence, no links) are held unanswered until the
 * test releases them, or until `releaseAt` requests are held at once: the requests a crawl has in
 * flight are then known to the test without any timing. robots.txt is answered at once (404).
 */
export async function serveHoldingSite(opts: { releaseAt?: number } = {}): Promise<HoldingSite> {
  const requests: string[] = [];
  let held: (() => void)[] = [];
  let holding = true;
  const waiters: { n: number; resolve: () => void }[] = [];
  const release = () => {
    holding = false;
    for (const answer of held) answer();
    held = [];
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (!/^\/p\/\d+$/.test(path)) return void res.writeHead(404).end();
    requests.push(path);
    const answer = () => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<title>page ${path}</title><p>solar inverter page ${path}</p>`);
    if (!holding) return answer();
    held.push(answer);
    for (const w of waiters.filter((w) => held.length >= w.n)) w.resolve();
    if (opts.releaseAt !== undefined && held.length >= opts.releaseAt) release();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urls: (n) => Array.from({ length: n }, (_, i) => `${origin}/p/${i}`),
    requests,
    holding: (n) => (held.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    release,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
