import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GROUP_DEFAULTS, runGroupCrawl } from '../../src/group/group-crawl.js';
import { HttpFetcher } from '../../src/fetch/http-fetcher.js';
import { resolveMapOf } from '../../src/fetch/resolve-map.js';

/**
 * Sites whose root redirects to its www. twin (north), or from it (www.east to east), as most
 * sites do one way or the other: their pages live on the twin, and are the site's pages.
 */
const YEARS = ['2021', '2022', '2023'];
const page = (title: string, body: string, links: [string, string][]) =>
  `<html><head><title>${title}</title></head><body><p>${body}</p>${links.map(([h, a]) => `<a href="${h}">${a}</a>`).join(' ')}</body></html>`;
function university(name: string, path: string): string | null {
  if (path === '/') return page(name, 'welcome to the campus', [['/adm/', 'Admissions'], ['/about.html', 'About']]);
  if (path === '/about.html') return page('About', 'history of the campus and its founders', []);
  if (path === '/adm/') return page('Admissions', 'admissions office', YEARS.map((y) => [`/adm/${y}.html`, `${y} admission scores`]));
  const y = /^\/adm\/(\d{4})\.html$/.exec(path)?.[1];
  return y ? page(`${y} admission scores`, `Province Minimum score Average score Beijing ${600 + Number(y) - 2020} admission score line minimum score by province`, []) : null;
}

const server = http.createServer((req, res) => {
  const host = req.headers.host ?? '';
  const name = host.split(':')[0]!;
  // north.test's pages live on www.north.test; www.east.test's on east.test.
  const home = { 'north.test': 'www.north.test', 'www.east.test': 'east.test' }[name];
  if (home) return void res.writeHead(301, { location: `http://${home}:${port}${req.url}` }).end();
  const html = university(name.replace(/^www\./, '').split('.')[0]!, req.url ?? '/');
  if (!html) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html' }).end(html);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;
after(() => server.close());

test("a site whose root redirects to its www. twin, or from it, keeps its pages: ranked, counted and targets as the site's", async () => {
  const names = ['north.test', 'www.east.test', 'south.test'];
  const sites = names.map((n) => ({ root: `http://${n}:${port}/`, host: `${n}:${port}`, name: n }));
  const fetcher = new HttpFetcher({ resolve: resolveMapOf(['north', 'www.north', 'east', 'www.east', 'south'].map((n) => `${n}.test:${port}:127.0.0.1`)) });
  const report = await runGroupCrawl({
    ...GROUP_DEFAULTS, sites, method: 'bfc', fetcher,
    // An example as the browser shows it after the redirect: on the twin.
    examples: [{ site: sites[0]!, url: `http://www.north.test:${port}/adm/2023.html`, where: 'test' }, { site: sites[2]!, url: `http://south.test:${port}/adm/2022.html`, where: 'test' }],
    db: join(mkdtempSync(join(tmpdir(), 'fc-www-twin-')), 'g.db'), concurrency: 2, perHost: 2, delayMs: 0, robots: false, sitemaps: false,
  });
  for (const site of sites) {
    const own = report.pages.filter((p) => p.root === site.root);
    assert.ok(own.length >= 5, `${site.name}: ${own.length} pages ranked`);
    assert.equal(own.every((p) => p.site === site.name), true);
  }
  const targets = report.pages.filter((p) => p.target).map((p) => `${p.site}${new URL(p.url).pathname}`);
  const east = targets.filter((t) => t.startsWith('www.east.test/adm/'));
  assert.ok(east.length >= 2, `east's score pages, fetched on east.test, are its targets: ${targets.join(' ')}`);
});
