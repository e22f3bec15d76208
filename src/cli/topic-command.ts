import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { FocusCrawlError, fileError } from '../errors.js';
import { HttpFetcher } from '../fetch/http-fetcher.js';
import { rankTerms } from '../relevance/tfidf-ranking.js';
import { DEFAULT_ABBREVIATIONS, learnLinkKeywords } from '../relevance/link-keywords.js';
import { expandRefs, loadPage } from './load-document.js';
import { positiveInt } from './option-parsers.js';
import { openReader } from './open-reader.js';
import { count } from './progress.js';
import { isHttpUrl } from '../parse/normalize-url.js';

/** "1 sample page", "2 sample pages": the header and the table are read by people. */

/**
 * The dashboard's labels as samples: pages labelled relevant are samples, pages labelled not
 * relevant join the background (they are what the topic must rank low), with their stored text.
 */
async function labelledTexts(o: { db: string }): Promise<{ samples: string[]; background: string[] }> {
  const open = await openReader(o);
  try {
    const pages = await open.reader.labelledPages();
    if (!pages.length) throw new FocusCrawlError('USAGE', `${open.label} holds no labelled pages: label some with focuscrawl serve first`);
    const text = (p: { title: string; text: string }) => `${p.title} ${p.text}`;
    return { samples: pages.filter((p) => p.relevant).map(text), background: pages.filter((p) => !p.relevant).map(text) };
  } finally {
    await open.close();
  }
}

const isJsonFile = (file: string) => /\.json$/i.test(file);

/** A topic file as its name asks: JSON for a .json file (which holds no comments, so no header), else YAML with the header as comments. */
function topicFileText(file: string, header: string, body: Record<string, unknown>): string {
  return isJsonFile(file) ? JSON.stringify(body, null, 2) + '\n' : header + stringify(body);
}

