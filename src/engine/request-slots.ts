/** Pages that may wait for their commit, per request slot (see RequestSlots.settle). */
export const SETTLING_PER_SLOT = 2;

/**
 * The crawl's `concurrency` request slots, and the URLs that gave theirs back to wait for their
 * commit. A URL takes a slot when claimed and holds it until it ends, unless it settles: a shared
 * crawl's page whose only remaining work is its commit and lease end gives the slot back, since
 * concurrency bounds requests and a PostgreSQL group commit takes tens of milliseconds. At most
 * SETTLING_PER_SLOT * concurrency URLs settle (room() claims nothing beyond), so a worker holds at
 * most (1 + SETTLING_PER_SLOT) * concurrency leases, which a crash costs in refetches.
 */
export class RequestSlots {
  readonly #concurrency: number;
  readonly #held = new Set<string>();
  #settling = 0;

  constructor(concurrency: number) {
    this.#concurrency = concurrency;
  }

  /** URLs holding a slot. */
  get inflight(): number {
    return this.#held.size;
  }

  /** URLs holding a slot or waiting for their commit: the run is over only when this is 0. */
  get busy(): number {
    return this.#held.size + this.#settling;
  }

  /** How many more URLs may be claimed now (0 or less: none). */
  room(): number {
    return Math.min(this.#concurrency - this.#held.size, SETTLING_PER_SLOT * this.#concurrency - this.#settling);
  }

  take(key: string): void {
    this.#held.add(key);
  }

  /** Gives `key`'s slot back while it waits for its commit; false if it held none (already settled, or never claimed here). */
  settle(key: string): boolean {
    if (!this.#held.delete(key)) return false;
    this.#settling++;
    return true;
  }

  /** `key` has ended, whether it still held its slot or had settled. */
  end(key: string): void {
    if (!this.#held.delete(key)) this.#settling--;
  }
}
