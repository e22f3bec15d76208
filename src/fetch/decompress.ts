import { brotliDecompressSync, createBrotliDecompress, createGunzip, createInflate, createInflateRaw, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { Transform } from 'node:stream';

/**
 * Undoes Content-Encoding with a hard cap on the output size, so a decompression bomb fails fast
 * (zlib stops at maxOutputLength) instead of exhausting memory. Returns null for an unknown coding.
 */
export function decompress(body: Uint8Array, coding: string, maxOutputLength: number): Uint8Array | null {
  // Codings applied in turn ("gzip, gzip") are undone last first, as browsers do; an empty body
  // is empty whatever it claims to be compressed with.
  const codings = coding.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  let out: Uint8Array | null = body;
  for (let i = codings.length - 1; i >= 0 && out !== null && out.length > 0; i--) out = undo(out, codings[i]!, maxOutputLength);
  return out;
}

function undo(body: Uint8Array, c: string, maxOutputLength: number): Uint8Array | null {
  const opts = { maxOutputLength };
  if (c === 'gzip' || c === 'x-gzip') {
    try {
      return gunzipSync(body, opts);
    } catch (err) {
      // Bytes after the gzip member (a server's padding or junk) end zlib with "incorrect header
      // check"; browsers and curl show the member. Read it again as the raw deflate stream it
      // holds, which ends where the member does.
      const start = isSizeError(err) ? -1 : gzipDataStart(body);
      if (start < 0) throw err;
      return inflateRawSync(body.subarray(start), opts);
    }
  }
  if (c === 'br') return brotliDecompressSync(body, opts);
  if (c === 'deflate') {
    // Servers send both zlib-wrapped and raw deflate under this name.
    try {
      return inflateSync(body, opts);
    } catch (err) {
      if (isSizeError(err)) throw err;
      return inflateRawSync(body, opts);
    }
  }
  return null;
}

/** Where a gzip member's deflate data begins (after its header, RFC 1952), or -1 when it is no gzip. */
function gzipDataStart(b: Uint8Array): number {
  if (b.length < 18 || b[0] !== 0x1f || b[1] !== 0x8b || b[2] !== 8) return -1;
  const flags = b[3]!;
  let at = 10;
  if (flags & 4) at += 2 + (b[10]! | (b[11]! << 8)); // FEXTRA
  for (const bit of [8, 16]) {
    if (!(flags & bit)) continue; // FNAME, FCOMMENT: zero-terminated
    while (at < b.length && b[at] !== 0) at++;
    at++;
  }
  if (flags & 2) at += 2; // FHCRC
  return at < b.length ? at : -1;
}

export function isSizeError(err: unknown): boolean {
  return err instanceof RangeError || (err as { code?: string })?.code === 'ERR_BUFFER_TOO_LARGE';
}

/**
 * Undoes a coding ('gzip', 'br', 'deflate', '' for none) keeping at most `max` bytes of output:
 * a bigger result is cut there (`cut` true) instead of failing, for documents read in part (sitemaps).
 * A corrupt stream rejects, unless `max` bytes came out first; with `inputCut` (the compressed
 * body was itself cut short) the end of the stream is missing and what came out is kept, `cut`.
 * Null for an unknown coding.
 */
export async function decompressPrefix(body: Uint8Array, coding: string, max: number, inputCut = false): Promise<{ body: Uint8Array; cut: boolean } | null> {
  // Codings applied in turn ("gzip, gzip"), undone last first as decompress() does.
  const codings = coding.split(',').map((x) => x.trim().toLowerCase()).filter((x) => x && x !== 'identity');
  if (codings.length > 1) {
    let at: { body: Uint8Array; cut: boolean } = { body, cut: inputCut };
    for (let i = codings.length - 1; i >= 0; i--) {
      const next = await decompressPrefix(at.body, codings[i]!, max, at.cut);
      if (!next) return null;
      at = { body: next.body, cut: at.cut || next.cut };
    }
    return at;
  }
  const c = codings[0] ?? '';
  if (c === '' || c === 'identity') return body.length > max ? { body: body.subarray(0, max), cut: true } : { body, cut: false };
  const make = (raw = false): Transform | null =>
    c === 'gzip' || c === 'x-gzip' ? createGunzip() : c === 'br' ? createBrotliDecompress() : c === 'deflate' ? (raw ? createInflateRaw() : createInflate()) : null;
  const run = (z: Transform) =>
    new Promise<{ body: Uint8Array; cut: boolean }>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      z.on('data', (chunk: Buffer) => {
        if (done) return;
        const room = max - size;
        if (chunk.length >= room) {
          chunks.push(chunk.subarray(0, room));
          size += room;
          done = true;
          z.destroy();
          resolve({ body: Buffer.concat(chunks, size), cut: true });
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      z.on('error', (err: Error) => {
        if (done) return;
        done = true;
        if (inputCut && size > 0) resolve({ body: Buffer.concat(chunks, size), cut: true });
        else reject(err);
      });
      z.on('end', () => {
        if (!done) resolve({ body: Buffer.concat(chunks, size), cut: false });
      });
      z.end(body);
    });
  const z = make();
  if (!z) return null;
  if (c !== 'deflate') return run(z);
  try {
    return await run(z);
  } catch {
    return run(make(true)!);
  }
}
