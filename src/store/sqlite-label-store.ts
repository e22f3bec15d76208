import Database from 'better-sqlite3';
import type { LabelStore } from './label-store.js';

/** The labels table; created on the first label, so crawl databases without labels are unchanged. */
export const SQLITE_LABELS = 'CREATE TABLE IF NOT EXISTS labels (url TEXT PRIMARY KEY, relevant INTEGER NOT NULL, labelled_at TEXT NOT NULL)';

/**
 * Labels in the crawl database, through a connection of their own: the reader's connection is
 * read-only while a crawl holds the file, and WAL lets this one write between the crawl's
 * transactions (the busy timeout waits out the writer thread's short ones).
 */
export class SqliteLabelStore implements LabelStore {
  readonly #db: Database.Database;

  constructor(path: string) {
    this.#db = new Database(path, { fileMustExist: true });
    this.#db.pragma('busy_timeout = 5000');
  }

  async label(url: string, relevant: boolean): Promise<void> {
    this.#db.exec(SQLITE_LABELS);
    this.#db
      .prepare('INSERT INTO labels(url, relevant, labelled_at) VALUES (?, ?, ?) ON CONFLICT(url) DO UPDATE SET relevant = excluded.relevant, labelled_at = excluded.labelled_at')
      .run(url, relevant ? 1 : 0, new Date().toISOString());
  }

  async close(): Promise<void> {
    this.#db.close();
  }
}
