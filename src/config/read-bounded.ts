import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { FocusCrawlError, fileError } from '../errors.js';

/**
 * Reads a file the user names as input (config, topic, seeds), refusing at once what is not a
 * regular file or is larger than `maxBytes`: reading first and checking after let `/dev/zero`
 * grow to gigabytes, and a FIFO with no writer hang. A larger file gives its size as far as it
 * was read, so that each caller keeps its own message.
 */
export function readBounded(file: string, maxBytes: number, what: string): { bytes: Buffer } | { tooLarge: number } {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, forever.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new FocusCrawlError('IO', `cannot read ${what} file ${file}: ${fileError(err)}`, { cause: err });
  }
  try {
    const st = fstatSync(fd);
    // A folder is named as fileError() names EISDIR.
    if (st.isDirectory()) throw new FocusCrawlError('IO', `cannot read ${what} file ${file}: it is a folder (EISDIR)`);
    if (!st.isFile()) throw new FocusCrawlError('IO', `cannot read ${what} file ${file}: not a regular file (${kind(st)})`);
    if (st.size > maxBytes) return { tooLarge: st.size };
    // Read up to one byte past the limit: a file that grew since fstat (or a /proc file, whose
    // size says 0) is told apart from one that fits.
    let buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (n > maxBytes) return { tooLarge: n };
        buf = Buffer.concat([buf, Buffer.alloc(Math.min(buf.length, maxBytes + 1 - buf.length))]);
      }
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    if (n > maxBytes) return { tooLarge: n };
    return { bytes: buf.subarray(0, n) };
  } finally {
    closeSync(fd);
  }
}

function kind(st: import('node:fs').Stats): string {
  if (st.isFIFO()) return 'a pipe';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}
