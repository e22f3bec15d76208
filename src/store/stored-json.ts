import { FocusCrawlError } from '../errors.js';

/**
 * A JSON value the crawl stored (its config, its last run, ...), read back: one that does not
 * parse was damaged outside focuscrawl, and is named in one line rather than failing with
 * JSON.parse's own error from deep inside a command. `where`: the database file or shared crawl;
 * `key` may be a function, so a value read per row names its row without a string built per row.
 */
export function parseStored<T>(value: string, key: string | (() => string), where: string): T {
  try {
    return JSON.parse(value) as T;
  } catch (err) {
    throw new FocusCrawlError('STORE', `${where} is damaged: its stored '${typeof key === 'function' ? key() : key}' is not JSON (${(err as Error).message.split('\n')[0]}); restore it from a backup, or crawl again into a new one`);
  }
}
