import { z } from 'zod';
import { loadFile } from '../config/load-file.js';
import { termCounts, tokenize } from '../text/tokenize.js';
import { cosine } from './cosine.js';

/** The topic file. Its minimal form is `name:` and `keywords:`; later fields are optional. */
export const topicFileSchema = z.strictObject({
  name: z.string().min(1),
  /** Term (or phrase) -> weight > 0. A phrase's words each get its weight. */
  keywords: z.record(z.string().min(1), z.number().positive()).refine((k) => Object.keys(k).length > 0, 'needs at least one keyword'),
  /** Relevance at or above which a page counts as relevant in statistics. Default 0.2. */
  threshold: z.number().min(0).max(1).default(0.2),
});
export type TopicFile = z.output<typeof topicFileSchema>;

/** A topic ready for scoring: the topic vector T and the relevance threshold. */
export interface Topic {
  name: string;
  vector: ReadonlyMap<string, number>;
  threshold: number;
}

export function topicFromFile(t: TopicFile): Topic {
  const vector = new Map<string, number>();
  for (const [term, weight] of Object.entries(t.keywords)) {
    for (const w of tokenize(term)) vector.set(w, Math.max(vector.get(w) ?? 0, weight));
  }
  return { name: t.name, vector, threshold: t.threshold };
}

export function loadTopic(file: string): Topic {
  return topicFromFile(loadFile(file, topicFileSchema, 'topic'));
}

/**
 * rel(p) = cos(T, P) with P the term frequencies of the page's title and text (the whole page
 * vector, so a long page that mentions a keyword once scores low). In [0, 1].
 */
export function pageRelevance(topic: Topic, title: string, text: string): number {
  return cosine(topic.vector, termCounts(title + ' ' + text));
}
