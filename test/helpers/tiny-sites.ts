import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A page of a tiny site: its title, its text, and its links as [href, anchor]. */
export type TinyPage = [title: string, text: string, links: [string, string][]];

/**
 * Serves each site of `sites` (site key -> path -> page) on its own 127.0.0.1 port, as the plain
 * HTML a group crawl reads: title, one heading, a paragraph, the links. robots.txt allows all.
 */
export async function serveTinySites(sites: Record<string, Record<string, TinyPage>>): Promise<{ roots: Record<string, string>; hits: Record<string, number>; close(): Promise<void> }> {
  const servers: Server[] = [];
  const roots: Record<string, string> = {};
  /** Requests each site answered, robots.txt included. */
  const hits: Record<string, number> = {};
  for (const k of Object.keys(sites)) {
    hits[k] = 0;
    const server = createServer((req, res) => {
      hits[k]!++;
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
      const p = sites[k]![path];
      if (!p) return void res.writeHead(404).end();
      const links = p[2].map(([href, anchor]) => `<a href="${href}">${anchor}</a>`).join(' ');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<title>${p[0]}</title><h1>${p[0]}</h1><p>${p[1]}</p>${links}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    roots[k] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }
  return { roots, hits, close: async () => void (await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))) };
}
