import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startCrawl } from '../../src/crawl.js';
import { pagesDir, readBuiltSite } from './built-site.js';
import { TOPICS, siteOf, topicFile } from './manifest.js';
import { folderPages, serveBuiltSite } from './serve-sites.js';

/**
 * Does a crawl with a depth limit fetch every page within that many links of the start page?
 * Each topic's site is crawled to the end (no page budget) with `--max-depth N`, and the pages
 * fetched are compared with those whose shortest link path from the start page is at most N
 * (a breadth-first walk of the built site's graph). A best-first strategy meets many URLs down a
 * long path first: the frontier must not let that first depth decide (docs/strategies.md).
 *
 *   node dist/bench/realweb/depth-reach.js --topics django-gis,sqlite-session --max-depth 2 --strategies adaptive,weighted-levels
 */
const here = dirname(fileURLToPath(import.meta.url));
const benchDir = join(here, '..', '..', '..', 'bench', 'realweb');
const outRoot = join(benchDir, 'out');

const { values } = parseArgs({
  options: {
    topics: { type: 'string', default: 'django-gis,sqlite-session' },
    'max-depth': { type: 'string', default: '2' },
    strategies: { type: 'string', default: 'adaptive' },
  },
});
const maxDepth = Number(values['max-depth']);
if (!Number.isInteger(maxDepth) || maxDepth < 0) throw new Error(`--max-depth: a non-negative integer, not ${values['max-depth']}`);

console.log('| topic (site) | strategy | max depth | pages within it | fetched | within it, not fetched |');
console.log('|---|---|---|---|---|---|');
for (const id of values.topics.split(',')) {
  const topic = TOPICS.find((t) => t.id === id);
  if (!topic) throw new Error(`unknown topic ${id}`);
  const siteDef = siteOf(topic);
  const site = readBuiltSite(outRoot, siteDef.id);
  if (!site) throw new Error(`site ${siteDef.id} is not built: node dist/bench/realweb/run.js --build-only`);
  const dist = new Array<number>(site.urls.length).fill(-1);
  dist[site.root] = 0;
  const queue = [site.root];
  for (let i = 0; i < queue.length; i++) for (const j of site.out[queue[i]!]!) if (dist[j]! < 0) (dist[j] = dist[queue[i]!]! + 1), queue.push(j);
  const within = new Set(site.urls.filter((_, i) => dist[i]! >= 0 && dist[i]! <= maxDepth));
  const served = await serveBuiltSite({ port: 0, encoding: siteDef.encoding, page: folderPages(pagesDir(outRoot, siteDef.id)) });
  try {
    for (const strategy of values.strategies.split(',')) {
      const dir = mkdtempSync(join(tmpdir(), 'fc-depth-reach-'));
      const crawl = await startCrawl({
        seeds: [served.origin + '/'], db: join(dir, 'crawl.db'), topic: join(benchDir, topicFile(topic)), strategy,
        maxDepth, maxPages: 1_000_000, concurrency: 1, perHost: 1, delayMs: 0, sitemaps: false,
      });
      await crawl.run();
      await crawl.db.settle();
      const fetched = new Set((crawl.db.db.prepare('SELECT url FROM urls WHERE state = 2').pluck().all() as string[]).map((u) => new URL(u).pathname));
      await crawl.close();
      rmSync(dir, { recursive: true, force: true });
      const missed = [...within].filter((u) => !fetched.has(u)).length;
      console.log(`| ${id} (${siteDef.id}) | ${strategy} | ${maxDepth} | ${within.size} | ${fetched.size} | ${missed} |`);
    }
  } finally {
    await served.close();
  }
}
