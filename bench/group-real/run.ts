import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seededRandom } from '../../src/bench/seeded-random.js';
import { readExamplesFile, readSitesFile } from '../../src/group/group-inputs.js';
import { GROUP_DEFAULTS, runGroupCrawl, type GroupMethod, type RankedPage } from '../../src/group/group-crawl.js';
import { pagesDir } from '../realweb/built-site.js';
import { folderPages, serveBuiltSite, type ServedSite } from '../realweb/serve-sites.js';
import { ensureGroupSite, ignoredPaths, targetPaths } from './group-build.js';
import { GROUP_SITES, PAGE_KINDS, REPORT_KIND, siteDef, TUNE_KINDS, type PageKind } from './group-sites.js';
import type { SelectionRule } from '../../src/group/target-selection.js';
import { gradeGroup, type GroupGrade } from './group-grade.js';
import { prf, reselect, ruleName, SWEEP } from '../group/selection-sweep.js';

/**
 * bench/group-real: method D on real documentation sites (group-sites.ts), each served on its own
 * 127.0.0.1 port with opaque URLs, for four page kinds. Settings are chosen on the tuning kinds
 * (licence, FAQ and change log pages) and reported on the other (contributing guides). `--help` lists the options.
 */
const here = dirname(fileURLToPath(import.meta.url));
const benchDir = join(here, '..', '..', '..', 'bench', 'group-real');
const repo = join(benchDir, '..', '..');
const outRoot = join(benchDir, 'out');

const HELP = `npm run bench:group-real -- [options]
  --kinds license,faq,... page kinds to run (default all: ${TUNE_KINDS.join(' and ')} are the tuning kinds, ${REPORT_KIND} the report kind)
  --methods bfc,fc        default both
  --sets N                example sets of 3 per kind (default 4)
  --budget N              pages per site (default ${GROUP_DEFAULTS.budgetPerSite})
  --threshold X           bfc: the old absolute selection instead of the adaptive one
  --fc-relevance X        fc: relevant from X times the examples' coherence (default ${GROUP_DEFAULTS.fcRelevance})
  --dead-end-weight X     bfc: weight of the paths that led nowhere (default ${GROUP_DEFAULTS.deadEndWeight})
  --shape-weight X        bfc: weight of number-shape likeness in the ranking (default ${GROUP_DEFAULTS.shapeWeight}: off)
  --name-weight X         bfc: weight of name likeness (title, in-link anchors) in the ranking (default ${GROUP_DEFAULTS.nameWeight})
  --selection JSON        bfc: fields of the selection rule to change, e.g. '{"siteNext":0.7}' (target-selection.ts DEFAULT_SELECTION)
  --out DIR               per-run rankings as JSON (default bench/group-real/out/results)
  --sweep                 also re-select BFC's crawls under other selection rules (tuning)
  --keep-db DIR           keep each run's crawl database in DIR (for re-ranking offline)
  --no-record             do not append the tables to bench/RESULTS.md
  --build-only            build the missing sites and stop
  --rebuild               rebuild every site`;

