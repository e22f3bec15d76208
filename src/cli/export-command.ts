import type { Command } from 'commander';
import { FocusCrawlError } from '../errors.js';
import { formatLinks, formatLog, type RecordFormat } from '../store/export-log.js';
import { formatPages } from '../store/export-pages.js';
import { formatOfFile } from './format-of-file.js';
import type { CrawlReader } from '../store/crawl-reader.js';
import { SqliteStore } from '../store/sqlite-store.js';
import type { SharedFlags } from '../distributed/shared-target.js';
import { openExistingDb, runningLine } from '../store/open-existing-db.js';
import { openReader } from './open-reader.js';
import { withSharedOptions } from './shared-options.js';
import { oneOf, unitNumber } from './option-parsers.js';
import { checkOutputFile, checkOutputNotInput, writeChunks } from './output-file.js';
import { RecordTally } from './record-tally.js';

/** Runs `write` on the crawl's read model (either backend), saying when a crawl still writes to it. */
async function fromReader(o: SharedFlags & { db?: string }, write: (reader: CrawlReader) => Promise<void>): Promise<void> {
  const open = await openReader(o);
  if (open.running) process.stderr.write(`focuscrawl: ${open.running}: this is what it has committed so far\n`);
  try {
    await write(open.reader);
  } finally {
    await open.close();
  }
}

export function registerExport(program: Command): void {
  withSharedOptions(program.command('export').description('write the crawl log (one record per URL that reached a final state, in that order), the stored pages with their text, or every extracted link'))
    .option('--db <file>', 'crawl database (default focuscrawl.db)')
    .option('--what <what>', 'log (default) | pages: every stored page with its text, in the order fetched | links: every link extracted from fetched pages, in extraction order', oneOf(['log', 'pages', 'links'] as const), 'log')
    .option('--format <format>', 'jsonl | json | csv (log and pages, default jsonl; json: one array); txt | jsonl | json | csv (links, default txt: one URL per line)', oneOf(['jsonl', 'json', 'csv', 'txt'] as const))
    .option('--relevant', "pages: only those the crawl's topic calls relevant (relevance >= its threshold)")
    .option('--min-relevance <x>', 'pages: only those whose relevance reached x (0 to 1)', unitNumber)
    .option('--out <file>', 'output file (default standard output); without --format its extension picks the format: .csv, .jsonl (or .ndjson), .json, .txt')
    .action(async (o: SharedFlags & { db?: string; what: 'log' | 'pages' | 'links'; format?: 'jsonl' | 'json' | 'csv' | 'txt'; out?: string; relevant?: boolean; minRelevance?: number }) => {
      // As Scrapy's -o: without --format the file's extension says it (crawl.csv), else the default.
      const byName = o.format ? null : formatOfFile(o.out, ['jsonl', 'json', 'csv', 'txt'] as const);
      if (byName === 'txt' && o.what !== 'links') throw new FocusCrawlError('USAGE', `--out ${o.out}: a .txt file is for --what links; ${o.what === 'log' ? 'the log is' : 'the pages are'} jsonl, json or csv (name the file .jsonl, .json or .csv, or give --format)`);
      const format = o.format ?? byName ?? (o.what === 'links' ? 'txt' : 'jsonl');
      if (o.what !== 'links' && format === 'txt') throw new FocusCrawlError('USAGE', `--format txt is for --what links; ${o.what === 'log' ? 'the log is' : 'the pages are'} jsonl, json or csv`);
      if (o.what !== 'pages' && (o.relevant || o.minRelevance !== undefined)) throw new FocusCrawlError('USAGE', `--${o.relevant ? 'relevant' : 'min-relevance'} is for --what pages`);
      if (o.relevant && o.minRelevance !== undefined) throw new FocusCrawlError('USAGE', '--relevant and --min-relevance: give one (--relevant is the topic threshold)');
      checkOutputFile(o.out);
      checkOutputNotInput(o.out, [{ flag: '--db', file: o.name ? undefined : (o.db ?? 'focuscrawl.db') }]);
      // One line on stderr once a file is written, as report and group say theirs; none on
      // standard output, where the records themselves go.
      const tally = new RecordTally();
      const said = (noun: string) => {
        if (o.out && o.out !== '-') process.stderr.write(tally.line(noun, o.out));
      };
      if (o.what === 'pages') {
        await fromReader(o, async (reader) => {
          let min = o.minRelevance ?? null;
          if (o.relevant || min !== null) {
            const flag = o.relevant ? '--relevant' : '--min-relevance';
            const threshold = (await reader.config())?.topic?.threshold;
            if (threshold === undefined) throw new FocusCrawlError('USAGE', `${flag}: ${o.name ? `crawl '${o.name}'` : (o.db ?? 'focuscrawl.db')} was crawled without a topic, so its pages have no relevance score to cut on; export them without ${flag}`);
            if (o.relevant) min = threshold;
          }
          await writeChunks(o.out, formatPages(tally.async(reader.storedPages(min)), format as RecordFormat));
        });
        return said('page');
      }
      if (o.what === 'log') {
        await fromReader(o, (reader) => writeChunks(o.out, formatLog(tally.async(reader.logEntries()), format as RecordFormat)));
        return said('log record');
      }
      if (o.name) throw new FocusCrawlError('USAGE', '--what links is for the embedded crawl: a shared crawl exports its log');
      const path = o.db ?? 'focuscrawl.db';
      const { db, running } = openExistingDb(path);
      // The records committed so far: the running crawl adds more.
      if (running) process.stderr.write(`focuscrawl: ${runningLine(path, running)}: this is what it has committed so far\n`);
      try {
        await writeChunks(o.out, formatLinks(tally.sync(new SqliteStore(db).extractedLinks()), format));
      } finally {
        await db.close();
      }
      said('link');
    });
}
