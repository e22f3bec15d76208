import { BinaryHeap } from '../frontier/binary-heap.js';
import { ClockCache } from './clock-cache.js';
import type { FingerprintCache } from './fingerprint-cache.js';
import { LruCache } from './lru-cache.js';
import { RandomCache } from './random-cache.js';
import { StaticCache } from './static-cache.js';

export const POLICIES = ['clock', 'lru', 'random', 'static', 'min', 'infinite'] as const;
export type Policy = (typeof POLICIES)[number];

/** Share of a trace used to choose the static cache's keys. */
export const STATIC_TRAINING_SHARE = 0.1;

export interface SimulationResult {
  policy: Policy;
  size: number;
  accesses: number;
  misses: number;
  missRate: number;
}

function run(trace: ArrayLike<number>, cache: FingerprintCache): number {
  let misses = 0;
  for (let i = 0; i < trace.length; i++) if (!cache.access(trace[i]!)) misses++;
  return misses;
}

/**
 * Belady's clairvoyant MIN: on a miss with the cache full, evict the cached key whose next
 * request is farthest in the future (never requested again counts as farthest). Every missed key
 * is admitted. Optimal among policies that admit every miss (test/seen/cache-simulator.test.ts
 * checks it against brute force on small traces).
 */
export function simulateMin(trace: ArrayLike<number>, capacity: number): number {
  const n = trace.length;
  const next = new Float64Array(n);
  const last = new Map<number, number>();
  for (let i = n - 1; i >= 0; i--) {
    next[i] = last.get(trace[i]!) ?? Infinity;
    last.set(trace[i]!, i);
  }
  const nextUse = new Map<number, number>(); // key in cache -> its next request
  const heap = new BinaryHeap<[number, number]>((a, b) => a[0] > b[0]); // [next use, key], farthest first
  let misses = 0;
  for (let i = 0; i < n; i++) {
    const key = trace[i]!;
    if (nextUse.has(key)) {
      nextUse.set(key, next[i]!);
      heap.push([next[i]!, key]);
      continue;
    }
    misses++;
    if (nextUse.size >= capacity) {
      for (;;) {
        const [use, k] = heap.pop()!;
        if (nextUse.get(k) === use) {
          nextUse.delete(k);
          break;
        }
      }
    }
    nextUse.set(key, next[i]!);
    heap.push([next[i]!, key]);
  }
  return misses;
}

/** Misses of one policy at one cache size over a trace of keys. */
export function simulate(trace: ArrayLike<number>, policy: Policy, size: number, seed = 1): SimulationResult {
  let misses: number;
  switch (policy) {
    case 'clock':
      misses = run(trace, new ClockCache(size));
      break;
    case 'lru':
      misses = run(trace, new LruCache(size));
      break;
    case 'random':
      misses = run(trace, new RandomCache(size, seed));
      break;
    case 'static': {
      const training = Array.prototype.slice.call(trace, 0, Math.floor(trace.length * STATIC_TRAINING_SHARE)) as number[];
      misses = run(trace, new StaticCache(size, training));
      break;
    }
    case 'min':
      misses = simulateMin(trace, size);
      break;
    case 'infinite':
      misses = new Set(Array.prototype.slice.call(trace) as number[]).size;
      break;
  }
  return { policy, size, accesses: trace.length, misses, missRate: trace.length ? misses / trace.length : 0 };
}
