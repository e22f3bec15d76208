import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/**
 * Undoes Content-Encoding with a hard cap on the output size, so a decompression bomb fails fast
 * (zlib stops at maxOutputLength) instead of exhausting memory. Returns null for an unknown coding.
 */
export function decompress(body: Uint8Array, coding: string, maxOutputLength: number): Uint8Array | null {
  const opts = { maxOutputLength };
  const c = coding.trim().toLowerCase();
  if (c === '' || c === 'identity') return body;
  if (c === 'gzip' || c === 'x-gzip') return gunzipSync(body, opts);
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

export function isSizeError(err: unknown): boolean {
  return err instanceof RangeError || (err as { code?: string })?.code === 'ERR_BUFFER_TOO_LARGE';
}
