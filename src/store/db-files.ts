import { accessSync, constants, existsSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FocusCrawlError } from '../errors.js';

/** The files SQLite and the crawl lock keep beside a database: they are the database too. */
export const DB_SIDE_FILES = ['-wal', '-shm', '-journal', '-lock'] as const;

const statOf = (path: string): Stats | null => {
  try {
    return statSync(path);
  } catch {
    return null;
  }
};

/**
 * Refuses a path that cannot be a crawl database: a folder (SQLite says only "disk I/O error"),
 * a device or pipe (`/dev/null`: SQLite would leave its -journal and -lock beside it in /dev),
 * and, where an existing crawl is expected (`existing`), an empty file, which SQLite would take
 * for an empty database and write its schema into. A missing path passes: the caller says so,
 * or creates it.
 */
export function checkDbFile(path: string, opts: { existing?: boolean } = {}): void {
  const st = statOf(path);
  if (!st) return;
  if (st.isDirectory()) throw new FocusCrawlError('IO', `${path} is a folder, not a crawl database file: pass a file with --db`);
  if (!st.isFile()) throw new FocusCrawlError('IO', `${path} is not a regular file: pass a crawl database file with --db`);
  if (opts.existing && st.size === 0) throw new FocusCrawlError('STORE', `${path} is an empty file, not a crawl database`);
}

/** Whether two paths name one file: the same device and inode when both exist, else the same resolved path. */
export function sameFile(a: string, b: string): boolean {
  const x = statOf(a);
  const y = statOf(b);
  return x && y ? x.dev === y.dev && x.ino === y.ino : resolve(a) === resolve(b);
}

/**
 * Why a database at `path` cannot be written, or null: the file (when it exists) and its folder
 * must be writable, since SQLite creates -wal and -shm beside it.
 */
export function unwritableReason(path: string): string | null {
  const folder = dirname(resolve(path));
  for (const p of existsSync(path) ? [path, folder] : [folder]) {
    try {
      accessSync(p, constants.W_OK);
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code === 'EROFS' ? 'on a read-only file system' : 'not writable';
      return `${p === path ? 'the file' : `its folder ${p}`} is ${why}`;
    }
  }
  return null;
}

/**
 * A database file with another hard link: SQLite keeps its -wal and -shm beside the name it was
 * opened by, so two names are two journals for one file, and two writers each think they are alone.
 */
export function checkOneName(dbPath: string): void {
  const links = statOf(dbPath)?.nlink ?? 1;
  if (links > 1) throw new FocusCrawlError('USAGE', `${dbPath} has ${links} hard links: a crawl database must have one name (SQLite keeps its journal beside each), so copy it instead of linking it`);
}
