import { createReadStream, statSync } from 'node:fs';
import { readBytes } from '../files/read-bytes.js';
import { warcIsGzip } from './is-warc-file.js';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

/**
 * What is wrong with the end of a WARC, or null when it is whole: a record cut short (a crash or
 * a full disk while writing), or bytes that are not the file's kind of record (plain records
 * after gzip members, or gzip members after plain records). WARC readers stop at such a place
 * without a word, so every record after it would be lost to a replay, and a recording appended
 * to such a file would be lost the same way.
 */
export async function warcDamage(file: string): Promise<string | null> {
  const size = statSync(file).size;
  if (size === 0) return null;
  if (warcIsGzip(file)) {
    // Zero bytes at the end (a crash under delayed allocation leaves them): zlib skips them in
    // silence. A member's own last 8 bytes are its CRC-32 and length, never all zero in practice.
    const end = readBytes(file, size - 8, 8);
    if (end.every((b) => b === 0)) return `it ends with zero bytes where a record should end (a write cut short, at byte ${size.toLocaleString('en')})`;
    // zlib reads member after member and fails on a cut one or on anything that is not a member.
    const gunzip = createGunzip();
    try {
      await pipeline(createReadStream(file), gunzip, new Writable({ write: (_chunk, _enc, done) => done() }));
      return null;
    } catch (err) {
      return `unreadable near byte ${gunzip.bytesWritten.toLocaleString('en')} of ${size.toLocaleString('en')} (${(err as Error).message})`;
    }
  }
  // A plain record ends with its block and two CRLFs (WARC 1.1, section 4); a cut one does not.
  const tail = readBytes(file, size - 4, 4);
  if (tail.toString('latin1') !== '\r\n\r\n') return `its last record is cut short (the file does not end with a record's closing CRLFs, at byte ${size.toLocaleString('en')})`;
  return null;
}
