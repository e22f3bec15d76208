import type { Command } from 'commander';
import { SqliteStore } from '../store/sqlite-store.js';
import { openExistingDb } from './open-existing-db.js';
import { positiveInt } from './option-parsers.js';

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('full-text search over the stored pages (all words must match; Chinese and English)')
    .requiredOption('--db <file>', 'crawl database')
    .option('--limit <n>', 'results to show (default 10)', positiveInt, 10)
    .option('--json', 'print JSON lines')
    .argument('<query>', 'words to look for')
    .action(async (query: string, o: { db: string; limit: number; json?: boolean }) => {
      const db = openExistingDb(o.db);
      try {
        const hits = await new SqliteStore(db).search(query, o.limit);
        if (o.json) {
          for (const h of hits) process.stdout.write(JSON.stringify(h) + '\n');
          return;
        }
        if (!hits.length) process.stdout.write(`no page matches '${query}'\n`);
        hits.forEach((h, i) => process.stdout.write(`${i + 1}. ${h.title || '(no title)'}\n   ${h.url}\n   ${h.snippet}\n`));
      } finally {
        await db.close();
      }
    });
}
