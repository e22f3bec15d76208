import { SqliteCrawlReader } from '../store/sqlite-crawl-reader.js';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { crawlMetrics, metricsTable, type StrategyMetrics } from '../bench/crawl-metrics.js';
import { serveWeb } from '../bench/serve-web.js';
import { lineChartSvg } from '../bench/svg-line-chart.js';
import { DEFAULT_WEB, pageUrl, readWebSpec, writeWeb, type WebSpec } from '../bench/topical-web.js';
import { startCrawl } from '../crawl.js';
import { FocusCrawlError, fileError } from '../errors.js';
import { makeFolder } from '../files/make-folder.js';
import { loadTruth } from '../dashboard/truth-file.js';
import { count } from '../text/count.js';
import { didYouMean } from '../config/option-issue.js';
import { strategyNames } from '../strategies/registry.js';
import { oneOf, positiveInt } from './option-parsers.js';

/**
 * The target URLs, read as `--truth` is (one URL a line, a bad line named); labels on no host of
 * the web would only lower every recall, so none there is an error and some a note.
 */
function readLabels(file: string, spec: WebSpec): Set<string> {
  const { urls } = loadTruth(file, '--labels');
  const origins = new Set(Array.from({ length: spec.hosts }, (_x, h) => new URL(pageUrl(spec, h, 0)).origin));
  const elsewhere = urls.filter((u) => !origins.has(new URL(u).origin));
  if (elsewhere.length === urls.length) throw new FocusCrawlError('USAGE', `--labels ${file}: none of its ${urls.length} URLs is on a host of the web (${[...origins].slice(0, 3).join(', ')}${origins.size > 3 ? ', …' : ''})`);
  if (elsewhere.length) process.stderr.write(`focuscrawl: --labels ${file}: ${elsewhere.length} of its ${urls.length} URLs are on no host of the web (first: ${elsewhere[0]}); they count as targets never found\n`);
  return new Set(urls);
}

/** `name` or `name@keep` (the strategy without the raise on rediscovery). */
function checkStrategyEntry(entry: string): void {
  const [name, mode, ...rest] = entry.split('@');
  if (rest.length || (mode !== undefined && mode !== 'keep')) throw new FocusCrawlError('USAGE', `--strategies: '${entry}' is not NAME or NAME@keep`);
  if (!strategyNames().includes(name!)) throw new FocusCrawlError('USAGE', `--strategies: unknown strategy '${name}'${didYouMean(name!, strategyNames()) || ` (known: ${strategyNames().join(', ')})`}`);
}

/** Targets found against fetches or against wall-clock seconds (method C's source measures both). */
function foundCurves(ms: StrategyMetrics[], budget: number, over: 'fetches' | 'seconds'): string {
  const step = Math.max(1, Math.round(budget / 100));
  return lineChartSvg(
    ms.map((m) => ({
      name: m.strategy,
      points: m.found
        .map((n, i) => [over === 'fetches' ? i + 1 : m.elapsed[i] ?? 0, n] as [number, number])
        .filter((_p, i) => (i + 1) % step === 0 || i + 1 === m.found.length),
    })),
    { title: `Targets found against ${over === 'fetches' ? 'pages fetched' : 'wall-clock time'}`, xLabel: over === 'fetches' ? 'pages fetched' : 'seconds', yLabel: 'targets found' },
  );
}

function curves(ms: StrategyMetrics[], labels: number, budget: number, kind: 'harvest' | 'recall'): string {
  const step = Math.max(1, Math.round(budget / 50));
  return lineChartSvg(
    ms.map((m) => ({
      name: m.strategy,
      points: m.found
        .map((n, i) => [i + 1, kind === 'harvest' ? n / (i + 1) : n / Math.max(1, labels)] as [number, number])
        .filter(([k]) => k % step === 0 || k === m.found.length),
    })),
    { title: `${kind === 'harvest' ? 'Harvest rate' : 'Recall'} against pages fetched`, xLabel: 'pages fetched', yLabel: kind === 'harvest' ? 'harvest rate' : 'recall' },
  );
}

