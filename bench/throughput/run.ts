import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNginx } from './nginx.js';
import type { ContenderResult } from './report.js';
import { BENCH_SITE, warmSite, writeSite } from './site.js';
import { optionValue } from '../option-value.js';

/**
 * bench/throughput: focuscrawl, Crawlee's CheerioCrawler and a ceiling loop crawl the same
 * 20,000-page site served by nginx, at the same concurrency, each in its own process. A second
 * ceiling (ceiling-store) also parses and stores every page with focuscrawl's own parser and
 * store, which separates the cost of the engine from the cost of the work itself; ceiling-parse
 * only parses, ceiling-store-no-index (not run by default) stores without the full-text index.
 *
 *   npm run bench:throughput -- [--concurrency 32] [--only ceiling,focuscrawl,...] [--rounds 3] [--no-record] [--profile]
 *
 * Each contender but Crawlee runs `--rounds` times (default 3) and the median round is recorded
 * with the range: this shared 2-core machine has stalls that distort single runs.
 *
 * --profile writes a V8 CPU profile of each contender to bench/throughput/out/profiles/.
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const out = join(repo, 'bench', 'throughput', 'out');
const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => optionValue(argv, name, fallback);
const concurrency = Number(opt('concurrency', '32'));
const port = Number(opt('port', '18080'));
const only = opt('only', 'ceiling,ceiling-parse,ceiling-store,focuscrawl,focuscrawl-best-first,crawlee-nopersist,crawlee').split(',');
const record = !argv.includes('--no-record');
const rounds = Number(opt('rounds', '3'));

const CONTENDERS: Record<string, { script: string; args: string[] }> = {
  ceiling: { script: 'contender-ceiling.js', args: [] },
  'ceiling-parse': { script: 'contender-ceiling-store.js', args: ['--work', 'parse'] },
  'ceiling-store-no-index': { script: 'contender-ceiling-store.js', args: ['--work', 'store-no-index'] },
  'ceiling-store': { script: 'contender-ceiling-store.js', args: ['--work', 'store'] },
  focuscrawl: { script: 'contender-focuscrawl.js', args: ['--strategy', 'bfs'] },
  'focuscrawl-best-first': { script: 'contender-focuscrawl.js', args: ['--strategy', 'best-first'] },
  'focuscrawl-adaptive': { script: 'contender-focuscrawl.js', args: ['--strategy', 'adaptive'] },
  'crawlee-nopersist': { script: 'contender-crawlee.js', args: ['--persist', 'false'] },
  crawlee: { script: 'contender-crawlee.js', args: ['--persist', 'true'] },
};

function runContender(name: string, origin: string): Promise<ContenderResult> {
  const c = CONTENDERS[name];
  if (!c) throw new Error(`unknown contender ${name} (known: ${Object.keys(CONTENDERS).join(', ')})`);
  return new Promise((resolve, reject) => {
    const prof = argv.includes('--profile') ? ['--cpu-prof', '--cpu-prof-dir', join(out, 'profiles')] : [];
    const child = spawn(process.execPath, [...prof, join(here, c.script), '--origin', origin, '--concurrency', String(concurrency), '--max-pages', String(BENCH_SITE.pages), ...c.args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${name} exited with ${code}: ${stdout.slice(-500)}`));
      resolve(JSON.parse(last) as ContenderResult);
    });
  });
}

mkdirSync(out, { recursive: true });
process.stderr.write(`writing the ${BENCH_SITE.pages}-page site...\n`);
const root = writeSite(join(out, 'site'));
const server = await startNginx(root, port, join(out, 'nginx'));
const origin = `http://127.0.0.1:${port}`;
type Measured = ContenderResult & { serverCpuSeconds: number; range?: string };
const results: Measured[] = [];
try {
  for (const name of only) {
    process.stderr.write(`running ${name}...\n`);
    const runs: Measured[] = [];
    for (let i = 0; i < (name.startsWith('crawlee') ? 1 : rounds); i++) {
      warmSite(root);
      const served0 = server.cpuSeconds();
      const r = { ...(await runContender(name, origin)), serverCpuSeconds: 0 };
      r.serverCpuSeconds = server.cpuSeconds() - served0;
      process.stderr.write(`  ${r.pages} pages in ${r.seconds.toFixed(1)} s\n`);
      runs.push(r);
    }
    runs.sort((a, b) => a.pages / a.seconds - b.pages / b.seconds);
    const median = runs[Math.floor(runs.length / 2)]!;
    results.push({ ...median, range: runs.length > 1 ? `${(runs[0]!.pages / runs[0]!.seconds).toFixed(0)}-${(runs.at(-1)!.pages / runs.at(-1)!.seconds).toFixed(0)}` : '' });
  }
} finally {
  server.stop();
}

const rows = results.map((r) => {
  const pps = r.pages / r.seconds;
  const range = r.range;
  return `| ${r.name} | ${r.pages} | ${r.seconds.toFixed(1)} | ${pps.toFixed(0)}${range ? ` (${range})` : ''} | ${((1000 * r.cpuSeconds) / r.pages).toFixed(2)} | ${((1000 * r.serverCpuSeconds) / r.pages).toFixed(2)} | ${r.peakRssMb.toFixed(0)} |`;
});
const ceiling = results.find((r) => r.name.startsWith('ceiling loop ('));
const ceilingStore = results.find((r) => r.name.startsWith('ceiling loop + parse + store (same'));
const fc = results.find((r) => r.name.startsWith('focuscrawl bfs'));
const crawlee = results.filter((r) => r.name.startsWith('Crawlee'));
const ratios: string[] = [];
if (fc && ceiling) ratios.push(`focuscrawl bfs / ceiling: ${((100 * (fc.pages / fc.seconds)) / (ceiling.pages / ceiling.seconds)).toFixed(0)}% (target >= 60%)`);
if (fc && ceilingStore) ratios.push(`focuscrawl bfs / ceiling loop + parse + store: ${((100 * (fc.pages / fc.seconds)) / (ceilingStore.pages / ceilingStore.seconds)).toFixed(0)}% (not a target: what the engine itself costs)`);
if (fc) for (const c of crawlee) ratios.push(`focuscrawl bfs / ${c.name}: ${((fc.pages / fc.seconds) / (c.pages / c.seconds)).toFixed(1)}x (target >= 10x)`);
if (fc) ratios.push(`focuscrawl bfs peak RSS: ${fc.peakRssMb.toFixed(0)} MB (target < 300 MB)`);
const node = process.version;
const cpu = cpus()[0]?.model ?? 'unknown cpu';
let nginx = 'nginx';
try {
  // nginx -v prints to standard error.
  nginx = execFileSync('sh', ['-c', 'nginx -v 2>&1'], { encoding: 'utf8' }).trim().replace('nginx version: ', '');
} catch {
  /* keep the plain name */
}
const section = `
## ${new Date().toISOString().slice(0, 10)}: ${BENCH_SITE.pages} pages, concurrency ${concurrency}

Command: \`npm run bench:throughput -- --concurrency ${concurrency} --rounds ${rounds}${argv.includes('--only') ? ' --only ' + only.join(',') : ''}\`
Each row is the median of ${rounds} rounds (Crawlee: one round), with the range of pages/s in brackets.
Machine: ${cpus().length} cores (${cpu}), Node ${node}, ${nginx.replace(/\n/g, ' ')} with one worker, all on 127.0.0.1.

| contender | pages | seconds | pages/s | CPU s per 1,000 pages | nginx CPU s per 1,000 pages | peak RSS MB |
|---|---|---|---|---|---|---|
${rows.join('\n')}

${ratios.map((r) => '- ' + r).join('\n')}
`;
process.stdout.write(section);
writeFileSync(join(out, 'last.json'), JSON.stringify(results, null, 2));
if (record) {
  const file = join(repo, 'bench', 'RESULTS.md');
  if (!existsSync(file)) writeFileSync(file, '# Benchmark results\n\nFigures recorded by the scripts in bench/, newest last.\n');
  appendFileSync(file, section);
}
