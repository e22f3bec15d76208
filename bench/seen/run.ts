import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TRACE_WEB, linkTrace } from '../../src/bench/link-trace-web.js';
import { serveSite } from '../../src/bench/site-server.js';
import { lineChartSvg } from '../../src/bench/svg-line-chart.js';
import { missRateTable } from '../../src/cli/bench-command.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { startCrawl } from '../../src/crawl.js';
import { POLICIES, simulate, type SimulationResult } from '../../src/seen/cache-simulator.js';
import { FingerprintSet } from '../../src/seen/fingerprint-set.js';
import { fingerprintKey } from '../../src/seen/fingerprint.js';

/**
 * bench/seen: the URL-seen test. (1) FingerprintSet against a plain Set<string>: lookups per
 * second including hashing a 60-byte URL, and bytes per stored URL at 2 million URLs. (2) The
 * caching experiment of method E: miss rates per policy and cache size on a generated 5-million-
 * link trace and on the trace of a real crawl of the demo site.
 *
 *   npm run build && node --expose-gc dist/bench/seen/run.js [--no-record]
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const record = !process.argv.includes('--no-record');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (heap figures need it)');

const N = 2_000_000;
// 60 bytes: https://www.host-0001234.example.com/a/b/page-0001234567.html
const url = (i: number) => `https://www.host-${String(i % 50_000).padStart(7, '0')}.example.com/a/b/page-${String(i).padStart(10, '0')}.htm`;
const urls = Array.from({ length: N }, (_x, i) => url(i));
const misses = Array.from({ length: N }, (_x, i) => url(i + N));

function lookupsPerSecond(has: (u: string) => boolean): number {
  for (let i = 0; i < 200_000; i++) has(urls[i]!);
  const t0 = performance.now();
  let n = 0;
  for (let i = 0; i < N; i++) n += has(urls[i]!) ? 1 : 0;
  for (let i = 0; i < N; i++) n += has(misses[i]!) ? 1 : 0;
  if (n !== N) throw new Error('lookup results are wrong');
  return (2 * N) / ((performance.now() - t0) / 1000);
}

function heapGrowth(build: () => unknown): { bytes: number; keep: unknown } {
  gc!();
  const before = process.memoryUsage();
  const keep = build();
  gc!();
  const after = process.memoryUsage();
  return { bytes: after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers, keep };
}

// The set's memory is its tables (byteLength, exact). A Set<string> is measured by heap growth,
// filled with fresh copies of the URLs (as a crawler's set holds strings nothing else keeps).
const fpSet = new FingerprintSet();
for (const u of urls) fpSet.add(u);
const fpBytes = fpSet.byteLength;
const strMem = heapGrowth(() => new Set(urls.map((u) => Buffer.from(u, 'latin1').toString('latin1'))));
const strSet = strMem.keep as Set<string>;
const fpRate = lookupsPerSecond((u) => fpSet.has(u));
const strRate = lookupsPerSecond((u) => strSet.has(u));

// The caching experiment.
const SIZES = [10, 12, 14, 16, 18, 20, 22].map((k) => 2 ** k);
function experiment(trace: Float64Array): SimulationResult[] {
  const out: SimulationResult[] = [];
  for (const p of POLICIES) for (const s of SIZES) out.push(simulate(trace, p, s));
  return out;
}
function keysOf(it: Iterable<string>, max = Infinity): Float64Array {
  const keys: number[] = [];
  for (const u of it) {
    keys.push(fingerprintKey(u));
    if (keys.length >= max) break;
  }
  return Float64Array.from(keys);
}

process.stderr.write('generated trace...\n');
const generated = keysOf(linkTrace(DEFAULT_TRACE_WEB, 5_000_000));
const genResults = experiment(generated);

process.stderr.write('demo crawl...\n');
const site = await serveSite({ pages: 20_000, seed: 1 }, { prerender: true });
const db = join(mkdtempSync(join(tmpdir(), 'fc-seen-bench-')), 'demo.db');
// The site is one URL pattern (/p/N): the per-pattern trap cap (1,000 by default) would end the trace there.
const crawl = await startCrawl({ seeds: [site.origin + '/'], topic: DEMO_TOPIC, maxPages: 20_000, concurrency: 16, perHost: 16, delayMs: 0, db, maxDepth: 100, maxUrlsPerPattern: 0 });
await crawl.run();
await crawl.db.settle();
const demo = keysOf([...crawl.store.extractedLinks()].map((l) => l.url));
await crawl.close();
await site.close();
const demoResults = experiment(demo);

const svg = (results: SimulationResult[], title: string) =>
  lineChartSvg(
    POLICIES.map((p) => ({ name: p, points: SIZES.map((s) => [s, results.find((r) => r.policy === p && r.size === s)!.missRate] as [number, number]) })),
    { title, xLabel: 'cache entries', yLabel: 'miss rate', log2X: true },
  );
writeFileSync(join(repo, 'docs', 'img', 'seen-generated.svg'), svg(genResults, `Generated web: ${generated.length.toLocaleString('en')} links`));
writeFileSync(join(repo, 'docs', 'img', 'seen-demo.svg'), svg(demoResults, `Demo crawl: ${demo.length.toLocaleString('en')} links`));

const distinct = (t: Float64Array) => new Set(t).size;
const section = `
## ${new Date().toISOString().slice(0, 10)}: the URL-seen test

Command: \`npm run build && node --expose-gc dist/bench/seen/run.js\`
Machine: ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, one core.

| set of ${N.toLocaleString('en')} URLs (60 bytes each) | lookups/s incl. hashing (half hits, half misses) | bytes per stored URL |
|---|---|---|
| FingerprintSet | ${(fpRate / 1e6).toFixed(2)} M (target >= 2 M) | ${(fpBytes / N).toFixed(1)} (target <= 12; its tables) |
| Set<string> of the URL strings | ${(strRate / 1e6).toFixed(2)} M | ${(strMem.bytes / N).toFixed(1)} (heap growth, strings included) |

Miss rates, generated web (${generated.length.toLocaleString('en')} links, ${distinct(generated).toLocaleString('en')} distinct; ${DEFAULT_TRACE_WEB.hosts} hosts, site-wide navigation, heavy-tailed popularity; plot: docs/img/seen-generated.svg):

${missRateTable(genResults, [...POLICIES], SIZES)}

Miss rates, a real crawl of the demo site (20,000 pages, best-first; ${demo.length.toLocaleString('en')} links, ${distinct(demo).toLocaleString('en')} distinct; plot: docs/img/seen-demo.svg):

${missRateTable(demoResults, [...POLICIES], SIZES)}

The static cache holds the most frequent URLs of the first 10% of the trace.
`;
process.stdout.write(section);
if (record) appendFileSync(join(repo, 'bench', 'RESULTS.md'), section);
