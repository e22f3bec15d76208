import type { PgStore } from '../store/pg-store.js';
import type { Strategy } from '../strategies/strategy.js';
import { restoreStrategyState, STRATEGY_STATE, strategyStateJson, type FedLabels } from '../strategies/strategy-state.js';

export { STRATEGY_STATE };

/**
 * What a learning strategy learned, stored in PostgreSQL as the embedded crawl stores it in
 * SQLite (strategy-state.ts), so a worker that joins a shared crawl late, replaces a killed one,
 * or resumes the crawl starts from what the crawl had learned rather than from nothing. Every
 * worker's copy hears what the others learn from their pages (EvidenceExchange), so the part of a
 * snapshot that hear() keeps in step stands for the crawl, and the last one written wins. The
 * parts a copy keeps of its own pages only (adaptive's sibling families and hub candidates,
 * two-step's tracked parents) come from whichever worker wrote last: a replacement may offer
 * again a link that worker offers, which the frontier's raise makes a no-op. What was learned
 * between that snapshot and a joiner's subscription (at most the checkpoint interval, 30 s) is
 * not heard again.
 */
export class StrategyCheckpoint {
  readonly #pg: PgStore;
  readonly #strategy: Strategy;
  readonly #topic: string;
  readonly #labels: FedLabels | undefined;
  #writing: Promise<void> | null = null;
  /** A checkpoint asked for while the last write was still going: written after it, with the state of then. */
  #again = false;
  /** The last write's failure, cleared by a later write that succeeds. */
  #failure: unknown = null;
  #closed = false;

  private constructor(pg: PgStore, strategy: Strategy, topic: string, labels: FedLabels | undefined) {
    this.#pg = pg;
    this.#strategy = strategy;
    this.#topic = topic;
    this.#labels = labels;
  }

  /**
   * Restores `strategy` from the crawl's stored state, if any, telling `labels` which labels it
   * had learned, and returns the checkpoint that keeps storing it (null for a strategy that learns
   * nothing worth storing). A stored state that cannot be restored is not the crawl's record (the
   * pages are): the strategy goes on without it, and `notes` says so.
   */
  static async open(pg: PgStore, strategy: Strategy, topic: string, labels: FedLabels | undefined, notes: string[]): Promise<StrategyCheckpoint | null> {
    if (strategy.restore) {
      const stored = await pg.getMeta(STRATEGY_STATE);
      const note = stored === null ? null : restoreStrategyState(stored, strategy, topic, labels);
      if (note) notes.push(note);
    }
    return strategy.snapshot ? new StrategyCheckpoint(pg, strategy, topic, labels) : null;
  }

  /** Crawler's checkpoint hook: synchronous, so the write goes on behind it, one at a time. */
  save(): void {
    if (this.#closed) return;
    if (this.#writing) {
      this.#again = true;
      return;
    }
    const value = strategyStateJson(this.#strategy, this.#topic, this.#labels);
    this.#writing = this.#pg
      .setMeta(STRATEGY_STATE, value)
      .then(
        () => {
          this.#failure = null;
        },
        (err: unknown) => {
          this.#failure = err;
        },
      )
      .finally(() => {
        this.#writing = null;
        if (this.#again) {
          this.#again = false;
          this.save();
        }
      });
  }

  /** Waits for the writes asked for so far; rethrows the failure of the last one (a lost PostgreSQL). */
  async settle(): Promise<void> {
    while (this.#writing) await this.#writing;
    const failure = this.#failure;
    this.#failure = null;
    if (failure) throw failure;
  }

  /** No more writes: the one going on ends (or fails) before the pool closes. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#again = false;
    await this.settle().catch(() => {});
  }
}
