import { createHash } from 'node:crypto';
import type { Strategy } from './strategy.js';

/** The meta key under which a crawl stores its strategy's state, in SQLite and PostgreSQL alike. */
export const STRATEGY_STATE = 'strategyState';

/**
 * What a crawl stores of its strategy: what it learned (its snapshot), whose it is (the strategy
 * and the topic it learned for), and the dashboard labels it had been fed by then, which a
 * restored strategy must not be fed again (each would count twice, and again at every restore).
 */
interface StoredState {
  v: 2;
  strategy: string;
  topic: string;
  snapshot: unknown;
  labels: [string, boolean][];
}

/** What a crawl feeds its strategy from the dashboard's labels (LabelFeed). */
export interface FedLabels {
  /** URL and label of every label fed so far. */
  fedLabels(): [string, boolean][];
  /** Labels the restored strategy already learned from: fed again only once they change. */
  assumeFed(labels: Iterable<[string, boolean]>): void;
}

/** A short fingerprint of the topic file a strategy learns for (null: none). */
export function topicKey(topic: unknown): string {
  return createHash('sha1').update(JSON.stringify(topic ?? null)).digest('hex').slice(0, 16);
}

/** The state to store; the strategy must have snapshot(). */
export function strategyStateJson(strategy: Strategy, topic: string, labels: FedLabels | undefined): string {
  const state: StoredState = { v: 2, strategy: strategy.name, topic, snapshot: strategy.snapshot!(), labels: labels?.fedLabels() ?? [] };
  return JSON.stringify(state);
}

/**
 * Restores `strategy` from a stored state, and tells `labels` which labels it already learned.
 * Returns a note for the user when the stored state is not restored (or only in part), else null.
 * A state stored for another strategy or another topic (`--force`) is not this crawl's learning any
 * more: the strategy starts afresh. A state from before the labels were stored (a bare snapshot)
 * is restored as it is.
 */
export function restoreStrategyState(stored: string, strategy: Strategy, topic: string, labels: FedLabels | undefined): string | null {
  if (!strategy.restore) return null;
  const why = (reason: string) => `the ${strategy.name} strategy did not restore what the crawl had learned (${reason})`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch (err) {
    return `${why((err as Error).message.split('\n')[0]!)}: it starts afresh`;
  }
  const s = parsed as Partial<StoredState> | null;
  const wrapped = s !== null && typeof s === 'object' && s.v === 2;
  if (wrapped && s.strategy !== strategy.name) return `${why(`it was stored by strategy '${String(s.strategy)}'`)}: it starts afresh`;
  if (wrapped && s.topic !== topic) return `${why('it was learned for another topic')}: it starts afresh`;
  try {
    strategy.restore(wrapped ? s.snapshot : parsed);
  } catch (err) {
    // Restored part by part: what came before the bad part stays learned.
    return `${why((err as Error).message.split('\n')[0]!)}: it goes on with what it could read`;
  }
  if (wrapped && labels && Array.isArray(s.labels)) {
    labels.assumeFed(s.labels.filter((l): l is [string, boolean] => Array.isArray(l) && typeof l[0] === 'string' && typeof l[1] === 'boolean'));
  }
  return null;
}
