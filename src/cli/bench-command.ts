import { createReadStream, createWriteStream, writeFileSync } from 'node:fs';
import { notTextLine } from '../config/seeds.js';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { InvalidArgumentError, type Command } from 'commander';
import { FocusCrawlError, fileError } from '../errors.js';
import { DEFAULT_TRACE_WEB, linkTrace } from '../bench/link-trace-web.js';
import { lineChartSvg } from '../bench/svg-line-chart.js';
import { POLICIES, simulate, type Policy, type SimulationResult } from '../seen/cache-simulator.js';
import { fingerprintKey } from '../seen/fingerprint.js';
import { positiveInt } from './option-parsers.js';
import { registerBenchStrategies } from './bench-strategies-command.js';

function sizesList(value: string): number[] {
  return value.split(',').map((v) => {
    const m = /^\s*(?:2\^(\d+)|(\d+))\s*$/.exec(v);
    const n = m ? (m[1] !== undefined ? 2 ** Number(m[1]) : Number(m[2])) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError(`'${v}' is not a size (a number or 2^k)`);
    return n;
  });
}

function policiesList(value: string): Policy[] {
  return value.split(',').map((p) => {
    if (!(POLICIES as readonly string[]).includes(p.trim())) throw new InvalidArgumentError(`'${p}' is not a policy (${POLICIES.join(', ')})`);
    return p.trim() as Policy;
  });
}

/** Writes a result file, or fails in one line naming it (a folder, a missing folder, no permission). */
function writeOut(file: string, data: string): void {
  try {
    writeFileSync(file, data);
  } catch (err) {
    throw new FocusCrawlError('IO', `cannot write ${file}: ${fileError(err, 'write')}`);
  }
}

/** Reads a trace file (one URL per line) into fingerprint keys. */
export async function readTrace(file: string): Promise<Float64Array> {
  let keys = new Float64Array(1 << 20);
  let n = 0;
  const input = createReadStream(file);
  const failed = once(input, 'error').then(([err]) => {
    throw new FocusCrawlError('IO', `cannot read trace ${file}: ${fileError(err)}`);
  });
  const read = (async () => {
    let lineNo = 0;
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      lineNo++;
      const url = line.trim();
      if (!url) continue;
      // A binary file read as lines would be simulated as a trace of nonsense URLs.
      if (notTextLine(url)) throw new FocusCrawlError('USAGE', `${file}:${lineNo}: bytes that are not UTF-8 text; a trace is a text file of URLs, one a line`);
      if (n === keys.length) {
        const bigger = new Float64Array(keys.length * 2);
        bigger.set(keys);
        keys = bigger;
      }
      keys[n++] = fingerprintKey(url);
    }
  })();
  await Promise.race([read, failed]);
  return keys.subarray(0, n);
}

export function missRateTable(results: SimulationResult[], policies: Policy[], sizes: number[]): string {
  const rate = (p: Policy, s: number) => results.find((r) => r.policy === p && r.size === s)!.missRate;
  const head = `| cache size | ${policies.join(' | ')} |\n|---|${policies.map(() => '---').join('|')}|`;
  const rows = sizes.map((s) => `| 2^${Math.log2(s).toFixed(0)} (${s}) | ${policies.map((p) => (100 * rate(p, s)).toFixed(2) + '%').join(' | ')} |`);
  return [head, ...rows].join('\n');
}

export function registerBench(program: Command): void {
  const bench = program.command('bench').description('benchmarks and experiments');
  registerBenchStrategies(bench);
  bench
    .command('trace')
    .description('write a synthetic link-extraction trace (a breadth-first crawl of a generated multi-host web), one URL per line')
    .requiredOption('--out <file>', 'trace file to write')
    .option('--links <n>', 'links to write (default 5000000)', positiveInt, 5_000_000)
    .option('--seed <n>', 'random seed (default 1)', positiveInt, 1)
    .action(async (o: { out: string; links: number; seed: number }) => {
      const out = createWriteStream(o.out);
      await Promise.race([once(out, 'open'), once(out, 'error').then(([e]) => { throw new FocusCrawlError('IO', `cannot write ${o.out}: ${(e as Error).message}`); })]);
      let buf = '';
      for (const url of linkTrace({ ...DEFAULT_TRACE_WEB, seed: o.seed }, o.links)) {
        buf += url + '\n';
        if (buf.length > 1 << 16) {
          if (!out.write(buf)) await once(out, 'drain');
          buf = '';
        }
      }
      await new Promise<void>((r) => out.end(buf, () => r()));
      process.stdout.write(`wrote ${o.links} links to ${o.out}\n`);
    });
  bench
    .command('seen')
    .description('replay a link trace through URL-seen caches and print miss rates per policy and size')
    .requiredOption('--trace <file>', 'trace: one URL per line (focuscrawl export --what links, or bench trace)')
    .option('--policies <list>', `comma-separated (default ${POLICIES.join(',')})`, policiesList, [...POLICIES])
    .option('--sizes <list>', 'cache sizes, numbers or 2^k (default 2^10,2^12,...,2^22)', sizesList, [10, 12, 14, 16, 18, 20, 22].map((k) => 2 ** k))
    .option('--plot <file>', 'write the miss-rate curves as SVG')
    .option('--json <file>', 'write the results as JSON')
    .action(async (o: { trace: string; policies: Policy[]; sizes: number[]; plot?: string; json?: string }) => {
      const trace = await readTrace(o.trace);
      const distinct = new Set(trace).size;
      process.stderr.write(`${trace.length} links, ${distinct} distinct (${((100 * distinct) / Math.max(1, trace.length)).toFixed(1)}%)\n`);
      const results: SimulationResult[] = [];
      for (const p of o.policies) {
        for (const s of o.sizes) {
          if (p === 'infinite' && results.some((r) => r.policy === 'infinite')) {
            results.push({ ...results.find((r) => r.policy === 'infinite')!, size: s });
            continue;
          }
          results.push(simulate(trace, p, s));
        }
      }
      process.stdout.write(`miss rates of ${o.trace} (${trace.length} links, ${distinct} distinct)\n\n${missRateTable(results, o.policies, o.sizes)}\n`);
      if (o.plot) {
        const svg = lineChartSvg(
          o.policies.map((p) => ({ name: p, points: o.sizes.map((s) => [s, results.find((r) => r.policy === p && r.size === s)!.missRate] as [number, number]) })),
          { title: `URL-seen cache miss rate (${trace.length.toLocaleString('en')} links)`, xLabel: 'cache entries', yLabel: 'miss rate', log2X: true },
        );
        writeOut(o.plot, svg);
      }
      if (o.json) writeOut(o.json, JSON.stringify({ trace: o.trace, links: trace.length, distinct, results }, null, 2));
    });
}
