/**
 * 64-bit URL fingerprints as two unsigned 32-bit halves, so hot paths never allocate a BigInt.
 *
 * The hash is cyrb64 (bryc's public-domain cyrb53 with both 32-bit lanes kept): two multiply-xor
 * lanes over UTF-16 code units, cross-mixed at the end. Normalised URLs are ASCII (WHATWG
 * serialisation percent-encodes the rest), so hashing code units equals hashing their bytes.
 * A well-mixed 64-bit fingerprint gives an expected n^2/2^65 collisions: about 3e-6 at 10 million URLs.
 */
export interface Fingerprint {
  hi: number;
  lo: number;
}

const SEED = 0x2f6b_1c3d;

/** Writes the fingerprint halves into `out` and returns it (no allocation when `out` is reused). */
export function fingerprintInto(url: string, out: Fingerprint): Fingerprint {
  // Anything else has no length here and hashed as '': every URL object (new URL(...)) had one fingerprint, so all but the first were "seen".
  if (typeof url !== 'string') throw new TypeError(`a URL to fingerprint is a string, not ${(url as unknown) instanceof URL ? 'a URL object (pass url.href)' : typeof url}`);
  let h1 = 0xdeadbeef ^ SEED;
  let h2 = 0x41c6ce57 ^ SEED;
  for (let i = 0; i < url.length; i++) {
    const ch = url.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  out.hi = h2 >>> 0;
  out.lo = h1 >>> 0;
  return out;
}

export function fingerprint(url: string): Fingerprint {
  return fingerprintInto(url, { hi: 0, lo: 0 });
}

/** The fingerprint as a signed 64-bit integer, the form stored in SQLite and PostgreSQL bigint. */
export function fingerprintToBigInt(fp: Fingerprint): bigint {
  return BigInt.asIntN(64, (BigInt(fp.hi) << 32n) | BigInt(fp.lo));
}

export function fingerprintFromBigInt(v: bigint): Fingerprint {
  const u = BigInt.asUintN(64, v);
  return { hi: Number(u >> 32n), lo: Number(u & 0xffffffffn) };
}

/** 16 lower-case hex digits, the form used in Redis keys and logs. */
export function fingerprintHex(fp: Fingerprint): string {
  return fp.hi.toString(16).padStart(8, '0') + fp.lo.toString(16).padStart(8, '0');
}

/**
 * The fingerprint as a 53-bit number (the high 32 bits and 21 of the low), exact in a double:
 * the key the caches and the trace simulator use. 53 bits keep collisions negligible for traces
 * of billions of links while avoiding BigInt.
 */
export function fingerprintKey(url: string): number {
  const fp = fingerprint(url);
  return fp.hi * 2097152 + (fp.lo >>> 11);
}

/** A URL's key, the identity every backend uses for it (CrawlRequest.key): its fingerprint in hex. */
export function urlKey(url: string): string {
  return fingerprintHex(fingerprint(url));
}

/** A key back to the signed 64-bit form the SQL backends store. */
export function keyToBigInt(key: string): bigint {
  return BigInt.asIntN(64, BigInt('0x' + key));
}

/** The signed 64-bit form back to a key. */
export function bigIntToKey(v: bigint): string {
  return BigInt.asUintN(64, v).toString(16).padStart(16, '0');
}
