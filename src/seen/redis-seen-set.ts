import type { Redis } from 'ioredis';
import { ClockCache } from './clock-cache.js';
import type { Fingerprint } from './fingerprint.js';
import type { SeenBacking } from './layered-seen-set.js';
import type { SeenCounters } from './seen-set.js';
import { bucketsPerShard, checkPrefix, countersKey, DEFAULT_BUCKET_BITS, seenPlace, shardOfHost } from '../frontier/redis-keys.js';
import { defineScripts, type ScriptCall, type ScriptName } from '../frontier/redis-scripts.js';

export interface RedisSeenOptions {
  /** Key prefix of the crawl, e.g. `fc:<crawl name>`; the frontier of the same crawl uses the same. */
  prefix: string;
  /** Shards of the crawl's frontier (default 1). */
  shards?: number;
  /**
   * The set holds 2^bucketBits intset buckets over all shards (default 16, SCALE.md). A bucket
   * costs about 70 bytes of its own, so pick bits so that buckets hold tens of fingerprints or
   * more: 200,000 URLs at 16 bits cost about 25 bytes each, at 12 bits about 10. A bucket past
   * `set-max-intset-entries` (512 by default; raise it to 4096) becomes a hash table at about 40
   * bytes an entry: 2^16 buckets x 512 = 33 million URLs. Fixed for a crawl's life.
   */
  bucketBits?: number;
  /** Worker-local CLOCK cache entries of fingerprints known present (default 65,536, about 1.1 MB). */
  cache?: number;
}

/**
 * The URL-seen set shared by workers, in Redis (SCALE.md): fingerprints in 2^16 intset buckets
 * (8 bytes a URL once buckets fill), with this worker's CLOCK cache of fingerprints known present
 * in front, so a repeat answers locally. The set only grows and the cache holds only positives,
 * so a cache hit is always right.
 *
 * Placement: a fingerprint lives in the shard of its URL's host (the frontier's add script adds
 * to the bucket and queues the URL in one atomic step, which on Cluster needs one slot). The
 * SeenBacking methods know only fingerprints, so they take the hosts as an optional second
 * argument; without it a fingerprint is placed by its own bits, which is the frontier's placement
 * only with one shard.
 */
export class RedisSeenSet implements SeenBacking {
  readonly counters: SeenCounters = { cacheHits: 0, cacheMisses: 0 };
  /** Script calls sent (concurrent calls to several shards count once: one network round trip). */
  roundTrips = 0;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #shards: number;
  readonly #buckets: number;
  readonly #cache: ClockCache;
  readonly #scripts: Record<ScriptName, ScriptCall>;

  constructor(redis: Redis, opts: RedisSeenOptions) {
    this.#redis = redis;
    this.#prefix = checkPrefix(opts.prefix);
    this.#shards = opts.shards ?? 1;
    this.#buckets = bucketsPerShard(opts.bucketBits ?? DEFAULT_BUCKET_BITS, this.#shards);
    this.#cache = new ClockCache(opts.cache ?? 65_536);
    this.#scripts = defineScripts(redis);
  }

  /** Shard, bucket and member of a fingerprint; `host` gives the frontier's placement. */
  place(fp: Fingerprint, host?: string): { shard: number; bucket: number; member: string } {
    const shard = host === undefined ? fp.lo % this.#shards : shardOfHost(host, this.#shards);
    return { shard, ...seenPlace(fp, this.#buckets) };
  }

  async hasMany(fps: Fingerprint[], hosts?: string[]): Promise<boolean[]> {
    return this.#ask('seenHas', fps, hosts, true);
  }

  async addMany(fps: Fingerprint[], hosts?: string[]): Promise<boolean[]> {
    return this.#ask('seenAdd', fps, hosts, false);
  }

  /** Fingerprints in the set: a counter per shard kept by the scripts (never a scan). */
  async size(): Promise<number> {
    this.roundTrips++;
    const all = await Promise.all(Array.from({ length: this.#shards }, (_, s) => this.#redis.hget(countersKey(this.#prefix, s), 'seen')));
    return all.reduce((sum, v) => sum + Number(v ?? 0), 0);
  }

  /**
   * Cache hits answer locally (has: true; add: not new); the misses go to their shards in one
   * script call each, sent together. Whatever Redis says is present afterwards enters the cache.
   */
  async #ask(script: 'seenHas' | 'seenAdd', fps: Fingerprint[], hosts: string[] | undefined, isHas: boolean): Promise<boolean[]> {
    const out = new Array<boolean>(fps.length);
    const byShard = new Map<number, { at: number[]; args: string[] }>();
    for (let i = 0; i < fps.length; i++) {
      const fp = fps[i]!;
      const ck = cacheKey(fp);
      if (this.#cache.has(ck)) {
        this.counters.cacheHits++;
        this.#cache.access(ck);
        out[i] = isHas;
        continue;
      }
      this.counters.cacheMisses++;
      const p = this.place(fp, hosts?.[i]);
      let group = byShard.get(p.shard);
      if (!group) byShard.set(p.shard, (group = { at: [], args: [] }));
      group.at.push(i);
      group.args.push(String(p.bucket), p.member);
    }
    if (byShard.size === 0) return out;
    this.roundTrips++;
    await Promise.all(
      [...byShard].map(async ([shard, g]) => {
        const reply = (await this.#scripts[script](countersKey(this.#prefix, shard), ...g.args)) as number[];
        g.at.forEach((i, j) => {
          // has: 1 present; add: 1 new. Either way an added fingerprint is present from now on.
          out[i] = reply[j] === 1;
          if (out[i] || !isHas) this.#cache.access(cacheKey(fps[i]!));
        });
      }),
    );
    return out;
  }
}

/** The 53-bit cache key of a fingerprint (fingerprintKey without hashing the URL again). */
const cacheKey = (fp: Fingerprint) => fp.hi * 2097152 + (fp.lo >>> 11);