/** The lines of a text file that hold something, with their numbers, comments (#) and blanks left out. */
function readLines(file: string, what: string): { line: number; text: string }[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new FocusCrawlError('IO', `cannot read ${what} file ${file}: ${fileError(err)}`);
  }
  if (bytes.subarray(0, 8192).includes(0)) throw new FocusCrawlError('USAGE', `${what} file ${file} is not a text file (it holds binary data)`);
  return bytes
    .toString('utf8')
    .split(/\r?\n/)
    .map((l, i) => ({ line: i + 1, text: l.replace(/(^|\s)#.*/, '').trim() }))
    .filter((l) => l.text);
}

function writeOut(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (err) {
    throw new FocusCrawlError('IO', `cannot write ${file}: ${fileError(err, 'write')}`);
  }
}

function readCandidates(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new FocusCrawlError('IO', `cannot read candidates file ${file}: ${fileError(err)}`);
  }
  // A term listed twice is one candidate (it was ranked, and printed, twice).
  const terms = [...new Set(text.split(/\r?\n/).map((l) => l.replace(/#.*/, '').trim()).filter(Boolean))];
  if (!terms.length) throw new FocusCrawlError('USAGE', `candidates file ${file} lists no terms`);
  return terms;
}

export function registerTopic(program: Command): void {
  const topic = program.command('topic').description('build topic files');
  topic
    .command('learn')
    .description('rank terms by TF-IDF over sample pages and write a topic file (method B)')
    .option('--samples <refs...>', 'sample pages: URLs, HTML files, or folders of HTML files')
    // --db only: topic learn's --name is the topic's name, so a shared crawl's --name cannot be taken here.
    .option('--db <file>', "also take the pages labelled in this crawl's dashboard: relevant ones as samples, not relevant ones as background")
    .option('--candidates <file>', 'candidate terms, one per line; without it every sample word is a candidate')
    .option('--background <refs...>', 'pages not about the topic, for document frequencies (needed without --candidates)')
    .option('--top <n>', 'terms to keep (default 10, as in the source)', positiveInt, 10)
    .option('--name <name>', 'topic name (default: the best term)')
    .option('--stem', 'Porter-stem English words')
    .requiredOption('--out <file>', 'topic file to write (an existing one only with --force)')
    .option('--force', 'overwrite --out if it exists')
    .action(async (o: { db?: string; samples?: string[]; candidates?: string; background?: string[]; top: number; name?: string; stem?: boolean; out: string; force?: boolean }) => {
      const fromLabels = o.db !== undefined ? await labelledTexts({ db: o.db }) : { samples: [], background: [] };
      if (!o.samples?.length && !fromLabels.samples.length) throw new FocusCrawlError('USAGE', 'give --samples, or --db with pages labelled relevant');
      const candidates = o.candidates ? readCandidates(o.candidates) : null;
      if (!candidates && !o.background?.length && !fromLabels.background.length) {
        throw new FocusCrawlError('USAGE', 'without --candidates, give --background pages (or label some pages not relevant) so that common words rank low');
      }
      // Checked before the samples are fetched: a hand-tuned topic file is easy to lose by a repeated command.
      if (!o.force && existsSync(o.out)) throw new FocusCrawlError('USAGE', `--out ${o.out} exists: give --force to overwrite it, or choose another file`);
      const fetcher = new HttpFetcher();
      try {
        const text = async (refs: string[]) => {
          const out: string[] = [];
          for (const ref of expandRefs(refs)) {
            const p = await loadPage(ref, fetcher);
            out.push(`${p.title} ${p.text}`);
          }
          return out;
        };
        const samples = [...(await text(o.samples ?? [])), ...fromLabels.samples];
        if (!samples.length) throw new FocusCrawlError('USAGE', `no sample pages found in ${(o.samples ?? []).join(' ')}`);
        const background = [...(await text(o.background ?? [])), ...fromLabels.background];
        const ranked = rankTerms(samples, { candidates, background, tokenize: { stem: o.stem === true } }).slice(0, o.top);
        if (!ranked.length) throw new FocusCrawlError('USAGE', `no candidate term occurs in the samples (${[...(o.samples ?? []), ...(fromLabels.samples.length ? [`${count(fromLabels.samples.length, 'labelled page')}`] : [])].join(', ')}): are they empty?`);
        const max = ranked[0]!.weight;
        const keywords = Object.fromEntries(ranked.map((r) => [r.term, Math.round((10_000 * r.weight) / max) / 10_000]));
        const header = `# Written by focuscrawl topic learn from ${count(samples.length, 'sample page')}${background.length ? ` and ${count(background.length, 'background page')}` : ''}.\n# Weights: TF-IDF, scaled so the best term is 1.\n`;
        const body: Record<string, unknown> = { name: o.name ?? ranked[0]!.term, keywords };
        if (o.stem) body.stem = true;
        try {
          writeFileSync(o.out, topicFileText(o.out, header, body));
        } catch (err) {
          throw new FocusCrawlError('IO', `cannot write ${o.out}: ${fileError(err, 'write')}`);
        }
        process.stdout.write(ranked.map((r) => `${r.term}\t${r.weight.toFixed(5)}\t(in ${r.df} of ${count(samples.length, 'sample')})`).join('\n') + `\nwrote ${o.out}\n`);
      } finally {
        await fetcher.close();
      }
    });
  topic
    .command('learn-links')
    .description("learn method B's link keywords: the most frequent words of sample service links")
    .requiredOption('--links <file>', 'service links (URLs), one a line; # starts a comment')
    .option('--top <n>', 'keywords to keep (default 10, as in the source)', positiveInt, 10)
    .option('--abbreviations <list>', `acronyms kept at the weaker level, never keywords (default ${DEFAULT_ABBREVIATIONS.join(',')})`, (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .requiredOption('--out <file>', 'topic-file fragment to write (links: keywords, abbreviations); an existing file only with --force')
    .option('--force', 'overwrite --out if it exists')
    .action((o: { links: string; top: number; abbreviations?: string[]; out: string; force?: boolean }) => {
      // The fragment is meant to be pasted into a topic file, so --out naming that file is an easy slip.
      if (!o.force && existsSync(o.out)) throw new FocusCrawlError('USAGE', `--out ${o.out} exists: give --force to overwrite it, or choose another file`);
      const lines = readLines(o.links, 'links');
      if (!lines.length) throw new FocusCrawlError('USAGE', `links file ${o.links} lists no link`);
      // Words are learned from the links' paths and queries: a line that is no URL has neither.
      const bad = lines.find((l) => !isHttpUrl(l.text));
      if (bad) throw new FocusCrawlError('USAGE', `${o.links}:${bad.line}: '${bad.text.slice(0, 200)}' is not an http(s) URL (one link a line)`);
      // A link listed twice is one link: counted twice, its words would look twice as common.
      const urls = [...new Set(lines.map((l) => l.text))];
      const abbreviations = o.abbreviations ?? [...DEFAULT_ABBREVIATIONS];
      const ranked = learnLinkKeywords(urls, { top: o.top, abbreviations });
      if (!ranked.length) throw new FocusCrawlError('USAGE', `no word found in the paths and queries of ${o.links}`);
      const header = `# Written by focuscrawl topic learn-links from ${urls.length} service links: the ${ranked.length} words in most of them\n# (path and query), and the acronyms kept at the weaker level.\n`;
      // One flow list a line, words quoted only where YAML would read them as something else.
      const list = (xs: string[]) => `[${xs.map((x) => (/^[\p{L}][\p{L}\p{N}_-]*$/u.test(x) && !/^(?:true|false|null|yes|no|on|off|y|n)$/i.test(x) ? x : JSON.stringify(x))).join(', ')}]`;
      const fragment = `${header}links:\n  keywords: ${list(ranked.map((r) => r.word))}\n  abbreviations: ${list(abbreviations)}\n`;
      writeOut(o.out, isJsonFile(o.out) ? topicFileText(o.out, header, { links: { keywords: ranked.map((r) => r.word), abbreviations } }) : fragment);
      process.stdout.write(ranked.map((r) => `${r.word}\tin ${r.links} of ${urls.length} links`).join('\n') + `\nwrote ${o.out}\n`);
    });
}