/** Runs each strategy on a served generated web with one budget and grades it against the labels. */
export async function runStrategies(o: { web: string; topic: string; labels: string; strategies: string[]; budget: number; concurrency: number; offline?: boolean }): Promise<{ metrics: StrategyMetrics[]; labels: number }> {
  const spec: WebSpec = readWebSpec(o.web);
  for (const entry of o.strategies) checkStrategyEntry(entry);
  const labels = readLabels(o.labels, spec);
  // Offline: the replay fetcher reads the folder; otherwise each host is served on its port.
  const server = o.offline ? { close: async () => {} } : await serveWeb(o.web, spec);
  const tmp = mkdtempSync(join(tmpdir(), 'fc-bench-run-'));
  const out: StrategyMetrics[] = [];
  try {
    for (const entry of o.strategies) {
      // 'best-first@keep': the strategy with first-discovery priorities (no raise on rediscovery).
      const [strategy, mode] = entry.split('@') as [string, string | undefined];
      const crawl = await startCrawl({
        seeds: Array.from({ length: spec.hosts }, (_x, h) => pageUrl(spec, h, 0)),
        topic: o.topic,
        strategy,
        rediscovery: mode === 'keep' ? 'keep' : 'raise',
        maxPages: o.budget,
        concurrency: o.concurrency,
        perHost: o.concurrency,
        delayMs: 0,
        scope: 'any',
        maxDepth: 1000,
        db: join(tmp, `${entry.replace(/\W/g, "-")}.db`),
        replay: o.offline ? o.web : null,
      });
      const t0 = performance.now();
      const wall0 = Date.now();
      try {
        await crawl.run();
        const rows: { url: string; fetched_at: string }[] = [];
        for await (const e of new SqliteCrawlReader(crawl.db).logEntries()) if (e.state !== 'discarded') rows.push({ url: e.url, fetched_at: e.fetched_at ?? new Date(wall0).toISOString() });
        const elapsed = rows.map((r) => Math.max(0, (Date.parse(r.fetched_at) - wall0) / 1000));
        out.push(crawlMetrics(entry, rows.map((r) => r.url), labels, o.budget, (performance.now() - t0) / 1000, elapsed));
      } finally {
        await crawl.close();
      }
    }
  } finally {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  return { metrics: out, labels: labels.size };
}

function makeOutFolder(dir: string): void {
  try {
    makeFolder(dir);
  } catch (err) {
    throw new FocusCrawlError('IO', `--out ${dir}: cannot make the folder: ${fileError(err, 'write')}`);
  }
}

/**
 * A folder that holds an earlier generated web loses that web's files first, so a smaller web
 * written over a larger one leaves no host folders or pages of the old one behind; a folder that
 * holds anything else is refused rather than written into.
 */
function clearEarlierWeb(dir: string): void {
  const entries = readdirSync(dir);
  if (entries.length === 0) return;
  const webFile = (name: string) => name === 'web.json' || name === 'labels.txt' || /^h\d+$/.test(name);
  // web.json is written last: a gen cut short leaves host folders and labels without it.
  if (!entries.every(webFile)) {
    const other = entries.find((name) => !webFile(name)) ?? entries[0]!;
    throw new FocusCrawlError('USAGE', `--out ${dir}: the folder holds ${JSON.stringify(other)}, which bench gen did not write; give an empty or new folder, or one an earlier bench gen wrote`);
  }
  for (const name of entries) rmSync(join(dir, name), { recursive: true, force: true });
}

export function registerBenchStrategies(bench: Command): void {
  bench
    .command('gen')
    .description('write a generated multi-host topical web with ground-truth labels (tunnels, keyword spam, vague anchors)')
    .requiredOption('--out <dir>', 'folder to write (web.json, labels.txt, h0/, h1/, ...)')
    .option('--seed <n>', 'random seed (default 1)', positiveInt, 1)
    .option('--hosts <n>', `hosts (default ${DEFAULT_WEB.hosts})`, positiveInt, DEFAULT_WEB.hosts)
    .option('--pages <n>', `pages per host (default ${DEFAULT_WEB.pagesPerHost})`, positiveInt, DEFAULT_WEB.pagesPerHost)
    .option('--lang <lang>', 'en | zh (default en)', oneOf(['en', 'zh'] as const), 'en')
    .option('--port <n>', `first port on 127.0.0.1 (default ${DEFAULT_WEB.basePort})`, positiveInt, DEFAULT_WEB.basePort)
    .action((o: { out: string; seed: number; hosts: number; pages: number; lang: 'en' | 'zh'; port: number }) => {
      if (o.port + o.hosts - 1 > 65535) throw new FocusCrawlError('USAGE', `--port ${o.port} with --hosts ${o.hosts}: the hosts' ports would run past 65535`);
      makeOutFolder(o.out);
      clearEarlierWeb(o.out);
      const spec: WebSpec = { ...DEFAULT_WEB, seed: o.seed, hosts: o.hosts, pagesPerHost: o.pages, lang: o.lang, basePort: o.port };
      const r = writeWeb(spec, o.out);
      process.stdout.write(`wrote ${count(r.pages, 'page')} on ${count(spec.hosts, 'host')} (${count(r.targets, 'target')} in ${o.out}/labels.txt) to ${o.out}\n`);
    });
  bench
    .command('run')
    .description('crawl a generated web with several strategies at the same budget and compare them against its labels')
    .requiredOption('--web <dir>', 'a web written by bench gen')
    .requiredOption('--topic <file>', 'topic file the strategies score with')
    .option('--labels <file>', 'target URLs, one per line (default: the web folder\'s labels.txt)')
    .option('--strategies <list>', `comma-separated (default ${strategyNames().join(',')}); name@keep: without the raise on rediscovery`, (v: string) => v.split(',').map((s) => s.trim()))
    .option('--budget <n>', 'pages each strategy may fetch (default 500)', positiveInt, 500)
    .option('--concurrency <n>', 'requests in flight (default 1: a deterministic order)', positiveInt, 1)
    .option('--out <dir>', 'where to write results.json, results.md, harvest.svg, recall.svg, found.svg, found-time.svg (default bench-out)', 'bench-out')
    .option('--offline', 'read the web folder through the replay fetcher instead of serving it over HTTP')
    .action(async (o: { web: string; topic: string; labels?: string; strategies?: string[]; budget: number; concurrency: number; out: string; offline?: boolean }) => {
      const labelsFile = o.labels ?? join(o.web, 'labels.txt');
      // Made before the crawls, not after: a folder that cannot be made fails now, not at the end.
      makeOutFolder(o.out);
      const { metrics: ms, labels } = await runStrategies({ web: o.web, topic: o.topic, labels: labelsFile, strategies: o.strategies ?? strategyNames(), budget: o.budget, concurrency: o.concurrency, offline: o.offline === true });
      const table = metricsTable(ms);
      const every10 = <T,>(xs: T[]) => xs.filter((_n, i) => (i + 1) % 10 === 0);
      writeFileSync(join(o.out, 'results.json'), JSON.stringify({ web: o.web, topic: o.topic, budget: o.budget, labels, results: ms.map(({ found, elapsed, ...m }) => ({ ...m, found: every10(found), elapsed: every10(elapsed) })) }, null, 2));
      writeFileSync(join(o.out, 'results.md'), `Web ${o.web}, ${labels} targets, budget ${o.budget}, topic ${o.topic}\n\n${table}\n`);
      writeFileSync(join(o.out, 'harvest.svg'), curves(ms, labels, o.budget, 'harvest'));
      writeFileSync(join(o.out, 'recall.svg'), curves(ms, labels, o.budget, 'recall'));
      writeFileSync(join(o.out, 'found.svg'), foundCurves(ms, o.budget, 'fetches'));
      writeFileSync(join(o.out, 'found-time.svg'), foundCurves(ms, o.budget, 'seconds'));
      process.stdout.write(`${labels} targets, budget ${o.budget}\n\n${table}\n\nwrote ${o.out}/results.json, results.md, harvest.svg, recall.svg, found.svg, found-time.svg\n`);
    });
}
