import { existsSync } from 'node:fs';
import { FocusCrawlError } from '../errors.js';
import { SqliteCrawlReader } from '../store/sqlite-crawl-reader.js';
import type { SqliteDb } from '../store/sqlite-db.js';
import type { GroupCrawlOptions } from './group-crawl.js';

/**
 * Running again on a database continues its run: with other sites or examples it goes on, and
 * says so, since what was fetched for the old ones is ranked too.
 */
export function markGroupRun(db: SqliteDb, o: GroupCrawlOptions, log: (line: string) => void): void {
  const inputs = JSON.stringify({ sites: o.sites.map((s) => s.root), examples: o.examples.map((e) => e.url) });
  const before = db.getMeta('groupInputs');
  if (before && before !== inputs) log(`${o.db} was made with other sites or examples: this run continues it, and the pages fetched for them are ranked with the rest`);
  db.setMetaNow('groupInputs', inputs);
}

/**
 * With the other method a run would relabel the database and judge pages it never fetched for
 * that method: refused before the crawl opens it, so the database is left as it was (opening it
 * stores the run's seeds).
 */
export async function refuseOtherMethod(o: GroupCrawlOptions, method: 'bfc' | 'fc'): Promise<void> {
  if (!existsSync(o.db)) return;
  let name: string | undefined;
  try {
    const reader = SqliteCrawlReader.open(o.db);
    try {
      name = (await reader.strategy())?.name;
    } finally {
      await reader.close();
    }
  } catch {
    return; // a database that cannot be read is named by the crawl that opens it
  }
  const stored = name === 'bootstrap-group' ? 'bfc' : name === 'knn-focused' ? 'fc' : null;
  if (stored && stored !== method) {
    throw new FocusCrawlError('USAGE', `${o.db} holds a group crawl made with --method ${stored}: run it again with --method ${stored}, or give this one a database of its own (--db)`);
  }
}
