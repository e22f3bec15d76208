import { accessSync, closeSync, constants, createWriteStream, openSync, readSync, statSync, type Stats } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { dirname, resolve } from 'node:path';
import { FocusCrawlError } from '../errors.js';
import { DB_SIDE_FILES, sameFile } from '../store/db-files.js';

/**
 * Fails early, naming the path, when `file` cannot be created because its folder is missing or
 * is not a folder: checked before a command opens its database or starts work.
 */
export function checkOutputFile(file: string | undefined): void {
  if (!file || file === '-') return;
  const dir = dirname(resolve(file));
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    /* missing: reported below */
  }
  if (!isDir) {
    throw new FocusCrawlError('IO', `cannot write ${file}: ${statOf(dir) ? `${dir} is not a folder` : `the folder ${dir} does not exist`}`);
  }
  // Checked now, not when the results are ready: a group crawl runs for hours before it writes.
  if (statOf(file)?.isDirectory()) throw new FocusCrawlError('IO', `cannot write ${file}: it is a folder`);
  try {
    accessSync(statOf(file) ? file : dir, constants.W_OK);
  } catch {
    throw new FocusCrawlError('IO', `cannot write ${file}: permission denied`);
  }
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

function isSqliteFile(file: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(SQLITE_HEADER.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

const statOf = (file: string): Stats | null => {
  try {
    return statSync(file);
  } catch {
    return null;
  }
};

/**
 * Refuses an output file that is one of the command's inputs (`--out` naming the `--db` it
 * reads): opening it for writing would empty the database before a record is read.
 */
export function checkOutputNotInput(out: string | undefined, inputs: readonly { flag: string; file: string | undefined }[]): void {
  if (!out) return;
  for (const { flag, file } of inputs) {
    if (!file) continue;
    if (sameFile(out, file)) throw new FocusCrawlError('USAGE', `--out ${out} is the ${flag} it would read: writing it would destroy the crawl; choose another file`);
    // An export written over a running crawl's -wal left it "malformed".
    const side = flag === '--db' ? DB_SIDE_FILES.find((suffix) => sameFile(out, file + suffix)) : undefined;
    if (side) throw new FocusCrawlError('USAGE', `--out ${out} is the ${side} file of the ${flag} ${file}: writing it would destroy the crawl; choose another file`);
  }
  // An output is replaced, as curl -o does; a database (another crawl's) is not an output.
  if (statOf(out)?.isFile() && isSqliteFile(out)) throw new FocusCrawlError('USAGE', `--out ${out} is a SQLite database: writing it would destroy it; choose another file`);
}

/**
 * Writes chunks to a file (or standard output when `file` is undefined), waiting for drain; an
 * unwritable file is an IO error naming it.
 */
export async function writeChunks(file: string | undefined, chunks: Iterable<string> | AsyncIterable<string>): Promise<void> {
  // "-" is standard output, as in Scrapy's `-o -` and most Unix tools, not a file named "-".
  if (file === '-') file = undefined;
  checkOutputFile(file);
  const out = file ? createWriteStream(file) : process.stdout;
  if (file) {
    // once() rejects with the stream's error itself, so the race is settled by whichever comes first.
    try {
      await once(out, 'open');
    } catch (err) {
      throw new FocusCrawlError('IO', `cannot write ${file}: ${(err as Error).message}`);
    }
  }
  // A write error (ENOSPC on a full disk or /dev/full) comes as an 'error' event, not a throw.
  let failed: Error | null = null;
  const onError = (err: Error) => (failed ??= err);
  if (file) out.on('error', onError);
  const check = () => {
    if (failed) throw new FocusCrawlError('IO', `cannot write ${file}: ${failed.message}`);
  };
  try {
    for await (const chunk of chunks) {
      check();
      // once() rejects on 'error', which onError has kept.
      if (!out.write(chunk)) await once(out, 'drain').catch(() => {});
    }
  } finally {
    if (file) {
      out.end();
      await finished(out).catch(() => {});
      out.off('error', onError);
    }
  }
  check();
}
