export { fingerprint, fingerprintInto, fingerprintToBigInt, fingerprintFromBigInt, fingerprintHex } from './fingerprint.js';
export type { Fingerprint } from './fingerprint.js';
export { FingerprintSet } from './fingerprint-set.js';
