import { count } from './progress.js';
import type { Command } from 'commander';
import { formatOfFile } from './format-of-file.js';
import { FocusCrawlError } from '../errors.js';
import { GROUP_DEFAULTS, GroupStopped, runGroupCrawl, type GroupCrawlOptions, type GroupReport, type RankedPage } from '../group/group-crawl.js';
import { readExamplesFile, readSitesFile } from '../group/group-inputs.js';
import { PATH_SEPARATOR } from '../group/anchor-path.js';
import { loadTopicFile } from '../relevance/topic.js';
import { csvField, jsonEnd, jsonRecord, type RecordFormat } from '../store/export-log.js';
import { nonNegativeInt, oneOf, positiveInt } from './option-parsers.js';
import { checkOutputFile, checkOutputNotInput, writeChunks } from './output-file.js';

/** The flags; the crawl settings among them have GroupCrawlOptions' names and meanings. */
interface GroupFlags extends Pick<GroupCrawlOptions, 'db' | 'concurrency' | 'perHost' | 'delayMs' | 'robots' | 'userAgent'> {
  sites: string;
  examples: string;
  method: 'bfc' | 'fc';
  budgetPerSite?: number;
  iterations?: number;
  threshold?: number;
  nameWeight?: number;
  topic?: string;
  topicWeight?: number;
  fcRelevance?: number;
  pathSearch?: number;
  all?: boolean;
  out?: string;
  format?: RecordFormat;
}

const unitInterval = (flag: string) => (v: string): number => {
  const n = Number(v);
  if (!(v.trim() !== '' && n >= 0 && n <= 1)) throw new FocusCrawlError('USAGE', `${flag}: '${v}' is not a number from 0 to 1`);
  return n;
};

function positiveNumber(v: string): number {
  const n = Number(v);
  if (!(n > 0 && Number.isFinite(n))) throw new FocusCrawlError('USAGE', `--fc-relevance: '${v}' is not a positive number`);
  return n;
}

/** The output rows: site, url, path (anchors from the root joined with ' > '), score, and target with --all. */
function* formatRanking(pages: RankedPage[], format: RecordFormat, all: boolean): Iterable<string> {
  if (format === 'csv') yield (all ? 'site,url,path,score,target' : 'site,url,path,score') + '\r\n';
  let none = true;
  for (const p of pages) {
    if (!all && !p.target) continue;
    const row = { site: p.site, url: p.url, path: p.path.join(PATH_SEPARATOR), score: Math.round(p.score * 1e4) / 1e4, ...(all ? { target: p.target } : {}) };
    yield format === 'csv' ? Object.values(row).map(csvField).join(',') + '\r\n' : jsonRecord(row, format, none);
    none = false;
  }
  yield jsonEnd(format, none);
}

