import { appendFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPage, type SiteSpec } from '../../src/bench/generated-site.js';
import { decodeHtml } from '../../src/fetch/decode-body.js';
import { parseHtml } from '../../src/parse/html-page.js';

/**
 * What service detection adds to the parse (ParseOptions.serviceText): decode + parseHtml with
 * and without it, on bench/score's pages (8-15 KB, 1 in 6 Chinese), and on the same pages with
 * 20 endpoint URLs printed in <code> blocks and a script holding 10 more. The two variants run in
 * alternating rounds on one core, so that load from other processes hits both alike, timed in
 * CPU time of this process; the figure is the median round.
 *
 *   npm run build && node dist/bench/services/parse-cost.js [--pages 2000] [--rounds 15] [--no-record]
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const argv = process.argv.slice(2);
const opt = (name: string, def: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) || def : def);
const pages = opt('--pages', 2000);
const rounds = opt('--rounds', 15);
const spec: SiteSpec = { pages, seed: 42, words: [1200, 1950], links: [20, 40] };
const plain = Array.from({ length: pages }, (_x, i) => renderPage(spec, i)!);
const endpoints = (i: number) =>
  Array.from({ length: 20 }, (_x, k) => `<p>Endpoint ${k}: <code>https://geo${i % 7}.example.org/ows${k}?SERVICE=WMS&amp;REQUEST=GetCapabilities</code>.</p>`).join('') +
  `<script>var cfg = {${Array.from({ length: 10 }, (_x, k) => `"s${k}": "https:\\/\\/geo.example.org\\/wfs${k}?service=WFS"`).join(', ')}};</script>`;
const dense = plain.map((html, i) => html.replace('</body>', `${endpoints(i)}</body>`));

const parse = (docs: string[], serviceText: boolean) => () => {
  for (const html of docs) {
    const { html: text, encoding } = decodeHtml(Buffer.from(html), 'text/html');
    parseHtml(text, 'http://127.0.0.1/p/1', encoding, { serviceText });
  }
};

/** Median microseconds per page of `a` and `b`, run in alternating rounds after a warm-up of each. */
function ab(docs: string[]): { off: number; on: number; found: number } {
  const off = parse(docs, false);
  const on = parse(docs, true);
  for (let w = 0; w < 3; w++) {
    off();
    on();
  }
  const t: { off: number[]; on: number[] } = { off: [], on: [] };
  for (let r = 0; r < rounds; r++) {
    for (const [name, f] of r % 2 ? ([['on', on], ['off', off]] as const) : ([['off', off], ['on', on]] as const)) {
      // CPU time of this process, not wall time: other processes on the machine do not count.
      const t0 = process.cpuUsage();
      f();
      const used = process.cpuUsage(t0);
      t[name].push((used.user + used.system) / docs.length);
    }
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const found = docs.reduce((n, html) => n + (parseHtml(html, 'http://127.0.0.1/p/1', 'UTF-8', { serviceText: true }).serviceText?.urls.length ?? 0), 0);
  return { off: median(t.off), on: median(t.on), found };
}

const rows = [['bench/score pages', ab(plain)], ['the same with 30 endpoint URLs in text and script', ab(dense)]] as const;
const table = [
  '| pages | parse, detection off (µs/page) | parse, detection on (µs/page) | added | URLs found per page |',
  '|---|---|---|---|---|',
  ...rows.map(([name, r]) => `| ${name} | ${r.off.toFixed(0)} | ${r.on.toFixed(0)} | ${(100 * (r.on / r.off - 1)).toFixed(1)}% | ${(r.found / pages).toFixed(1)} |`),
].join('\n');
process.stdout.write(table + '\n');
if (!argv.includes('--no-record')) {
  appendFileSync(
    join(repo, 'bench', 'RESULTS.md'),
    `\n## bench/services parse cost of service text (${new Date().toISOString().slice(0, 10)})\n\nCommand: \`npm run build && node dist/bench/services/parse-cost.js --pages ${pages} --rounds ${rounds}\`\nMachine: ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; decode + parseHtml, alternating rounds, median CPU time.\n\n${table}\n`,
  );
}
