import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { FocusCrawlError } from '../errors.js';
import { formatLog } from '../store/export-log.js';
import { SqliteStore } from '../store/sqlite-store.js';
import { openExistingDb } from './open-existing-db.js';
import { oneOf } from './option-parsers.js';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('write the crawl log: one record per URL that reached a final state, in that order')
    .requiredOption('--db <file>', 'crawl database')
    .option('--format <format>', 'jsonl | csv', oneOf(['jsonl', 'csv'] as const), 'jsonl')
    .option('--out <file>', 'output file (default standard output)')
    .action(async (o: { db: string; format: 'jsonl' | 'csv'; out?: string }) => {
      const db = openExistingDb(o.db);
      const out = o.out ? createWriteStream(o.out) : process.stdout;
      if (o.out) {
        await Promise.race([
          once(out, 'open'),
          once(out, 'error').then(([err]) => {
            throw new FocusCrawlError('IO', `cannot write ${o.out}: ${(err as Error).message}`);
          }),
        ]);
      }
      try {
        for (const chunk of formatLog(new SqliteStore(db).logEntries(), o.format)) {
          if (!out.write(chunk)) await once(out, 'drain');
        }
      } finally {
        await db.close();
        if (o.out) await new Promise<void>((r) => out.end(() => r()));
      }
    });
}
