import { closeSync, openSync, readSync } from 'node:fs';
import { constants, gunzipSync } from 'node:zlib';

/**
 * Does `file` start like a WARC: "WARC/" as plain text or as the first bytes of a gzip member (as
 * --record writes it)? Read from its first 4 KB, so a huge recording costs nothing to check; an
 * empty file is a WARC with no records yet.
 */
export function isWarcFile(file: string): boolean {
  const fd = openSync(file, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(4096);
    head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
  } finally {
    closeSync(fd);
  }
  if (head.length === 0) return true;
  if (head[0] === 0x1f && head[1] === 0x8b) {
    try {
      // A cut gzip member: Z_SYNC_FLUSH gives what the bytes read decode to instead of failing.
      return gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH }).subarray(0, 5).toString('latin1') === 'WARC/';
    } catch {
      return false;
    }
  }
  return head.subarray(0, 5).toString('latin1') === 'WARC/';
}
