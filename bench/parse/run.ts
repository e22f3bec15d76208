import { appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHtml } from '../../src/parse/html-page.js';

/**
 * bench/parse: the parse time of hostile pages, each under the 5 MB body limit, on this thread.
 * Unclosed elements are what made htmlparser2 quadratic (its open-element stack); the parse
 * now restarts past MAX_OPEN_ELEMENTS. Ordinary pages are bench/score's.
 *
 *   node dist/bench/parse/run.js [--rounds 3] [--no-record]
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const argv = process.argv.slice(2);
const at = argv.indexOf('--rounds');
const rounds = at >= 0 ? Number(argv[at + 1]) || 3 : 3;

const cases: [string, string][] = [
  ['100,000 unclosed `<span>x`', '<html><body>' + '<span>x'.repeat(100_000)],
  ['1,200,000 unclosed `<b>x` (4.8 MB)', '<html><body>' + '<b>x'.repeat(1_200_000)],
  ['200,000 unclosed `<a href>x`', '<html><body>' + '<a href="/p">x'.repeat(200_000)],
  ['200,000 unclosed `<div>x`', '<html><body>' + '<div>x'.repeat(200_000)],
  ['1,000 `<div>` then 1,000,000 unmatched `</x>`', '<html><body>' + '<div>'.repeat(1000) + '</x>'.repeat(1_000_000)],
  ['100,000 unclosed `<svg>`', '<html><body>' + '<svg>'.repeat(100_000)],
  ['100,000 closed `<p><a href>x</a></p>` (control)', '<html><body>' + '<p><a href="/p">x</a></p>'.repeat(100_000)],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const lines = [
  `## bench/parse (${new Date().toISOString().slice(0, 10)}): hostile pages, one core`,
  '',
  `Command: \`npm run build && node dist/bench/parse/run.js --rounds ${rounds}\``,
  `Node ${process.version}. Parse with link context (40) and service text, as a services crawl does.`,
  '',
  '| page | MB | ms, median of ' + rounds + ' | links | text chars |',
  '|---|---|---|---|---|',
];
for (const [name, html] of cases) {
  const ms: number[] = [];
  let links = 0;
  let chars = 0;
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    const p = parseHtml(html, 'http://127.0.0.1/hostile', 'UTF-8', { linkContext: 40, serviceText: true });
    ms.push(performance.now() - t);
    links = p.links.length;
    chars = p.text.length;
  }
  const row = `| ${name} | ${(html.length / 1e6).toFixed(1)} | ${median(ms).toFixed(0)} | ${links} | ${chars} |`;
  console.log(row);
  lines.push(row);
}
if (!argv.includes('--no-record')) appendFileSync(join(repo, 'bench', 'RESULTS.md'), '\n' + lines.join('\n') + '\n');
