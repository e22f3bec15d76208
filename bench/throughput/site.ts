import { mkdirSync, writeFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { renderPage, type SiteSpec } from '../../src/bench/generated-site.js';

/** The benchmark site: 20,000 pages of 8-15 KB with 20-40 links each. */
export const BENCH_SITE: SiteSpec = { pages: 20_000, seed: 42, words: [1200, 1950], links: [20, 40] };

/**
 * Reads every file of the site so nginx serves it from the page cache: this VM's memory reclaim
 * evicts the 220 MB of pages between runs, and a cold first round measured 3-10x slower.
 */
export function warmSite(dir: string): void {
  for (const f of readdirSync(join(dir, 'p'))) readFileSync(join(dir, 'p', f));
}

/** Writes the site as static files (p/N.html, index.html, robots.txt) once; returns its folder. */
export function writeSite(dir: string, spec: SiteSpec = BENCH_SITE): string {
  const stamp = join(dir, 'spec.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === JSON.stringify(spec)) return dir;
  mkdirSync(join(dir, 'p'), { recursive: true });
  for (let i = 0; i < spec.pages; i++) writeFileSync(join(dir, 'p', `${i}.html`), renderPage(spec, i)!);
  writeFileSync(join(dir, 'index.html'), renderPage(spec, 0)!);
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
  writeFileSync(stamp, JSON.stringify(spec));
  return dir;
}
