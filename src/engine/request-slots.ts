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
  /** Slots held, by key: counted, since an expired lease may hand a URL to this process while it still works on it. */
  readonly #held = new Map<string, number>();
  #inflight = 0;
  #settling = 0;

  constructor(concurrency: number) {
    this.#concurrency = concurrency;
  }

  /** URLs holding a slot. */
  get inflight(): number {
    return this.#inflight;
  }

  /** URLs holding a slot or waiting for their commit: the run is over only when this is 0. */
  get busy(): number {
    return this.#inflight + this.#settling;
  }

  /** How many more URLs may be claimed now (0 or less: none). */
  room(): number {
    return Math.min(this.#concurrency - this.#inflight, SETTLING_PER_SLOT * this.#concurrency - this.#settling);
  }

  take(key: string): void {
    this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
    this.#inflight++;
  }

  /** Gives `key`'s slot back while it waits for its commit; false if it held none (already settled, or never claimed here). */
  settle(key: string): boolean {
    if (!this.#release(key)) return false;
    this.#settling++;
    return true;
  }

  /** `key` has ended, whether it still held its slot or had settled. */
  end(key: string): void {
    if (!this.#release(key)) this.#settling--;
  }

  #release(key: string): boolean {
    const n = this.#held.get(key);
    if (n === undefined) return false;
    if (n > 1) this.#held.set(key, n - 1);
    else this.#held.delete(key);
    this.#inflight--;
    return true;
  }
}
