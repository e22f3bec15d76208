import { FingerprintSet } from './fingerprint-set.js';
import type { Fingerprint } from './fingerprint.js';
import type { SeenBacking } from './layered-seen-set.js';

/** The SeenBacking contract over a FingerprintSet in this process: tests, and a reference for the shared backings. */
export class MemorySeenBacking implements SeenBacking {
  readonly #set = new FingerprintSet();

  async hasMany(fps: Fingerprint[]): Promise<boolean[]> {
    return fps.map((fp) => this.#set.hasFingerprint(fp.hi, fp.lo));
  }

  async addMany(fps: Fingerprint[]): Promise<boolean[]> {
    return fps.map((fp) => this.#set.addFingerprint(fp.hi, fp.lo));
  }

  async size(): Promise<number> {
    return this.#set.size;
  }
}
