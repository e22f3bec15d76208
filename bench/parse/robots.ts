import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RobotsRules, robotsPathOf } from '../../src/fetch/robots-rules.js';

/**
 * bench/parse/robots: the time of one robots.txt check, robots-parser's matcher against
 * RobotsRules (src/fetch/robots-rules.ts), on an ordinary file and on hostile ones under the
 * 500 KiB read limit. A check runs on the crawl's one thread, so its time stalls every host.
 *
 *   node dist/bench/parse/robots.js [--checks 20] [--no-record]
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const argv = process.argv.slice(2);
const at = argv.indexOf('--checks');
const checks = at >= 0 ? Number(argv[at + 1]) || 20 : 20;
const require = createRequire(import.meta.url);
const robotsParser = require('robots-parser') as (url: string, text: string) => { isAllowed(url: string, ua?: string): boolean | undefined };

const origin = 'http://127.0.0.1:9';
const longPath = '/' + 'x'.repeat(1500) + '?q=1';
const file = (rules: string[]) => ['User-agent: *', ...rules].join('\n');
const cases: [string, string, string][] = [
  ['ordinary: 60 prefix rules', file(Array.from({ length: 60 }, (_, i) => `Disallow: /area${i}/`)), '/docs/page/17.html'],
  ['17,000 rules `/*x*x*x*x*x*qNz`, a 1,500-char path', file(Array.from({ length: 17_000 }, (_, i) => `Disallow: /*x*x*x*x*x*q${i}z`)), longPath],
  ['25,000 rules `/*aN`, a 1,500-char path', file(Array.from({ length: 25_000 }, (_, i) => `Disallow: /*a${i}`)), longPath],
  ['2,000 rules of 200 `*`s, a 1,500-char path', file(Array.from({ length: 2_000 }, (_, i) => `Disallow: /${'*x'.repeat(100)}${i}`)), longPath],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const lines = [
  `## bench/parse/robots (${new Date().toISOString().slice(0, 10)}): one robots.txt check`,
  '',
  `Command: \`npm run build && node dist/bench/parse/robots.js --checks ${checks}\``,
  `Node ${process.version}. Milliseconds per check, median of ${checks}.`,
  '',
  '| robots.txt | KiB | robots-parser ms | RobotsRules ms | same verdict |',
  '|---|---|---|---|---|',
];
for (const [name, text, path] of cases) {
  const robot = robotsParser(origin + '/robots.txt', text);
  const rules = RobotsRules.of(robot, 'focuscrawl')!;
  const url = origin + path;
  const theirs: number[] = [];
  const ours: number[] = [];
  let a = true;
  let b = true;
  for (let i = 0; i < checks; i++) {
    let t = performance.now();
    a = robot.isAllowed(url, 'focuscrawl') !== false;
    theirs.push(performance.now() - t);
    t = performance.now();
    b = rules.allows(robotsPathOf(new URL(url)));
    ours.push(performance.now() - t);
  }
  const row = `| ${name} | ${(text.length / 1024).toFixed(0)} | ${median(theirs).toFixed(3)} | ${median(ours).toFixed(3)} | ${a === b ? 'yes' : 'NO'} |`;
  console.log(row);
  lines.push(row);
}
if (!argv.includes('--no-record')) appendFileSync(join(repo, 'bench', 'RESULTS.md'), '\n' + lines.join('\n') + '\n');
