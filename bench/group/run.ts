import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_GROUP_WEB, startGroupWeb, type GroupWeb } from '../../src/bench/site-group-web.js';
import { seededRandom } from '../../src/bench/seeded-random.js';
import { readExamplesFile, readSitesFile } from '../../src/group/group-inputs.js';
import { GROUP_DEFAULTS, runGroupCrawl, type RankedPage } from '../../src/group/group-crawl.js';

/**
 * bench/group: method D's experiment on a generated group of similar sites
 * (src/bench/site-group-web.ts). BFC and FC from the same 4 sets of 3 examples (each from a
 * random site), same budget per site; precision, recall and F1 of the pages each returns as
 * targets, against the generator's labels, averaged over the sets.
 *
 *   npm run build && node dist/bench/group/run.js [--web-seed 11] [--sweep] [--no-record]
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const argv = process.argv.slice(2);
const arg = (name: string, d: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : d);
const record = !argv.includes('--no-record');
const sweep = argv.includes('--sweep');
const webSeed = arg('--web-seed', DEFAULT_GROUP_WEB.seed);
const budget = arg('--budget', GROUP_DEFAULTS.budgetPerSite);

interface Scores { precision: number; recall: number; f1: number; returned: number }
function grade(pages: RankedPage[], web: GroupWeb, threshold?: number): Scores {
  const returned = pages.filter((p) => (threshold === undefined ? p.target : p.score >= threshold));
  const hits = returned.filter((p) => web.targets.has(p.url)).length;
  const precision = returned.length ? hits / returned.length : 0;
  const recall = hits / web.targets.size;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, returned: returned.length };
}

const web = await startGroupWeb({ ...DEFAULT_GROUP_WEB, seed: webSeed });
const dir = mkdtempSync(join(tmpdir(), 'fc-bench-group-'));
const sitesFile = join(dir, 'sites.tsv');
writeFileSync(sitesFile, web.sites.map((s) => `${s.root}\t${s.name}`).join('\n') + '\n');
const sites = readSitesFile(sitesFile);
const r = seededRandom(webSeed * 7 + 1);
const results: { set: number; method: 'bfc' | 'fc'; scores: Scores; fetched: number; rounds: number; sweep: Record<string, Scores> }[] = [];
try {
  for (let set = 0; set < 4; set++) {
    const chosen = new Set<number>();
    while (chosen.size < 3) chosen.add(Math.floor(r() * web.sites.length));
    const lines = [...chosen].map((i) => {
      const s = web.sites[i]!;
      return `${s.root}\t${s.targets[Math.floor(r() * s.targets.length)]}`;
    });
    const exFile = join(dir, `examples-${set}.tsv`);
    writeFileSync(exFile, lines.join('\n') + '\n');
    for (const method of ['bfc', 'fc'] as const) {
      const report = await runGroupCrawl({
        sites, examples: readExamplesFile(exFile, sites), method, budgetPerSite: budget, iterations: GROUP_DEFAULTS.iterations, pathSearchPages: GROUP_DEFAULTS.pathSearchPages,
        threshold: GROUP_DEFAULTS.threshold[method], addPerRound: GROUP_DEFAULTS.addPerRound, db: join(dir, `${method}-${set}.db`),
        concurrency: 16, perHost: 2, delayMs: 0, robots: true,
      });
      const fetched = report.searched + report.rounds.reduce((a, x) => a + x.fetched, 0);
      const sw: Record<string, Scores> = {};
      if (sweep) for (const t of [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6]) sw[t] = grade(report.pages, web, t);
      results.push({ set, method, scores: grade(report.pages, web), fetched, rounds: report.rounds.length, sweep: sw });
      const s = results[results.length - 1]!.scores;
      const zh = [...chosen].filter((i) => web.sites[i]!.zh).length;
      const reached = report.pages.filter((p) => web.targets.has(p.url)).length;
      process.stderr.write(`set ${set} (${zh} zh examples) ${method}: fetched ${reached} of ${web.targets.size} targets; P ${s.precision.toFixed(2)} R ${s.recall.toFixed(2)} F1 ${s.f1.toFixed(2)} (${s.returned} returned, ${fetched} fetched, ${report.searched} in path extraction, ${report.rounds.length} rounds)\n`);
    }
  }
} finally {
  await web.close();
}
const mean = (m: string, k: keyof Scores) => results.filter((x) => x.method === m).reduce((a, x) => a + x.scores[k], 0) / 4;
const lines = [
  `Generated group (web seed ${webSeed}): ${web.sites.length} sites from 4 templates, ${web.sites.filter((s) => s.zh).length} in Chinese, ${web.targets.size} target pages; budget ${budget} pages per site; 4 sets of 3 examples.`,
  '',
  '| method | precision | recall | F1 | source: precision / recall / F1 |',
  '|---|---|---|---|---|',
  `| BFC (bootstrapping, threshold ${GROUP_DEFAULTS.threshold.bfc}) | ${mean('bfc', 'precision').toFixed(2)} | ${mean('bfc', 'recall').toFixed(2)} | ${mean('bfc', 'f1').toFixed(2)} | about 0.35 / 0.62 / 0.45 |`,
  `| FC (kNN focused crawler, threshold ${GROUP_DEFAULTS.threshold.fc}) | ${mean('fc', 'precision').toFixed(2)} | ${mean('fc', 'recall').toFixed(2)} | ${mean('fc', 'f1').toFixed(2)} | about 0.57 / 0.16 / 0.25 |`,
  '',
  'Per example set (precision / recall / F1):',
  '',
  '| set | BFC | FC |',
  '|---|---|---|',
  ...[0, 1, 2, 3].map((set) => {
    const f = (m: string) => { const x = results.find((y) => y.set === set && y.method === m)!.scores; return `${x.precision.toFixed(2)} / ${x.recall.toFixed(2)} / ${x.f1.toFixed(2)}`; };
    return `| ${set + 1} | ${f('bfc')} | ${f('fc')} |`;
  }),
];
if (sweep) {
  lines.push('', 'Selection threshold sweep (mean F1 over the 4 sets):', '', '| threshold | BFC F1 | FC F1 |', '|---|---|---|');
  for (const t of Object.keys(results[0]!.sweep)) {
    const m = (meth: string) => (results.filter((x) => x.method === meth).reduce((a, x) => a + x.sweep[t]!.f1, 0) / 4).toFixed(2);
    lines.push(`| ${t} | ${m('bfc')} | ${m('fc')} |`);
  }
}
const table = lines.join('\n');
process.stdout.write(table + '\n');
if (record) appendFileSync(join(repo, 'bench', 'RESULTS.md'), `\n## bench/group (${new Date().toISOString().slice(0, 10)})\n\n\`npm run build && node dist/bench/group/run.js${argv.length ? ' ' + argv.filter((a) => a !== '--no-record').join(' ') : ''}\`\n\n${table}\n`);
