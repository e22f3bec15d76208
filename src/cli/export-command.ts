import type { Command } from 'commander';
import { FocusCrawlError } from '../errors.js';
import { formatLinks, formatLog } from '../store/export-log.js';
import { SqliteStore } from '../store/sqlite-store.js';
import { openExistingDb, runningLine } from './open-existing-db.js';
import { oneOf } from './option-parsers.js';
import { checkOutputFile, writeChunks } from './output-file.js';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('write the crawl log (one record per URL that reached a final state, in that order) or every extracted link')
    .requiredOption('--db <file>', 'crawl database')
    .option('--what <what>', 'log (default) | links: every link extracted from fetched pages, in extraction order', oneOf(['log', 'links'] as const), 'log')
    .option('--format <format>', 'jsonl | csv (log, default jsonl); txt | jsonl | csv (links, default txt: one URL per line)', oneOf(['jsonl', 'csv', 'txt'] as const))
    .option('--out <file>', 'output file (default standard output)')
    .action(async (o: { db: string; what: 'log' | 'links'; format?: 'jsonl' | 'csv' | 'txt'; out?: string }) => {
      const format = o.format ?? (o.what === 'links' ? 'txt' : 'jsonl');
      if (o.what === 'log' && format === 'txt') throw new FocusCrawlError('USAGE', '--format txt is for --what links; the log is jsonl or csv');
      checkOutputFile(o.out);
      const { db, running } = openExistingDb(o.db);
      // The records committed so far: the running crawl adds more.
      if (running) process.stderr.write(`focuscrawl: ${runningLine(o.db, running)}: this is what it has committed so far\n`);
      try {
        const store = new SqliteStore(db);
        await writeChunks(o.out, o.what === 'links' ? formatLinks(store.extractedLinks(), format) : formatLog(store.logEntries(), format as 'jsonl' | 'csv'));
      } finally {
        await db.close();
      }
    });
}
