import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isChinese, renderPage, type SiteSpec } from '../../src/bench/generated-site.js';
import { decodeHtml } from '../../src/fetch/decode-body.js';
import { parseHtml } from '../../src/parse/html-page.js';
import { levelScore } from '../../src/relevance/level-scorer.js';
import { anchorScore } from '../../src/relevance/link-scorers.js';
import { loadTopic } from '../../src/relevance/topic.js';
import { pageRelevance, vsmScore } from '../../src/relevance/vsm-scorer.js';
import { positionTerms } from '../../src/text/position-terms.js';
import { cjkBigrams } from '../../src/text/cjk-bigrams.js';
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/**
 * bench/score: decode + parse + score on one core (this thread), over generated pages of real
 * size (8-15 KB), English and Chinese. What a crawl spends per page before anything is stored.
 *
 *   node dist/bench/score/run.js [--pages 3000] [--no-record]
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const argv = process.argv.slice(2);
const pages = Number(argv[argv.indexOf('--pages') + 1] ?? 3000) || 3000;
const topic = loadTopic(join(repo, 'topics', 'demo-solar.yaml'));
const spec: SiteSpec = { pages, seed: 42, words: [1200, 1950], links: [20, 40] };
const docs = Array.from({ length: pages }, (_x, i) => ({ bytes: Buffer.from(renderPage(spec, i)!), zh: isChinese(spec, i) }));

interface Row {
  label: string;
  pages: number;
  mb: number;
  seconds: number;
  fastest: number;
  slowest: number;
}

const ROUNDS = 5;

/** The median of ROUNDS timed passes, after a warm-up pass (the JIT). */
function run(label: string, subset: typeof docs, work: (b: Buffer) => void): Row {
  for (const d of subset) work(d.bytes);
  const bytes = subset.reduce((n, d) => n + d.bytes.length, 0);
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (const d of subset) work(d.bytes);
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return { label, pages: subset.length, mb: bytes / 1e6, seconds: times[Math.floor(ROUNDS / 2)]!, fastest: times[0]!, slowest: times.at(-1)! };
}

const parseOnly = (b: Buffer) => {
  const { html, encoding } = decodeHtml(b, 'text/html');
  parseHtml(html, 'http://127.0.0.1/p/1', encoding);
};
/** The same with service detection on: URLs in text, script strings and attributes, .xml link words (Page.serviceText). */
const parseServiceText = (b: Buffer) => {
  const { html, encoding } = decodeHtml(b, 'text/html');
  parseHtml(html, 'http://127.0.0.1/p/1', encoding, { serviceText: true });
};
/** What a crawl does per page: the relevance it records and best-first orders by. */
const parseAndRelevance = (b: Buffer) => {
  const { html, encoding } = decodeHtml(b, 'text/html');
  pageRelevance(topic, parseHtml(html, 'http://127.0.0.1/p/1', encoding));
};
/** Every scorer with explanations, as `focuscrawl score` runs them. */
const parseAndScore = (b: Buffer) => {
  const { html, encoding } = decodeHtml(b, 'text/html');
  const page = parseHtml(html, 'http://127.0.0.1/p/1', encoding);
  const terms = positionTerms(page, topic.tokenizeOptions);
  vsmScore(topic, terms);
  levelScore(topic, terms);
  for (const l of page.links) anchorScore(topic, l.anchor);
};
/** The floor under parseHtml: htmlparser2's tokenizer with callbacks that do nothing. */
const noop = () => {};
const silent: TokenizerCallbacks = {
  onattribdata: noop, onattribentity: noop, onattribend: noop, onattribname: noop, oncdata: noop, onclosetag: noop, oncomment: noop,
  ondeclaration: noop, onend: noop, onopentagend: noop, onopentagname: noop, onprocessinginstruction: noop, onselfclosingtag: noop,
  ontext: noop, ontextentity: noop,
};
const tokenizeOnly = (b: Buffer) => {
  const t = new Tokenizer({ decodeEntities: true }, silent);
  t.write(decodeHtml(b, 'text/html').html);
  t.end();
};
/** The full-text index's form of a page's text (the writer's cjk_bigrams(), see cjk-bigrams.ts). */
const textOf = new Map<Buffer, string>(docs.map((d) => [d.bytes, parseHtml(decodeHtml(d.bytes, 'text/html').html, 'http://127.0.0.1/p/1').text]));
const bigramsOnly = (b: Buffer) => {
  cjkBigrams(textOf.get(b)!);
};
const en = docs.filter((d) => !d.zh);
const zh = docs.filter((d) => d.zh);
const rows = [
  run('decode + parse + relevance (the crawl path), all pages', docs, parseAndRelevance),
  run('  the same, English pages', en, parseAndRelevance),
  run('  the same, Chinese pages', zh, parseAndRelevance),
  run('decode + parse only, all pages', docs, parseOnly),
  run('decode + parse with service text (a crawl with --detect), all pages', docs, parseServiceText),
  run('decode + htmlparser2 Tokenizer alone (no-op callbacks), all pages', docs, tokenizeOnly),
  run('CJK bigrams of the parsed text (what the full-text index is given), all pages', docs, bigramsOnly),
  run('decode + parse + every scorer with explanations (VSM, level, every anchor), all pages', docs, parseAndScore),
];
const table = rows.map((r) => `| ${r.label} | ${r.pages} | ${(r.mb / r.seconds).toFixed(1)} (${(r.mb / r.slowest).toFixed(1)}-${(r.mb / r.fastest).toFixed(1)}) | ${(r.pages / r.seconds).toFixed(0)} |`).join('\n');
const all = rows[0]!;
const section = `
## ${new Date().toISOString().slice(0, 10)}: parse + score, one core

Command: \`npm run build && node dist/bench/score/run.js --pages ${pages}\`
Machine: ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. Topic: topics/demo-solar.yaml. Pages: the throughput site's (8-15 KB, 1 in 6 Chinese).

| work | pages | MB/s, median of ${ROUNDS} (range) | pages/s |
|---|---|---|---|
${table}

- parse + relevance: ${(all.mb / all.seconds).toFixed(1)} MB/s (target >= 20 MB/s)
`;
process.stdout.write(section);
if (!argv.includes('--no-record')) {
  const file = join(repo, 'bench', 'RESULTS.md');
  if (!existsSync(file)) writeFileSync(file, '# Benchmark results\n');
  appendFileSync(file, section);
}
