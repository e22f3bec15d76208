import { readSnapshot, type SnapshotSource } from './read-snapshot.js';
import type { Snapshot } from './snapshot.js';

/**
 * Reads a snapshot once a second while anyone listens, and hands the same one to every listener
 * (one read per second, not one per browser tab). Polls never overlap: a slow read delays the next.
 */
export class SnapshotPoller {
  readonly #src: SnapshotSource;
  readonly #listeners = new Set<(s: Snapshot) => void>();
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | null = null;
  /** How long the last read took: the next waits at least four times as long (see #schedule). */
  #lastReadMs = 0;
  /** (time, fetches) samples of the last seconds, for pages/s. */
  #samples: { t: number; n: number }[] = [];

  constructor(src: SnapshotSource, intervalMs = 1000) {
    this.#src = src;
    this.#intervalMs = intervalMs;
  }

  /** A fresh snapshot now (the first one a client gets, and /api/snapshot). */
  async read(): Promise<Snapshot> {
    const s = await readSnapshot(this.#src, this.#rate(null));
    return this.#withRate(s);
  }

  #withRate(s: Snapshot): Snapshot {
    return { ...s, pagesPerSecond: this.#rate(s.urls.done + s.urls.error) };
  }

  /** Fetches a second over the last 10 s of samples; `n` adds the current count. */
  #rate(n: number | null): number | null {
    const now = Date.now();
    if (n !== null) {
      this.#samples.push({ t: now, n });
      this.#samples = this.#samples.filter((x) => now - x.t <= 10_000);
    }
    const first = this.#samples[0];
    const last = this.#samples[this.#samples.length - 1];
    if (!first || !last || last.t - first.t < 500) return null;
    return Math.max(0, (last.n - first.n) / ((last.t - first.t) / 1000));
  }

  subscribe(fn: (s: Snapshot) => void): () => void {
    this.#listeners.add(fn);
    if (!this.#timer) this.#schedule();
    return () => {
      this.#listeners.delete(fn);
      if (!this.#listeners.size && this.#timer) {
        clearTimeout(this.#timer);
        this.#timer = null;
      }
    };
  }

  /**
   * A big crawl makes a snapshot slow (hosts and the harvest curve scan the crawl); waiting four
   * times the last read's duration keeps serve under a fifth of a core beside the crawl it watches.
   */
  #schedule(): void {
    this.#timer = setTimeout(() => {
      const started = Date.now();
      this.read().then(
        (s) => {
          for (const fn of this.#listeners) fn(s);
        },
        (err: Error) => process.emitWarning(`focuscrawl serve: reading the crawl failed: ${err.message}`),
      ).finally(() => {
        this.#lastReadMs = Date.now() - started;
        if (this.#listeners.size) this.#schedule();
      });
    }, Math.max(this.#intervalMs, 4 * this.#lastReadMs));
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#listeners.clear();
  }
}