export function registerGroup(program: Command): void {
  program
    .command('group')
    .description('collect one kind of page from a group of similar sites, from a few examples (method D)')
    .requiredOption('--sites <file>', 'site roots, one per line (optionally a tab and a name)')
    .requiredOption('--examples <file>', 'example pages: site_root<TAB>page_url per line')
    .option('--method <method>', 'bfc: the bootstrapping crawler (default); fc: the kNN focused-crawler baseline', oneOf(['bfc', 'fc'] as const), 'bfc')
    .option('--budget-per-site <n>', `pages fetched per site over the run (default ${GROUP_DEFAULTS.budgetPerSite})`, positiveInt)
    .option('--iterations <k>', `bootstrap rounds at most (default ${GROUP_DEFAULTS.iterations})`, positiveInt)
    .option('--threshold <x>', 'bfc: return the pages whose score reaches x, in place of the adaptive selection', unitInterval('--threshold'))
    .option('--name-weight <x>', `bfc: how much a page's name (title, in-link anchors) counts against its words in the ranking (default ${GROUP_DEFAULTS.nameWeight}; 0: words only)`, unitInterval('--name-weight'))
    .option('--topic <file>', 'bfc: a topic file whose keywords (in both languages, when the group has both) also recognise the kind, beside the examples')
    .option('--topic-weight <x>', `bfc: the most a link or page scores from the topic keywords alone (default ${GROUP_DEFAULTS.topicWeight})`, unitInterval('--topic-weight'))
    .option('--fc-relevance <x>', `fc: a page is relevant when its kNN score reaches x times the examples' mutual similarity (default ${GROUP_DEFAULTS.fcRelevance})`, positiveNumber)
    .option('--path-search <n>', `pages path extraction may fetch to reach an example (default ${GROUP_DEFAULTS.pathSearchPages})`, positiveInt)
    .option('--all', 'write every fetched page, with a target column, not only the targets')
    .option('--out <file>', 'output file (default standard output)')
    .option('--format <format>', 'jsonl | json | csv (default: what --out ends in, .csv or .json, else jsonl; json: one array)', oneOf(['jsonl', 'json', 'csv'] as const))
    .option('--db <file>', 'crawl database; running again on it continues the run (default focuscrawl-group.db)', 'focuscrawl-group.db')
    .option('--concurrency <n>', 'requests in flight over all sites (default 16)', positiveInt, 16)
    .option('--per-host <n>', 'requests in flight per site (default 2)', positiveInt, 2)
    .option('--delay-ms <n>', 'minimum delay between requests to a site (default 250)', nonNegativeInt, 250)
    .option('--user-agent <ua>', 'User-Agent header')
    .option('--no-robots', 'ignore robots.txt (only for sites you own)')
    .action(async (o: GroupFlags) => {
      checkOutputFile(o.out);
      checkOutputNotInput(o.out, [{ flag: '--db', file: o.db }, { flag: '--sites', file: o.sites }, { flag: '--examples', file: o.examples }, { flag: '--topic', file: o.topic }]);
      const sites = readSitesFile(o.sites);
      const examples = readExamplesFile(o.examples, sites);
      if (o.topic && o.method === 'fc') throw new FocusCrawlError('USAGE', '--topic: only the bootstrapping crawler (--method bfc) reads a topic');
      const topicKeywords = o.topic ? loadTopicFile(o.topic).keywords : null;
      const format = o.format ?? formatOfFile(o.out, ['csv', 'jsonl', 'json'] as const) ?? 'jsonl';
      const log = (line: string) => process.stderr.write(`[focuscrawl group] ${line}\n`);
      // Ctrl-C or SIGTERM: the requests in flight are given back and the run ends without a
      // ranking; a second signal quits at once. Either way the database keeps what was fetched.
      const stop = new AbortController();
      let signals = 0;
      const onSignal = (signal: NodeJS.Signals) => {
        if (++signals > 1) process.exit(130);
        process.stderr.write(`\n[focuscrawl group] stopping${signal === 'SIGINT' ? '' : ` (${signal})`}: the requests in flight are given back (${signal === 'SIGINT' ? 'Ctrl-C again' : 'a second signal'} to quit now)\n`);
        stop.abort();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      let report: GroupReport;
      try {
        report = await runGroupCrawl({
          sites, examples, method: o.method,
          budgetPerSite: o.budgetPerSite ?? GROUP_DEFAULTS.budgetPerSite,
          iterations: o.iterations ?? GROUP_DEFAULTS.iterations,
          selection: GROUP_DEFAULTS.selection,
          ...(o.threshold !== undefined ? { threshold: o.threshold } : {}),
          fcRelevance: o.fcRelevance ?? GROUP_DEFAULTS.fcRelevance,
          deadEndWeight: GROUP_DEFAULTS.deadEndWeight,
          shapeWeight: GROUP_DEFAULTS.shapeWeight,
          nameWeight: o.nameWeight ?? GROUP_DEFAULTS.nameWeight,
          topicKeywords,
          topicWeight: o.topicWeight ?? GROUP_DEFAULTS.topicWeight,
          pathSearchPages: o.pathSearch ?? GROUP_DEFAULTS.pathSearchPages,
          addPerRound: GROUP_DEFAULTS.addPerRound,
          db: o.db, concurrency: o.concurrency, perHost: o.perHost, delayMs: o.delayMs, robots: o.robots,
          ...(o.userAgent !== undefined ? { userAgent: o.userAgent } : {}),
          log,
          signal: stop.signal,
        });
      } catch (err) {
        if (!(err instanceof GroupStopped)) throw err;
        log(`stopped during ${err.stage}: nothing ranked or written; the pages fetched are kept in ${o.db}, and the same command run again continues from them`);
        process.exitCode = 130;
        return;
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      await writeChunks(o.out, formatRanking(report.pages, format, o.all === true));
      const targets = report.pages.filter((p) => p.target);
      const withTargets = new Set(targets.map((p) => p.root)).size;
      log(`${count(targets.length, 'target page')} on ${withTargets} of ${count(sites.length, 'site')} (${count(report.pages.length, 'page')} fetched and ranked)${o.out ? `; written to ${o.out}` : ''}`);
      // Sites of which no page could be read (refused connections, errors, robots.txt): said, not
      // left for the reader to infer from the ranking; the crawl log has each one's reason.
      // By root: two sites may share a name.
      const read = new Set(report.pages.map((p) => p.root));
      const unread = sites.filter((s) => !read.has(s.root));
      if (unread.length) {
        const shown = unread.slice(0, 5).map((s) => s.root).join(', ');
        log(`${unread.length} of ${sites.length} sites gave no page to rank: ${shown}${unread.length > 5 ? ', …' : ''} (their reasons are in the crawl log: focuscrawl export --db ${o.db})`);
      }
    });
}
