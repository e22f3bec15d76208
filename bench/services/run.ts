import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCrawl } from '../../src/crawl.js';
import { DEFAULT_PORTAL, startPortalWeb, type PortalWeb } from '../../src/bench/portal-web.js';
import { lineChartSvg } from '../../src/bench/svg-line-chart.js';

/**
 * bench/services: method B's experiment on a generated geoportal (src/bench/portal-web.ts).
 * weighted-levels against bfs, both with every detector on, depth limit 5, 5 requests at a time
 * (the source's settings), from two seeds: a page listing services (the source's seed 1) and the
 * portal home (seed 2). Each crawl runs until nothing is left within the depth limit, like the
 * source's; the same-budget comparison reads bfs's curve at weighted-levels' page count.
 * Ground truth is the generator's list of valid WMS endpoints, never a strategy's own score.
 *
 *   npm run build && node dist/bench/services/run.js [--no-record]
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const record = !process.argv.includes('--no-record');

interface Run {
  seed: string;
  strategy: string;
  pages: number;
  probes: number;
  found: number;
  /** found after each fetch: curve[i] = valid WMS found within the first i + 1 fetches. */
  curve: number[];
  seconds: number;
}

async function crawl(web: PortalWeb, seedName: string, seed: string, strategy: string): Promise<Run> {
  const db = join(mkdtempSync(join(tmpdir(), 'fc-bench-services-')), 'c.db');
  const t0 = performance.now();
  // The news archive (/news/#/#.html) is the breadth-first crawler's trap on purpose: the per-pattern cap would cut it short.
  const c = await startCrawl({ seeds: [seed], preset: 'wms', strategy, db, maxPages: 100_000, concurrency: 5, perHost: 5, delayMs: 0, maxUrlsPerPattern: 0 });
  const summary = await c.run();
  const seconds = (performance.now() - t0) / 1000;
  await c.db.settle();
  const validProbes = new Set((await c.services.entries()).filter((e) => e.type === 'WMS' && e.status === 'valid' && web.truth.has(e.endpoint)).map((e) => e.probedUrl));
  const curve: number[] = [];
  let found = 0;
  for await (const e of c.store.logEntries()) {
    if (e.state === 'discarded') continue;
    if (validProbes.has(e.url)) found++;
    curve.push(found);
  }
  await c.close();
  return { seed: seedName, strategy, pages: curve.length, probes: summary.stats.probes, found, curve, seconds };
}

/** Fetches needed to reach `share` of the run's own final count, as a share of its pages. */
const reach = (r: Run, share: number) => {
  const need = Math.ceil(share * r.found);
  const i = r.curve.findIndex((n) => n >= need);
  return i < 0 ? NaN : (i + 1) / r.pages;
};

const web = await startPortalWeb(DEFAULT_PORTAL);
const runs: Run[] = [];
try {
  for (const [name, seed] of [['1 (service list page)', web.listSeed], ['2 (portal home)', web.homeSeed]] as const) {
    for (const strategy of ['bfs', 'weighted-levels']) {
      const r = await crawl(web, name, seed, strategy);
      runs.push(r);
      process.stderr.write(`seed ${name}, ${strategy}: ${r.pages} pages, ${r.found} WMS, ${r.seconds.toFixed(1)} s\n`);
    }
  }
} finally {
  await web.close();
}

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '-');
const lines = [
  `Generated portal (seed ${DEFAULT_PORTAL.seed}): ${DEFAULT_PORTAL.newsPages} news pages, ${DEFAULT_PORTAL.servicePages} service pages at depths 1-5, ` +
    `${DEFAULT_PORTAL.endpoints} endpoints of which ${web.truth.size} are valid WMS. Depth limit 5, 5 requests at a time, every detector on; pages include probes.`,
  '',
  '| seed | crawler | pages downloaded | probes | valid WMS found | services per page | pages to 50% / 90% of its finds |',
  '|---|---|---|---|---|---|---|',
  ...runs.map((r) => `| ${r.seed} | ${r.strategy} | ${r.pages} | ${r.probes} | ${r.found} / ${web.truth.size} | ${pct(r.found / r.pages)} | ${pct(reach(r, 0.5))} / ${pct(reach(r, 0.9))} |`),
  '',
  'Same budget (bfs stopped where weighted-levels finished):',
  '',
  '| seed | budget (pages) | bfs WMS found | weighted-levels WMS found | bfs per page | weighted-levels per page |',
  '|---|---|---|---|---|---|',
];
for (let i = 0; i < runs.length; i += 2) {
  const [bfs, wl] = [runs[i]!, runs[i + 1]!];
  const budget = Math.min(wl.pages, bfs.pages);
  const bfsAt = bfs.curve[budget - 1] ?? bfs.found;
  const wlAt = wl.curve[budget - 1] ?? wl.found;
  lines.push(`| ${bfs.seed} | ${budget} | ${bfsAt} | ${wlAt} | ${pct(bfsAt / budget)} | ${pct(wlAt / budget)} |`);
}
const table = lines.join('\n');
process.stdout.write(table + '\n');

for (const [i, file] of [[0, 'services-seed1.svg'], [2, 'services-seed2.svg']] as const) {
  const series = runs.slice(i, i + 2).map((r) => ({ name: r.strategy, points: r.curve.map((n, k) => [k + 1, n] as [number, number]).filter((_p, k) => k % 10 === 0 || k === r.curve.length - 1) }));
  const svg = lineChartSvg(series, { title: `Valid WMS found, seed ${runs[i]!.seed}`, xLabel: 'pages downloaded', yLabel: 'WMS found' });
  if (record) writeFileSync(join(repo, 'docs', 'img', file), svg);
}
if (record) {
  appendFileSync(join(repo, 'bench', 'RESULTS.md'), `\n## bench/services (${new Date().toISOString().slice(0, 10)})\n\n\`npm run build && node dist/bench/services/run.js\`\n\n${table}\n`);
}
