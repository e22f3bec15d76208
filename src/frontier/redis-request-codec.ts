import { Packr } from 'msgpackr';
import type { CarriedState, CrawlRequest, NewRequest, ServiceProbe, SitemapFetch } from '../types.js';

/**
 * How a waiting URL is stored in the Redis frontier (layout in redis-scripts.ts). Redis memory per
 * waiting URL is a capacity figure (docs/operations.md), so everything is binary:
 *
 *   queue member   id(4 bytes, big-endian) .. key(8 bytes): 12 bytes, the largest that fits
 *                  Redis's 16-byte allocation of a skiplist member (26 hex digits took 32)
 *   state (u:<b>)  field key(8 bytes) -> id(4) .. A .. R
 *
 * A is a length header (1 byte under 255, else 0xff and 4 bytes) and a msgpack array of what a
 * raise keeps (url, scheme, attempts, probe, sitemap, redirected); R a msgpack array of what a better parent
 * replaces (depth, parent, anchor, data). The scripts splice A and R without decoding them.
 * Trailing defaults (no attempts, probe, sitemap, redirected or data) are left out of the arrays. The key,
 * host and priority are not stored here: they are the hash field, the queue's name and its score.
 */

// Plain arrays and objects only: records (msgpackr's default structures) would tie a value to
// the process that wrote it, and other workers read it.
const packr = new Packr({ useRecords: false, moreTypes: false });

/**
 * The URL without `scheme://host` when it has them, with the scheme as a number: the host is the
 * queue's name, and the prefix is a quarter of a typical URL.
 */
const SCHEMES = ['', 'http://', 'https://'] as const;

function shortUrl(url: string, host: string): [string, number] {
  for (let s = 1; s < SCHEMES.length; s++) {
    const origin = SCHEMES[s]! + host;
    if (url.startsWith(origin) && (url.length === origin.length || url[origin.length] === '/')) return [url.slice(origin.length), s];
  }
  return [url, 0];
}

/** Drops the trailing elements that equal their defaults (decoding puts them back). */
function trimmed(values: unknown[], defaults: unknown[]): unknown[] {
  let n = values.length;
  while (n > 0 && values[n - 1] === defaults[n - 1]) n--;
  return n === values.length ? values : values.slice(0, n);
}

const KEPT_DEFAULTS = [undefined, undefined, 0, null, null, null];
const RAISABLE_DEFAULTS = [undefined, undefined, undefined, null];

/** A: the length header and the kept part (what a raise keeps, what a retry replaces). */
export function packKept(r: Pick<CrawlRequest, 'url' | 'host' | 'attempts' | 'probe' | 'sitemap' | 'redirected'>): Buffer {
  const [rest, scheme] = shortUrl(r.url, r.host);
  const body = packr.pack(trimmed([rest, scheme, r.attempts, r.probe ?? null, r.sitemap ?? null, r.redirected || null], KEPT_DEFAULTS));
  if (body.length < 255) return Buffer.concat([Buffer.of(body.length), body]);
  const head = Buffer.alloc(5);
  head[0] = 255;
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

const KEY = /^[0-9a-f]{16}$/;

/** R: the parent key as 8 bytes rather than 16 hex digits (anything else that is not a key, as it is). */
export function packRaisable(r: Pick<NewRequest, 'depth' | 'parent' | 'anchor' | 'data'>): Buffer {
  return packr.pack(trimmed([r.depth, r.parent !== null && KEY.test(r.parent) ? Buffer.from(r.parent, 'hex') : r.parent, r.anchor, r.data ?? null], RAISABLE_DEFAULTS));
}

/** A URL key (16 hex digits) as the 8 bytes Redis holds. */
export const keyBytes = (key: string): Buffer => Buffer.from(key, 'hex');

/** The queue score of a priority: ZSETs pop the lowest first, best-first wants the highest. */
export function scoreOf(priority: number): string {
  if (Number.isNaN(priority)) throw new RangeError('a URL priority must be a number, not NaN');
  return String(-priority);
}

/** Parses one URL of a claim reply: key (8 bytes), host, score and the state value. */
export function decodeClaimed(key: Buffer, host: Buffer, score: Buffer, value: Buffer): CrawlRequest {
  const hexKey = key.toString('hex');
  if (value.length < 6) throw new Error(`Redis frontier: no carried state for ${hexKey} (its state hash lost it)`);
  const id = value.readUInt32BE(0);
  const long = value[4] === 255;
  const lenA = long ? value.readUInt32BE(5) : value[4]!;
  const startA = long ? 9 : 5;
  const hostName = host.toString('utf8');
  const [rest, scheme, attempts = 0, probe = null, sitemap = null, redirected = null] = packr.unpack(value.subarray(startA, startA + lenA)) as [string, number, number?, (ServiceProbe | null)?, (SitemapFetch | null)?, (number | null)?];
  const [depth, parent, anchor, data = null] = packr.unpack(value.subarray(startA + lenA)) as [number, Uint8Array | string | null, string, (CarriedState | null)?];
  const url = scheme ? SCHEMES[scheme] + hostName + rest : rest;
  const priority = -Number(score.toString('latin1'));
  const parentKey = parent === null || typeof parent === 'string' ? parent : Buffer.from(parent).toString('hex');
  return { key: hexKey, id, url, host: hostName, depth, parent: parentKey, anchor, priority: priority === 0 ? 0 : priority, data, attempts, probe, sitemap, redirected };
}

/** Buffers a claim or claimHost reply holds per URL. */
export const CLAIMED_FIELDS = 5;

/**
 * A claim or claimHost reply (flat: key, host, score, value, and '1' when a reap had put the URL
 * back to waiting, per URL) as requests; `redelivered` hears the keys of those put back.
 */
export function decodeClaimReply(reply: unknown, redelivered?: (key: string) => void): CrawlRequest[] {
  const flat = reply as Buffer[];
  const out: CrawlRequest[] = [];
  for (let i = 0; i + CLAIMED_FIELDS - 1 < flat.length; i += CLAIMED_FIELDS) {
    const req = decodeClaimed(flat[i]!, flat[i + 1]!, flat[i + 2]!, flat[i + 3]!);
    if (flat[i + 4]!.length) redelivered?.(req.key);
    out.push(req);
  }
  return out;
}