const { values: args } = parseArgs({
  options: {
    kinds: { type: 'string', default: PAGE_KINDS.join(',') },
    selection: { type: 'string' },
    methods: { type: 'string', default: 'bfc,fc' },
    sets: { type: 'string', default: '4' },
    budget: { type: 'string', default: String(GROUP_DEFAULTS.budgetPerSite) },
    out: { type: 'string', default: join(outRoot, 'results') },
    threshold: { type: 'string' },
    'fc-relevance': { type: 'string' },
    'dead-end-weight': { type: 'string' },
    'shape-weight': { type: 'string' },
    'name-weight': { type: 'string' },
    'keep-db': { type: 'string' },
    'no-record': { type: 'boolean', default: false },
    'build-only': { type: 'boolean', default: false },
    rebuild: { type: 'boolean', default: false },
    sweep: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  process.stdout.write(HELP + '\n');
  process.exit(0);
}
const fail = (msg: string): never => {
  process.stderr.write(`group-real: ${msg}\n`);
  process.exit(2);
};
const kinds = args.kinds!.split(',').map((k) => k.trim()) as PageKind[];
for (const k of kinds) if (!PAGE_KINDS.includes(k)) fail(`--kinds: unknown kind '${k}' (${PAGE_KINDS.join(', ')})`);
// The sweep is for choosing settings, which are never chosen on the report kind.
if (args.sweep && kinds.includes(REPORT_KIND)) fail(`--sweep: not on the report kind '${REPORT_KIND}' (settings are chosen on ${TUNE_KINDS.join(', ')})`);
const methods = args.methods!.split(',').map((m) => m.trim()) as GroupMethod[];
for (const m of methods) if (m !== 'bfc' && m !== 'fc') fail(`--methods: unknown method '${m}' (bfc, fc)`);
const setCount = Number(args.sets);
const budget = Number(args.budget);
if (!(setCount >= 1 && Number.isInteger(setCount))) fail(`--sets: expected a positive integer, got '${args.sets}'`);
if (!(budget >= 1 && Number.isInteger(budget))) fail(`--budget: expected a positive integer, got '${args.budget}'`);

const overrides = {
  ...(args.threshold !== undefined ? { threshold: Number(args.threshold) } : {}),
  fcRelevance: args['fc-relevance'] !== undefined ? Number(args['fc-relevance']) : GROUP_DEFAULTS.fcRelevance,
  deadEndWeight: args['dead-end-weight'] !== undefined ? Number(args['dead-end-weight']) : GROUP_DEFAULTS.deadEndWeight,
  shapeWeight: args['shape-weight'] !== undefined ? Number(args['shape-weight']) : GROUP_DEFAULTS.shapeWeight,
  nameWeight: args['name-weight'] !== undefined ? Number(args['name-weight']) : GROUP_DEFAULTS.nameWeight,
};
for (const [k, v] of Object.entries(overrides)) if (!(v >= 0 && Number.isFinite(v))) fail(`--${k}: expected a number, got '${v}'`);
let selectionChange: Partial<SelectionRule> = {};
try {
  selectionChange = args.selection ? (JSON.parse(args.selection) as Partial<SelectionRule>) : {};
} catch (err) {
  fail(`--selection: not JSON: ${(err as Error).message}`);
}
const selection: SelectionRule = { ...GROUP_DEFAULTS.selection, ...selectionChange };

const built = GROUP_SITES.map((s, i) => ensureGroupSite(outRoot, s, i, args.rebuild));
if (args['build-only']) process.exit(0);

/** Each kind's example sets come from a seed of their own, so adding a kind changes no other kind's sets. */
const KIND_SEEDS: Record<PageKind, number> = { license: 101, faq: 202, contributing: 303, changelog: 404 };

/**
 * Example sets of a kind: 3 sites drawn among those with a target of the kind, one target page
 * each, from a seeded generator (the same sets on every run).
 */
function exampleSets(kind: PageKind, origins: string[]): { site: number; url: string }[][] {
  const r = seededRandom(KIND_SEEDS[kind]);
  const withTargets = GROUP_SITES.map((s, i) => ({ i, targets: targetPaths(s, built[i]!, kind) })).filter((x) => x.targets.length);
  const sets: { site: number; url: string }[][] = [];
  for (let k = 0; k < setCount; k++) {
    const chosen = new Set<number>();
    while (chosen.size < 3) chosen.add(Math.floor(r() * withTargets.length));
    sets.push([...chosen].map((c) => {
      const x = withTargets[c]!;
      return { site: x.i, url: origins[x.i]! + x.targets[Math.floor(r() * x.targets.length)]! };
    }));
  }
  return sets;
}

const t0 = performance.now();
const servers: ServedSite[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'fc-group-real-'));
const results: { kind: PageKind; set: number; method: GroupMethod; grade: GroupGrade; examples: string[]; fetched: number; rounds: number; sweep: Record<string, ReturnType<typeof prf>> }[] = [];
try {
  for (const [i, s] of GROUP_SITES.entries()) {
    const def = siteDef(s, i);
    servers.push(await serveBuiltSite({ port: def.port, encoding: 'utf-8', page: folderPages(pagesDir(outRoot, def.id)) }));
  }
  const origins = servers.map((s) => s.origin);
  const sitesFile = join(tmp, 'sites.tsv');
  writeFileSync(sitesFile, GROUP_SITES.map((s, i) => `${origins[i]}/\t${s.id}`).join('\n') + '\n');
  const sites = readSitesFile(sitesFile);
  mkdirSync(args.out!, { recursive: true });
  if (args['keep-db']) mkdirSync(args['keep-db'], { recursive: true });
  for (const kind of kinds) {
    const targets = new Set(GROUP_SITES.flatMap((s, i) => targetPaths(s, built[i]!, kind).map((p) => origins[i]! + p)));
    const ignored = new Set(GROUP_SITES.flatMap((s, i) => ignoredPaths(s, built[i]!, kind).map((p) => origins[i]! + p)));
    const sets = exampleSets(kind, origins);
    for (const [set, examples] of sets.entries()) {
      const exFile = join(tmp, `examples-${kind}-${set}.tsv`);
      writeFileSync(exFile, examples.map((e) => `${origins[e.site]}/\t${e.url}`).join('\n') + '\n');
      const given = new Set(examples.map((e) => e.url));
      for (const method of methods) {
        // One request at a time: the same crawl order, and so the same figures, on every run.
        // No sitemaps: the built sites serve none, and the guessed /sitemap.xml took a page of every site's budget.
        const report = await runGroupCrawl({
          ...GROUP_DEFAULTS, ...overrides, selection, sites, examples: readExamplesFile(exFile, sites), method, budgetPerSite: budget,
          db: join(args['keep-db'] ?? tmp, `${kind}-${set}-${method}.db`), concurrency: 1, perHost: 1, delayMs: 0, robots: true, sitemaps: false,
        });
        // Pages the labels leave out (GroupSiteDef.ignore) are taken out of the ranking before grading.
        const graded = ignored.size ? report.pages.filter((p) => !ignored.has(p.url)) : report.pages;
        const grade = gradeGroup(graded, targets, sites, given);
        const fetched = report.searched + report.rounds.reduce((a, x) => a + x.fetched, 0);
        const sweep: Record<string, ReturnType<typeof prf>> = {};
        const samples = new Set(report.library.map((x) => x.url));
        if (args.sweep && method === 'bfc') for (const rule of SWEEP) sweep[ruleName(rule)] = prf(reselect(graded, samples, rule, new Set(report.parts), report.coherence), targets, given);
        results.push({ kind, set, method, grade, examples: examples.map((e) => GROUP_SITES[e.site]!.id), fetched, rounds: report.rounds.length, sweep });
        writeFileSync(join(args.out!, `${kind}-${set}-${method}.json`), JSON.stringify({ kind, set, method, examples, coherence: report.coherence, samples: report.library.map((x) => x.url), pages: report.pages.map((p: RankedPage) => ({ ...p, label: targets.has(p.url), ...(ignored.has(p.url) ? { ignored: true } : {}) })), library: report.library }, null, 1));
        const g = grade;
        process.stderr.write(`${kind} set ${set + 1} [${examples.map((e) => GROUP_SITES[e.site]!.id).join(', ')}] ${method}: P ${g.precision.toFixed(2)} R ${g.recall.toFixed(2)} F1 ${g.f1.toFixed(2)} (${g.returned} returned, ${g.reached}/${targets.size} targets fetched, best-ranked page a target on ${g.bestIsTarget}/${g.sitesWithTarget} sites, ${g.emptyRight}/${g.sitesWithout} target-less sites return nothing; ${fetched} pages, ${report.rounds.length} rounds)\n`);
      }
      rmSync(join(tmp, `${kind}-${set}-bfc.db`), { force: true });
      rmSync(join(tmp, `${kind}-${set}-fc.db`), { force: true });
    }
  }
} finally {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(tmp, { recursive: true, force: true });
}

const f2 = (x: number) => x.toFixed(2);
const lines: string[] = [];
for (const kind of kinds) {
  const rs = results.filter((r) => r.kind === kind);
  const targets = GROUP_SITES.reduce((a, s, i) => a + targetPaths(s, built[i]!, kind).length, 0);
  const withKind = GROUP_SITES.filter((s, i) => targetPaths(s, built[i]!, kind).length).length;
  lines.push(
    `### ${kind} pages (${TUNE_KINDS.includes(kind) ? 'tuning kind: settings were chosen on it' : 'report kind: no setting was chosen on it'})`,
    '',
    `${GROUP_SITES.length} sites, ${withKind} with ${kind} pages, ${targets} target pages reachable; budget ${budget} pages a site; ${setCount} sets of 3 examples.`,
    '',
    '| method | set (example sites) | precision | recall | F1 | returned | best-ranked page a target | target-less sites returning nothing | pages fetched |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const method of methods) {
    const ms = rs.filter((r) => r.method === method);
    for (const r of ms) {
      const g = r.grade;
      lines.push(`| ${method.toUpperCase()} | ${r.set + 1} (${r.examples.join(', ')}) | ${f2(g.precision)} | ${f2(g.recall)} | ${f2(g.f1)} | ${g.returned} | ${g.bestIsTarget}/${g.sitesWithTarget} | ${g.emptyRight}/${g.sitesWithout} | ${r.fetched} |`);
    }
    const mean = (k: 'precision' | 'recall' | 'f1') => f2(ms.reduce((a, r) => a + r.grade[k], 0) / ms.length);
    lines.push(`| **${method.toUpperCase()}** | **mean** | **${mean('precision')}** | **${mean('recall')}** | **${mean('f1')}** | ${(ms.reduce((a, r) => a + r.grade.returned, 0) / ms.length).toFixed(1)} | | | ${Math.round(ms.reduce((a, r) => a + r.fetched, 0) / ms.length)} |`);
  }
  const bfc = rs.filter((r) => r.method === 'bfc');
  if (bfc.length && Object.keys(bfc[0]!.sweep).length) {
    lines.push('', `BFC selection rule sweep on ${kind} pages (the same crawls re-selected; mean over the sets):`, '', '| rule | precision | recall | F1 |', '|---|---|---|---|');
    for (const t of Object.keys(bfc[0]!.sweep)) {
      const m = (k: 'precision' | 'recall' | 'f1') => f2(bfc.reduce((a, x) => a + x.sweep[t]![k], 0) / bfc.length);
      lines.push(`| ${t} | ${m('precision')} | ${m('recall')} | ${m('f1')} |`);
    }
  }
  lines.push('');
}
const table = lines.join('\n');
process.stdout.write(table + '\n');
const argv = process.argv.slice(2).filter((a) => a !== '--no-record');
const seconds = Math.round((performance.now() - t0) / 1000);
process.stderr.write(`group-real: ${seconds} s\n`);
if (!args['no-record']) {
  appendFileSync(
    join(repo, 'bench', 'RESULTS.md'),
    `\n## bench/group-real (${new Date().toISOString().slice(0, 10)})\n\n\`npm run bench:group-real${argv.length ? ' -- ' + argv.join(' ') : ''}\` (${cpus().length} cores, Node ${process.version}, ${seconds} s)\n\n${table}`,
  );
}
