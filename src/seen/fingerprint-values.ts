const SEGMENTS = 64;
const MAX_LOAD = 0.75;

/**
 * A number per 53-bit URL fingerprint key (fingerprintKey), in typed
 * arrays: 64 segments chosen by the key's low bits, each an open-addressing table with linear
 * probing that doubles at 75% load. 22 to 34 bytes an entry (16 a slot) where a Map takes 61 to 71, and no cap
 * (V8 caps one Map at 2^24 entries). Keys are stored plus one, so 0 marks an empty slot.
 */
export class FingerprintValues {
  readonly #keys: Float64Array[] = [];
  readonly #values: Float64Array[] = [];
  readonly #sizes = new Uint32Array(SEGMENTS);
  #size = 0;

  constructor() {
    for (let s = 0; s < SEGMENTS; s++) {
      this.#keys.push(new Float64Array(16));
      this.#values.push(new Float64Array(16));
    }
  }

  get size(): number {
    return this.#size;
  }

  get(key: number): number | undefined {
    const s = key % SEGMENTS;
    const keys = this.#keys[s]!;
    const mask = keys.length - 1;
    const stored = key + 1;
    for (let i = slotOf(key, mask); ; i = (i + 1) & mask) {
      const k = keys[i]!;
      if (k === 0) return undefined;
      if (k === stored) return this.#values[s]![i];
    }
  }

  set(key: number, value: number): void {
    const s = key % SEGMENTS;
    if ((this.#sizes[s]! + 1) > this.#keys[s]!.length * MAX_LOAD) this.#grow(s);
    const keys = this.#keys[s]!;
    const mask = keys.length - 1;
    const stored = key + 1;
    for (let i = slotOf(key, mask); ; i = (i + 1) & mask) {
      const k = keys[i]!;
      if (k === stored || k === 0) {
        if (k === 0) {
          keys[i] = stored;
          this.#sizes[s]!++;
          this.#size++;
        }
        this.#values[s]![i] = value;
        return;
      }
    }
  }

  #grow(s: number): void {
    const oldKeys = this.#keys[s]!;
    const oldValues = this.#values[s]!;
    const keys = new Float64Array(oldKeys.length * 2);
    const values = new Float64Array(oldKeys.length * 2);
    const mask = keys.length - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      const stored = oldKeys[j]!;
      if (stored === 0) continue;
      let i = slotOf(stored - 1, mask);
      while (keys[i] !== 0) i = (i + 1) & mask;
      keys[i] = stored;
      values[i] = oldValues[j]!;
    }
    this.#keys[s] = keys;
    this.#values[s] = values;
  }
}

/** The key's slot in a table of mask + 1 slots: bits above the segment's, which are the segment. */
const slotOf = (key: number, mask: number): number => Math.floor(key / SEGMENTS) & mask;
