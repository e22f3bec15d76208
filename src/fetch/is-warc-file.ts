import { readBytes } from '../files/read-bytes.js';
import { constants, gunzipSync } from 'node:zlib';

/**
 * Does `file` start like a WARC: "WARC/" as plain text or as the first bytes of a gzip member (as
 * --record writes it)? Read from its first 4 KB, so a huge recording costs nothing to check; an
 * empty file is a WARC with no records yet.
 */
export function isWarcFile(file: string): boolean {
  const head = readBytes(file, 0, 4096);
  if (head.length === 0) return true;
  if (isGzip(head)) {
    try {
      // A cut gzip member: Z_SYNC_FLUSH gives what the bytes read decode to instead of failing.
      return gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH }).subarray(0, 5).toString('latin1') === 'WARC/';
    } catch {
      return false;
    }
  }
  return head.subarray(0, 5).toString('latin1') === 'WARC/';
}

const isGzip = (head: Buffer) => head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;

/** How a WARC file is written: gzip members (as --record writes it) or plain records. */
export function warcIsGzip(file: string): boolean {
  return isGzip(readBytes(file, 0, 2));
}
