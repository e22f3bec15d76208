import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_GROUP_WEB, startGroupWeb, type GroupWeb } from '../../src/bench/site-group-web.js';
import { seededRandom } from '../../src/bench/seeded-random.js';
import { readExamplesFile, readSitesFile } from '../../src/group/group-inputs.js';
import { GROUP_DEFAULTS, runGroupCrawl, type GroupCrawlOptions, type RankedPage } from '../../src/group/group-crawl.js';
import { loadTopicFile } from '../../src/relevance/topic.js';
import { prf, reselect, ruleName, SWEEP, type Prf } from './selection-sweep.js';

/**
 * bench/group: method D's experiment on a generated group of similar sites
 * (src/bench/site-group-web.ts). BFC and FC from the same 4 sets of 3 examples (each from a
 * random site), same budget per site; precision, recall and F1 of the pages each returns as
 * targets, against the generator's labels, averaged over the sets.
 *
 *   npm run build && node dist/bench/group/run.js [--web-seed 11] [--sweep] [--no-record]
 *     [--threshold X] (bfc's old absolute selection) [--fc-relevance X] [--dead-end-weight X] [--shape-weight X] [--name-weight X] [--sets N] [--methods bfc,fc] [--dump DIR] [--keep-db DIR]
 *     [--topic FILE] [--topic-weight X] (bfc: topic keywords beside the examples, e.g. bench/group/admission-scores.yaml)
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const argv = process.argv.slice(2);
const arg = (name: string, d: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : d);
const record = !argv.includes('--no-record');
const sweep = argv.includes('--sweep');
const webSeed = arg('--web-seed', DEFAULT_GROUP_WEB.seed);
const budget = arg('--budget', GROUP_DEFAULTS.budgetPerSite);
const setCount = arg('--sets', 4);
const dumpDir = argv.includes('--dump') ? argv[argv.indexOf('--dump') + 1]! : null;
const methods = (argv.includes('--methods') ? argv[argv.indexOf('--methods') + 1]! : 'bfc,fc').split(',') as ('bfc' | 'fc')[];
const keepDir = argv.includes('--keep-db') ? argv[argv.indexOf('--keep-db') + 1]! : null;
for (const dir of [dumpDir, keepDir]) if (dir) mkdirSync(dir, { recursive: true });
const overrides: Partial<GroupCrawlOptions> = {
  ...(argv.includes('--threshold') ? { threshold: arg('--threshold', 0.5) } : {}),
  fcRelevance: arg('--fc-relevance', GROUP_DEFAULTS.fcRelevance),
  deadEndWeight: arg('--dead-end-weight', GROUP_DEFAULTS.deadEndWeight),
  shapeWeight: arg('--shape-weight', GROUP_DEFAULTS.shapeWeight),
  nameWeight: arg('--name-weight', GROUP_DEFAULTS.nameWeight),
  topicWeight: arg('--topic-weight', GROUP_DEFAULTS.topicWeight),
  topicKeywords: argv.includes('--topic') ? loadTopicFile(argv[argv.indexOf('--topic') + 1]!).keywords : null,
};
const topicFile = argv.includes('--topic') ? argv[argv.indexOf('--topic') + 1]! : null;

type Scores = Prf;
const grade = (pages: RankedPage[], web: GroupWeb, examples: ReadonlySet<string>): Scores => prf(pages, web.targets, examples);

const web = await startGroupWeb({ ...DEFAULT_GROUP_WEB, seed: webSeed });
const dir = mkdtempSync(join(tmpdir(), 'fc-bench-group-'));
const sitesFile = join(dir, 'sites.tsv');
writeFileSync(sitesFile, web.sites.map((s) => `${s.root}\t${s.name}`).join('\n') + '\n');
const sites = readSitesFile(sitesFile);
const r = seededRandom(webSeed * 7 + 1);
const results: { set: number; method: 'bfc' | 'fc'; scores: Scores; fetched: number; rounds: number; sweep: Record<string, Scores>; zhTargets: number }[] = [];
const zhTargets = new Set(web.sites.filter((s) => s.zh).flatMap((s) => s.targets));
try {
  for (let set = 0; set < setCount; set++) {
    const chosen = new Set<number>();
    while (chosen.size < 3) chosen.add(Math.floor(r() * web.sites.length));
    const lines = [...chosen].map((i) => {
      const s = web.sites[i]!;
      return `${s.root}\t${s.targets[Math.floor(r() * s.targets.length)]}`;
    });
    const exFile = join(dir, `examples-${set}.tsv`);
    writeFileSync(exFile, lines.join('\n') + '\n');
    const examples = readExamplesFile(exFile, sites);
    const given = new Set(examples.map((e) => e.url));
    for (const method of methods) {
      // One request at a time: the same crawl order, and so the same figures, on every run.
      const report = await runGroupCrawl({
        ...GROUP_DEFAULTS, ...overrides, sites, examples, method, budgetPerSite: budget, db: join(keepDir ?? dir, `${method}-${set}.db`),
        concurrency: 1, perHost: 1, delayMs: 0, robots: true, sitemaps: false,
      });
      const fetched = report.searched + report.rounds.reduce((a, x) => a + x.fetched, 0);
      const sw: Record<string, Scores> = {};
      const samples = new Set(report.library.map((x) => x.url));
      if (dumpDir) writeFileSync(join(dumpDir, `group-${webSeed}-${set}-${method}.json`), JSON.stringify({ set, method, coherence: report.coherence, samples: [...samples], pages: report.pages.map((p) => ({ ...p, label: web.targets.has(p.url), zh: zhTargets.has(p.url) })) }));
      if (sweep && method === 'bfc' && overrides.threshold === undefined) for (const rule of SWEEP) sw[ruleName(rule)] = grade(reselect(report.pages, samples, rule, new Set(report.parts), report.coherence), web, given);
      const zhFound = report.pages.filter((p) => p.target && zhTargets.has(p.url)).length;
      results.push({ set, method, scores: grade(report.pages, web, given), fetched, rounds: report.rounds.length, sweep: sw, zhTargets: zhFound });
      const s = results[results.length - 1]!.scores;
      const zh = [...chosen].filter((i) => web.sites[i]!.zh).length;
      const reached = report.pages.filter((p) => web.targets.has(p.url)).length;
      process.stderr.write(`set ${set} (${zh} zh examples) ${method}: fetched ${reached} of ${web.targets.size} targets; P ${s.precision.toFixed(2)} R ${s.recall.toFixed(2)} F1 ${s.f1.toFixed(2)} (${s.returned} returned, ${zhFound} of ${zhTargets.size} Chinese targets; ${fetched} fetched, ${report.searched} in path extraction, ${report.rounds.length} rounds)\n`);
    }
  }
} finally {
  await web.close();
}
const mean = (m: string, k: keyof Scores) => results.filter((x) => x.method === m).reduce((a, x) => a + x.scores[k], 0) / setCount;
const meanFetched = (m: string) => Math.round(results.filter((x) => x.method === m).reduce((a, x) => a + x.fetched, 0) / setCount);
const selection = overrides.threshold !== undefined ? `absolute threshold ${overrides.threshold}` : `adaptive selection: ${ruleName(GROUP_DEFAULTS.selection)}`;
const lines = [
  `Generated group (web seed ${webSeed}): ${web.sites.length} sites from 4 templates, ${web.sites.filter((s) => s.zh).length} in Chinese, ${web.targets.size} target pages (${zhTargets.size} on Chinese sites); budget ${budget} pages per site; ${setCount} sets of 3 examples. BFC: ${selection}, dead-end weight ${overrides.deadEndWeight}, shape weight ${overrides.shapeWeight}, name weight ${overrides.nameWeight}${topicFile ? `, topic ${topicFile} at weight ${overrides.topicWeight}` : ", no topic"}; FC: relevant from ${overrides.fcRelevance} x the examples' coherence.`,
  '',
  '| method | precision | recall | F1 | pages fetched | source: precision / recall / F1 |',
  '|---|---|---|---|---|---|',
  `| BFC (bootstrapping) | ${mean('bfc', 'precision').toFixed(2)} | ${mean('bfc', 'recall').toFixed(2)} | ${mean('bfc', 'f1').toFixed(2)} | ${meanFetched('bfc')} | about 0.35 / 0.62 / 0.45 |`,
  ...(methods.includes('fc') ? [`| FC (kNN focused crawler) | ${mean('fc', 'precision').toFixed(2)} | ${mean('fc', 'recall').toFixed(2)} | ${mean('fc', 'f1').toFixed(2)} | ${meanFetched('fc')} | about 0.57 / 0.16 / 0.25 |`] : []),
  '',
  'Per example set (precision / recall / F1; Chinese targets returned; pages fetched):',
  '',
  '| set | BFC | FC |',
  '|---|---|---|',
  ...Array.from({ length: setCount }, (_x, set) => {
    const f = (m: string) => { const y = results.find((z) => z.set === set && z.method === m); if (!y) return '-'; const x = y.scores; return `${x.precision.toFixed(2)} / ${x.recall.toFixed(2)} / ${x.f1.toFixed(2)}; ${y.zhTargets} zh; ${y.fetched}`; };
    return `| ${set + 1} | ${f('bfc')} | ${f('fc')} |`;
  }),
];
if (sweep && Object.keys(results[0]!.sweep).length) {
  lines.push('', 'BFC selection rule sweep (the same crawls re-selected; mean over the sets):', '', '| rule | precision | recall | F1 |', '|---|---|---|---|');
  for (const t of Object.keys(results[0]!.sweep)) {
    const m = (k: keyof Scores) => (results.filter((x) => x.method === 'bfc').reduce((a, x) => a + x.sweep[t]![k], 0) / setCount).toFixed(2);
    lines.push(`| ${t} | ${m('precision')} | ${m('recall')} | ${m('f1')} |`);
  }
}
const table = lines.join('\n');
process.stdout.write(table + '\n');
if (record) appendFileSync(join(repo, 'bench', 'RESULTS.md'), `\n## bench/group (${new Date().toISOString().slice(0, 10)})\n\n\`npm run build && node dist/bench/group/run.js${argv.length ? ' ' + argv.filter((a) => a !== '--no-record').join(' ') : ''}\`\n\n${table}\n`);
