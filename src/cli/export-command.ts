import type { Command } from 'commander';
import { FocusCrawlError } from '../errors.js';
import { formatLinks, formatLog } from '../store/export-log.js';
import { SqliteStore } from '../store/sqlite-store.js';
import type { SharedFlags } from '../distributed/shared-target.js';
import { openExistingDb, runningLine } from './open-existing-db.js';
import { openReader } from './open-reader.js';
import { withSharedOptions } from './shared-options.js';
import { oneOf } from './option-parsers.js';
import { checkOutputFile, writeChunks } from './output-file.js';

export function registerExport(program: Command): void {
  withSharedOptions(program.command('export').description('write the crawl log (one record per URL that reached a final state, in that order) or every extracted link'))
    .option('--db <file>', 'crawl database (default focuscrawl.db)')
    .option('--what <what>', 'log (default) | links: every link extracted from fetched pages, in extraction order', oneOf(['log', 'links'] as const), 'log')
    .option('--format <format>', 'jsonl | csv (log, default jsonl); txt | jsonl | csv (links, default txt: one URL per line)', oneOf(['jsonl', 'csv', 'txt'] as const))
    .option('--out <file>', 'output file (default standard output)')
    .action(async (o: SharedFlags & { db?: string; what: 'log' | 'links'; format?: 'jsonl' | 'csv' | 'txt'; out?: string }) => {
      const format = o.format ?? (o.what === 'links' ? 'txt' : 'jsonl');
      if (o.what === 'log' && format === 'txt') throw new FocusCrawlError('USAGE', '--format txt is for --what links; the log is jsonl or csv');
      checkOutputFile(o.out);
      if (o.what === 'log') {
        const open = await openReader(o);
        if (open.running) process.stderr.write(`focuscrawl: ${open.running}: this is what it has committed so far\n`);
        try {
          await writeChunks(o.out, formatLog(open.reader.logEntries(), format as 'jsonl' | 'csv'));
        } finally {
          await open.close();
        }
        return;
      }
      if (o.name) throw new FocusCrawlError('USAGE', '--what links is for the embedded crawl: a shared crawl exports its log');
      const path = o.db ?? 'focuscrawl.db';
      const { db, running } = openExistingDb(path);
      // The records committed so far: the running crawl adds more.
      if (running) process.stderr.write(`focuscrawl: ${runningLine(path, running)}: this is what it has committed so far\n`);
      try {
        await writeChunks(o.out, formatLinks(new SqliteStore(db).extractedLinks(), format));
      } finally {
        await db.close();
      }
    });
}
