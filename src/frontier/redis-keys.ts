import { fingerprint, type Fingerprint } from '../seen/fingerprint.js';

/**
 * Key naming and sharding of the Redis frontier (../shared/SCALE.md). Every key of shard `s` is
 * `<prefix>:{s}:<name>`: the `{s}` hash tag puts all of them in one Cluster slot, so a script
 * that touches only its shard's keys runs on Redis Cluster too. Scripts are given the shard's
 * base (`<prefix>:{s}:`) and derive host keys from it; test/frontier/redis-frontier.test.ts checks
 * that every key they touch carries the tag.
 */

/** Seen-set buckets over all shards (SCALE.md: the top 16 bits of the fingerprint pick one). */
export const DEFAULT_BUCKET_BITS = 16;

export function checkPrefix(prefix: string): string {
  // A brace in the prefix would become the hash tag and put every shard in one slot.
  if (!prefix || /[{}\s]/.test(prefix)) throw new RangeError(`Redis key prefix must be non-empty, without braces or spaces: ${JSON.stringify(prefix)}`);
  return prefix;
}

/** The base every key of shard `s` starts with; the scripts' KEYS[1] is `base + 'n'`. */
export const shardBase = (prefix: string, s: number): string => `${prefix}:{${s}}:`;

/** The shard's counters hash: the key a script is routed by. */
export const countersKey = (prefix: string, s: number): string => shardBase(prefix, s) + 'n';

/** The shard a host's queue, politeness state and URLs live in. */
export function shardOfHost(host: string, shards: number): number {
  return shards === 1 ? 0 : fingerprint(host).lo % shards;
}

/** The hash tag of a key (what Cluster hashes), or null when it has none. */
export function hashTag(key: string): string | null {
  const open = key.indexOf('{');
  if (open < 0) return null;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : null;
}

/**
 * Where a fingerprint lives in the seen set of one shard: a bucket (an intset SET) and the member.
 * The bucket is taken from the top 16 bits, the member is the low 48 bits as a decimal integer,
 * so that every bucket stays intset-encoded (8 bytes an entry). With fewer buckets than 2^16 the
 * top bits beyond the bucket number are dropped: still a 60-bit test at 4,096 buckets.
 */
export interface SeenPlace {
  bucket: number;
  member: string;
}

export function seenPlace(fp: Fingerprint, bucketsPerShard: number): SeenPlace {
  return { bucket: (fp.hi >>> 16) % bucketsPerShard, member: String((fp.hi & 0xffff) * 0x1_0000_0000 + fp.lo) };
}

export const seenKey = (prefix: string, s: number, bucket: number): string => `${shardBase(prefix, s)}seen:${bucket}`;

/** Buckets each shard holds so that all shards together hold 2^bucketBits. */
export function bucketsPerShard(bucketBits: number, shards: number): number {
  if (!(bucketBits >= 0 && bucketBits <= 16)) throw new RangeError('bucketBits must be 0..16');
  return Math.max(1, Math.floor(2 ** bucketBits / shards));
}
