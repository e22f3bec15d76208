/**
 * The URL-seen test as a library: `import { FingerprintSet, ClockCache } from 'focuscrawl/seen'`.
 */
export { fingerprint, fingerprintInto, fingerprintKey, fingerprintToBigInt, fingerprintFromBigInt, fingerprintHex } from './fingerprint.js';
export type { Fingerprint } from './fingerprint.js';
export { FingerprintSet } from './fingerprint-set.js';
export type { FingerprintCache } from './fingerprint-cache.js';
export { ClockCache } from './clock-cache.js';
export { LruCache } from './lru-cache.js';
export { RandomCache } from './random-cache.js';
export { StaticCache } from './static-cache.js';
export { simulate, simulateMin, POLICIES, type Policy, type SimulationResult } from './cache-simulator.js';
