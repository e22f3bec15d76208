/**
 * bench/soak: a long crawl of a large web, to show that memory stays bounded whatever the frontier
 * size, that speed holds up, and that a resume of the big database starts quickly (issue 13).
 *
 *   npm run bench:soak -- [--hosts 10000] [--pages-per-host 100] [--minutes 30] [--max-pages 1000000]
 *                         [--concurrency 32] [--no-record] [--keep-db]
 *
 * Serves the soak web (soak-web.ts) from this process, runs the real CLI (`focuscrawl crawl`) in a
 * child process, samples its RSS (threads included) and progress every 10 s, stops it with SIGINT
 * after the time limit, then times `focuscrawl resume` on the same database until its first request.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { lineChartSvg } from '../../src/bench/svg-line-chart.js';
import { hostAddress, serveSoakWeb, type SoakWebOptions } from './soak-web.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const cli = join(repo, 'bin', 'focuscrawl.js');

const { values: args } = parseArgs({
  options: {
    hosts: { type: 'string', default: '10000' },
    'pages-per-host': { type: 'string', default: '100' },
    minutes: { type: 'string', default: '30' },
    'max-pages': { type: 'string', default: '1000000' },
    concurrency: { type: 'string', default: '32' },
    port: { type: 'string', default: '28500' },
    'no-record': { type: 'boolean', default: false },
    'keep-db': { type: 'boolean', default: false },
  },
});
const web: SoakWebOptions = { hosts: Number(args.hosts), pagesPerHost: Number(args['pages-per-host']), port: Number(args.port) };
const minutes = Number(args.minutes);
const maxPages = Number(args['max-pages']);
const out = join(repo, 'bench', 'soak', 'out');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const db = join(out, 'soak.db');

interface Sample { t: number; rssMb: number; fetched: number; frontier: number; }

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

const log = (s: string) => process.stderr.write(`soak: ${s}\n`);
const server = await serveSoakWeb(web);
log(`serving ${web.hosts} hosts x ${web.pagesPerHost} pages on ${hostAddress(0)}..${hostAddress(web.hosts - 1)}:${web.port}`);
const seeds = Array.from({ length: 10 }, (_x, i) => `http://${hostAddress(Math.floor((i * web.hosts) / 10))}:${web.port}/`);
const crawlArgs = ['crawl', '--seeds', ...seeds, '--topic', join(repo, 'topics', 'demo-solar.yaml'), '--max-pages', String(maxPages), '--concurrency', args.concurrency!, '--per-host', '1', '--delay-ms', '200', '--scope', 'any', '--allow-private', '--db', db];
const t0 = Date.now();
const child = spawn(process.execPath, [cli, ...crawlArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
let last = { fetched: 0, frontier: 0 };
let summary = '';
let stderrTail = '';
child.stderr.on('data', (d: Buffer) => {
  const text = d.toString();
  stderrTail = (stderrTail + text).slice(-2000);
  for (const m of text.matchAll(/fetched (\d+) \| [\d.]+ pages\/s \| frontier (\d+)/g)) last = { fetched: Number(m[1]), frontier: Number(m[2]) };
});
child.stdout.on('data', (d: Buffer) => (summary += d.toString()));
const samples: Sample[] = [];
let peakRss = 0;
const sampler = setInterval(() => {
  const rss = rssMb(child.pid!);
  peakRss = Math.max(peakRss, rss);
  samples.push({ t: (Date.now() - t0) / 1000, rssMb: rss, fetched: last.fetched, frontier: last.frontier });
  const s = samples[samples.length - 1]!;
  log(`${s.t.toFixed(0)} s: ${s.fetched} fetched, frontier ${s.frontier}, RSS ${rss.toFixed(0)} MB`);
}, 10_000);
// RSS between samples too: the peak matters.
const peakWatch = setInterval(() => (peakRss = Math.max(peakRss, rssMb(child.pid!))), 1000);
const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
const timer = setTimeout(() => child.kill('SIGINT'), minutes * 60_000);
const code = await exited;
clearTimeout(timer);
clearInterval(sampler);
clearInterval(peakWatch);
const crawlSeconds = (Date.now() - t0) / 1000;
if (code !== 0 && code !== 130) log(`crawl exited ${code}: ${stderrTail}`);
log(`crawl stopped after ${crawlSeconds.toFixed(0)} s:\n${summary}`);

// Resume: the time from starting the process to its first request to the web.
const r0 = Date.now();
const firstRequest = server.firstRequestAfter(r0);
const resume = spawn(process.execPath, [cli, 'resume', '--db', db, '--max-pages', String(last.fetched + 5000)], { stdio: ['ignore', 'ignore', 'pipe'] });
let resumeErr = '';
resume.stderr.on('data', (d: Buffer) => (resumeErr = (resumeErr + d.toString()).slice(-2000)));
const resumeExit = new Promise<number | null>((resolve) => resume.on('exit', (c) => resolve(c)));
const first = await Promise.race([firstRequest, resumeExit.then(() => null)]);
const resumeSeconds = first === null ? null : (first - r0) / 1000;
resume.kill('SIGINT');
await resumeExit;
if (resumeSeconds === null) log(`resume made no request: ${resumeErr}`);
await server.close();

// Speed over the first and the last tenth of the run (from the samples' fetched counts).
const rate = (a: Sample, b: Sample) => (b.fetched - a.fetched) / Math.max(1e-9, b.t - a.t);
const tenth = Math.max(1, Math.floor(samples.length / 10));
const firstRate = samples.length > tenth ? rate(samples[0]!, samples[tenth]!) : 0;
const lastRate = samples.length > tenth ? rate(samples[samples.length - 1 - tenth]!, samples[samples.length - 1]!) : 0;
const maxFrontier = Math.max(...samples.map((s) => s.frontier), 0);
const fetched = samples.length ? samples[samples.length - 1]!.fetched : 0;
const dbBytes = (() => { try { return statSync(db).size; } catch { return 0; } })();
const result = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}`,
  command: `npm run bench:soak -- ${process.argv.slice(2).join(' ')}`.trim(),
  web: { hosts: web.hosts, pagesPerHost: web.pagesPerHost, urls: web.hosts * web.pagesPerHost },
  crawlSeconds: Math.round(crawlSeconds),
  fetched,
  maxFrontier,
  peakRssMb: Math.round(peakRss),
  firstTenthPagesPerSecond: Math.round(firstRate),
  lastTenthPagesPerSecond: Math.round(lastRate),
  resumeSeconds,
  dbMb: Math.round(dbBytes / 1e6),
  samples,
};
writeFileSync(join(out, 'soak.json'), JSON.stringify(result, null, 1));
const md = [
  `## ${result.date}: bench/soak, ${web.hosts.toLocaleString('en')} hosts x ${web.pagesPerHost} pages`,
  '',
  `\`${result.command}\` on ${result.machine}.`,
  '',
  '| crawl | fetched | largest frontier (waiting URLs) | peak RSS | pages/s, first tenth | pages/s, last tenth | resume to first request | database |',
  '|---|---|---|---|---|---|---|---|',
  `| ${result.crawlSeconds} s | ${fetched.toLocaleString('en')} | ${maxFrontier.toLocaleString('en')} | ${result.peakRssMb} MB | ${result.firstTenthPagesPerSecond} | ${result.lastTenthPagesPerSecond} | ${resumeSeconds === null ? 'no request' : `${resumeSeconds.toFixed(1)} s`} | ${result.dbMb} MB |`,
  '',
].join('\n');
process.stdout.write(md + '\n');
if (!args['no-record']) {
  appendFileSync(join(repo, 'bench', 'RESULTS.md'), '\n' + md);
  const chart = (name: string, f: (s: Sample) => number, y: string) =>
    lineChartSvg([{ name, points: samples.map((s) => [s.t / 60, f(s)] as [number, number]) }], { title: `bench/soak: ${y} over the run`, xLabel: 'minutes', yLabel: y });
  writeFileSync(join(repo, 'docs', 'img', 'soak-rss.svg'), chart('RSS', (s) => s.rssMb, 'RSS (MB)'));
  const rates = samples.map((s, i) => (i === 0 ? 0 : rate(samples[i - 1]!, s)));
  writeFileSync(join(repo, 'docs', 'img', 'soak-speed.svg'), lineChartSvg([{ name: 'pages/s', points: samples.map((s, i) => [s.t / 60, rates[i]!] as [number, number]) }, { name: 'frontier / 1000', points: samples.map((s) => [s.t / 60, s.frontier / 1000] as [number, number]) }], { title: 'bench/soak: pages/s and frontier size over the run', xLabel: 'minutes', yLabel: 'pages/s; waiting URLs / 1000' }));
  log('recorded in bench/RESULTS.md, docs/img/soak-rss.svg and docs/img/soak-speed.svg');
}
if (!args['keep-db']) rmSync(out, { recursive: true, force: true });
