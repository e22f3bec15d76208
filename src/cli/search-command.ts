import { shownQuery } from '../store/query-words.js';
import { displayUrl } from '../parse/display-url.js';
import type { Command } from 'commander';
import type { SharedFlags } from '../distributed/shared-target.js';
import { openReader } from './open-reader.js';
import { positiveInt } from './option-parsers.js';
import { withSharedOptions } from './shared-options.js';

/**
 * Text as the terminal is given it: a page stored before the parser dropped control characters
 * (html-page.ts) may hold ESC sequences, which printed would recolour or clear the terminal.
 */
const plain = (s: string): string => s.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '');

export function registerSearch(program: Command): void {
  withSharedOptions(program.command('search').description('full-text search over the stored pages (all words must match; Chinese and English)'))
    .option('--db <file>', 'crawl database (default focuscrawl.db)')
    .option('--limit <n>', 'results to show (default 10); a last line says when more match', positiveInt, 10)
    .option('--json', 'print JSON lines')
    .argument('<query>', 'words to look for')
    .action(async (query: string, o: SharedFlags & { db?: string; limit: number; json?: boolean }) => {
      const open = await openReader(o);
      try {
        // One hit more than shown tells whether more match (the reader has no count).
        const found = await open.reader.search(query, o.limit + 1);
        const hits = found.slice(0, o.limit);
        const more = found.length > o.limit ? `… and more match: --limit ${o.limit * 2} shows more\n` : '';
        // Read-only during a crawl: pages stored since its last index batch are not found yet; a
        // read-only copy or a full disk leaves the pending ones out too.
        const lag = await open.searchLag();
        const said = [open.running, lag].filter(Boolean);
        if (said.length) process.stderr.write(`focuscrawl: ${said.join('; ')}\n`);
        if (o.json) {
          for (const h of hits) process.stdout.write(JSON.stringify(h) + '\n');
          // On stderr: standard output stays one JSON record a line.
          process.stderr.write(more);
          return;
        }
        if (!hits.length) process.stdout.write(`no page matches '${shownQuery(query)}'\n`);
        hits.forEach((h, i) => process.stdout.write(`${i + 1}. ${plain(h.title) || '(no title)'}\n   ${displayUrl(h.url)}\n   ${plain(h.snippet)}\n`));
        process.stdout.write(more);
      } finally {
        await open.close();
      }
    });
}
