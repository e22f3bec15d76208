/**
 * What a strategy has to tell the other workers' copies of it (Strategy.evidence): nothing until
 * the first drain() asks (an embedded crawl never does), then the records pushed since the last
 * drain. A caller that stops asking (a strategy object used again in another crawl) loses the
 * oldest half each time `max` is reached, never memory, and never a shift per push.
 */
export class EvidenceLog<T> {
  readonly #max: number;
  #said: T[] | null = null;

  constructor(max = 10_000) {
    this.#max = max;
  }

  /** Whether anyone asked: records are worth building only then. */
  get recording(): boolean {
    return this.#said !== null;
  }

  push(record: T): void {
    if (!this.#said) return;
    if (this.#said.length >= this.#max) this.#said.splice(0, this.#max >> 1);
    this.#said.push(record);
  }

  /** The records since the last call; the first call starts the recording and returns none. */
  drain(): T[] {
    const out = this.#said ?? [];
    this.#said = [];
    return out;
  }
}
