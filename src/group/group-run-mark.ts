import { FocusCrawlError } from '../errors.js';
import type { SqliteDb } from '../store/sqlite-db.js';
import type { GroupCrawlOptions } from './group-crawl.js';

/**
 * Running again on a database continues its run: with the other method it would relabel the
 * database and judge pages it never fetched for that method, so it is refused; with other sites
 * or examples it goes on, and says so, since what was fetched for the old ones is ranked too.
 */
export function markGroupRun(db: SqliteDb, o: GroupCrawlOptions, method: 'bfc' | 'fc', log: (line: string) => void): void {
  const stored = db.getMeta('groupMethod');
  if (stored && stored !== method) {
    throw new FocusCrawlError('USAGE', `${o.db} holds a group crawl made with --method ${stored}: run it again with --method ${stored}, or give this one a database of its own (--db)`);
  }
  const inputs = JSON.stringify({ sites: o.sites.map((s) => s.root), examples: o.examples.map((e) => e.url) });
  const before = db.getMeta('groupInputs');
  if (before && before !== inputs) log(`${o.db} was made with other sites or examples: this run continues it, and the pages fetched for them are ranked with the rest`);
  db.setMetaNow('groupInputs', inputs);
}
