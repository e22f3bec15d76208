import type { PgStore } from '../store/pg-store.js';
import type { Strategy } from '../strategies/strategy.js';

/** The meta key of a learning strategy's snapshot, as the embedded crawl stores it in SQLite. */
export const STRATEGY_STATE = 'strategyState';

/**
 * What a learning strategy learned, stored in PostgreSQL the way the embedded crawl stores it in
 * SQLite, so a worker that joins a shared crawl late, replaces a killed one, or resumes the crawl
 * starts from what the crawl had learned rather than from nothing. Every worker's copy hears the
 * others' evidence (EvidenceExchange), so any worker's snapshot stands for the crawl: the last
 * one written wins. What was learned between that snapshot and a joiner's subscription (at most
 * the checkpoint interval, 30 s) is not heard again.
 */
export class StrategyCheckpoint {
  readonly #pg: PgStore;
  readonly #strategy: Strategy & { snapshot(): unknown };
  #writing: Promise<void> | null = null;
  /** A checkpoint asked for while the last write was still going: written after it, with the state of then. */
  #again = false;
  #failure: unknown = null;

  private constructor(pg: PgStore, strategy: Strategy & { snapshot(): unknown }) {
    this.#pg = pg;
    this.#strategy = strategy;
  }

  /**
   * Restores `strategy` from the crawl's stored snapshot, if any, and returns the checkpoint that
   * keeps storing it (null for a strategy that learns nothing). A stored snapshot that does not
   * parse is not the crawl's record (the pages are): the strategy starts afresh, and says so in `notes`.
   */
  static async open(pg: PgStore, strategy: Strategy, notes: string[]): Promise<StrategyCheckpoint | null> {
    if (strategy.restore) {
      const stored = await pg.getMeta(STRATEGY_STATE);
      if (stored !== null) {
        try {
          strategy.restore(JSON.parse(stored));
        } catch (err) {
          notes.push(`the ${strategy.name} strategy could not restore what the crawl had learned (${(err as Error).message.split('\n')[0]}): it starts afresh`);
        }
      }
    }
    const { snapshot } = strategy;
    return snapshot ? new StrategyCheckpoint(pg, strategy as Strategy & { snapshot(): unknown }) : null;
  }

  /** Crawler's checkpoint hook: synchronous, so the write goes on behind it, one at a time. */
  save(): void {
    if (this.#writing) {
      this.#again = true;
      return;
    }
    const value = JSON.stringify(this.#strategy.snapshot());
    this.#writing = this.#pg
      .setMeta(STRATEGY_STATE, value)
      .catch((err: unknown) => {
        this.#failure ??= err;
      })
      .finally(() => {
        this.#writing = null;
        if (this.#again) {
          this.#again = false;
          this.save();
        }
      });
  }

  /** Waits for the writes asked for so far; rethrows the first that failed (a lost PostgreSQL). */
  async settle(): Promise<void> {
    while (this.#writing) await this.#writing;
    const failure = this.#failure;
    this.#failure = null;
    if (failure) throw failure;
  }
}
