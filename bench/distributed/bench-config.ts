import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `--config` for the crawls of the distributed benches: the spider-trap cap of URLs per pattern
 * off. The bench webs number their pages (/p/1 ... /p/N, one pattern a host), so past 1,000 pages
 * a host the cap would end both crawlers' crawls early and the pages/s would measure less than
 * the web (it once did: the embedded crawler's row divided the whole web by its time).
 */
export function benchConfigFlags(): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'fc-bench-config-')), 'bench.yaml');
  writeFileSync(file, 'maxUrlsPerPattern: 0\n');
  return ['--config', file];
}

/** The pages a crawl's summary says it fetched this run. */
export function fetchedThisRun(stdout: string): number {
  const m = /(\d+) fetched this run/.exec(stdout);
  if (!m) throw new Error(`no "fetched this run" in the crawl's summary: ${stdout.slice(0, 300)}`);
  return Number(m[1]);
}
