import { Packr } from 'msgpackr';
import type { CarriedState, CrawlRequest, NewRequest, ServiceProbe, SitemapFetch } from '../types.js';

/**
 * How a waiting URL's carried state is stored in the Redis frontier's `u` hash (redis-scripts.ts):
 * id(10 hex) .. len(A)(6 hex) .. A .. R, with A and R msgpack arrays. A holds what a raise keeps
 * (url, attempts, probe, sitemap), R what a better parent replaces (depth, parent, anchor, data),
 * so the scripts splice values without decoding them. The key, host and priority are not stored
 * here: they are the hash field, the queue's name and the queue score.
 */

// Plain arrays and objects only: records (msgpackr's default structures) would tie a value to
// the process that wrote it, and other workers read it.
const packr = new Packr({ useRecords: false, moreTypes: false });

/**
 * The URL without `scheme://host` when it has them, with the scheme as a number: the host is the
 * queue's name, and the prefix is a quarter of a typical URL (measured: 322 -> 290 bytes a waiting URL, test/frontier/redis-memory.test.ts).
 */
const SCHEMES = ['', 'http://', 'https://'] as const;

function shortUrl(url: string, host: string): [string, number] {
  for (let s = 1; s < SCHEMES.length; s++) {
    const origin = SCHEMES[s]! + host;
    if (url.startsWith(origin) && (url.length === origin.length || url[origin.length] === '/')) return [url.slice(origin.length), s];
  }
  return [url, 0];
}

export function packKept(r: Pick<CrawlRequest, 'url' | 'host' | 'attempts' | 'probe' | 'sitemap'>): Buffer {
  const [rest, scheme] = shortUrl(r.url, r.host);
  return packr.pack([rest, scheme, r.attempts, r.probe ?? null, r.sitemap ?? null]);
}

const KEY = /^[0-9a-f]{16}$/;

/** The parent key as 8 bytes rather than 16 hex digits (anything else that is not a key, as it is). */
export function packRaisable(r: Pick<NewRequest, 'depth' | 'parent' | 'anchor' | 'data'>): Buffer {
  return packr.pack([r.depth, r.parent !== null && KEY.test(r.parent) ? Buffer.from(r.parent, 'hex') : r.parent, r.anchor, r.data]);
}

/** The queue score of a priority: ZSETs pop the lowest first, best-first wants the highest. */
export function scoreOf(priority: number): string {
  if (Number.isNaN(priority)) throw new RangeError('a URL priority must be a number, not NaN');
  return String(-priority);
}

/** Parses one URL of a claim reply: key, host, score and the `u` value. */
export function decodeClaimed(key: Buffer, host: Buffer, score: Buffer, value: Buffer): CrawlRequest {
  if (value.length < 16) throw new Error(`Redis frontier: no carried state for ${key.toString('latin1')} (the u hash lost it)`);
  const id = parseInt(value.toString('latin1', 0, 10), 16);
  const lenA = parseInt(value.toString('latin1', 10, 16), 16);
  const hostName = host.toString('utf8');
  const [rest, scheme, attempts, probe, sitemap] = packr.unpack(value.subarray(16, 16 + lenA)) as [string, number, number, ServiceProbe | null, SitemapFetch | null];
  const [depth, parent, anchor, data] = packr.unpack(value.subarray(16 + lenA)) as [number, Uint8Array | string | null, string, CarriedState | null];
  const url = scheme ? SCHEMES[scheme] + hostName + rest : rest;
  const priority = -Number(score.toString('latin1'));
  const parentKey = parent === null || typeof parent === 'string' ? parent : Buffer.from(parent).toString('hex');
  return { key: key.toString('latin1'), id, url, host: hostName, depth, parent: parentKey, anchor, priority: priority === 0 ? 0 : priority, data, attempts, probe, sitemap };
}

/** A claim or claimHost reply (flat: key, host, score, value per URL) as requests. */
export function decodeClaimReply(reply: unknown): CrawlRequest[] {
  const flat = reply as Buffer[];
  const out: CrawlRequest[] = [];
  for (let i = 0; i + 3 < flat.length; i += 4) out.push(decodeClaimed(flat[i]!, flat[i + 1]!, flat[i + 2]!, flat[i + 3]!));
  return out;
}
