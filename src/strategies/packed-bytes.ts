import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';

/** Marks a packed snapshot array: '~' is no base64 character, so an older plain one is told apart. */
const PACKED = '~';

/**
 * A typed array's bytes for a strategy snapshot, deflated: a sketch of 2 MB is mostly zeros in a
 * small crawl, and stored raw it made every crawl database 5 MB or more, rewritten at every
 * checkpoint. Level 1: the checkpoint runs on the crawl's thread every 30 s.
 */
export function packBytes(a: ArrayBufferView): string {
  return PACKED + deflateRawSync(Buffer.from(a.buffer, a.byteOffset, a.byteLength), { level: 1 }).toString('base64');
}

/** The bytes packBytes packed (or plain base64 from an older snapshot); null unless exactly `byteLength` long. */
export function unpackBytes(s: string, byteLength: number): Buffer | null {
  let b: Buffer;
  try {
    b = s.startsWith(PACKED) ? inflateRawSync(Buffer.from(s.slice(1), 'base64'), { maxOutputLength: byteLength + 1, finishFlush: constants.Z_FINISH }) : Buffer.from(s, 'base64');
  } catch {
    return null;
  }
  return b.byteLength === byteLength ? b : null;
}
