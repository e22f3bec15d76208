import type { PositionTerms } from '../text/position-terms.js';
import { explainedCosine, type Scored } from './scored.js';
import type { Topic } from './topic.js';

/** Method B's page relevance level: 2 (highly relevant), 1 (relevant) or 0. */
export type Level = 0 | 1 | 2;

export function levelOf(r: number, levels: { high: number; low: number }): Level {
  return r >= levels.high ? 2 : r >= levels.low ? 1 : 0;
}

/**
 * Method B: the page vector P holds only the topic terms, each counted in the <title> and in the
 * <body> with the topic's title and body weights (title weighted higher); r = cos(T, P), and the
 * level follows from the 0.68 / 0.01 thresholds. Unlike vsmScore, other words do not dilute r.
 */
export function levelScore(topic: Topic, terms: PositionTerms): Scored & { level: Level } {
  const p = new Map<string, number>();
  for (const t of topic.vector.keys()) {
    const n = topic.positions.title * (terms.title.get(t) ?? 0) + topic.positions.body * (terms.body.get(t) ?? 0);
    if (n > 0) p.set(t, n);
  }
  const s = explainedCosine(p, topic.vector);
  const level = levelOf(s.score, topic.levels);
  return { ...s, level, detail: { level } };
}
