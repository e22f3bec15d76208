import type { Command } from 'commander';
import { FTS_BATCH, SqliteStore } from '../store/sqlite-store.js';
import { openExistingDb, runningLine } from './open-existing-db.js';
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
      const { db, running } = openExistingDb(o.db);
      try {
        const store = new SqliteStore(db);
        const hits = await store.search(query, o.limit);
        if (running) {
          // Read-only during a crawl: pages stored since its last index batch are not found yet.
          const pending = store.unindexed();
          const more = pending ? `; ${pending} pages stored so far are not yet searchable (the crawl indexes them in batches of ${FTS_BATCH} and at its end)` : '';
          process.stderr.write(`focuscrawl: ${runningLine(o.db, running)}${more}\n`);
        }
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
