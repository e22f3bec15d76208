import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHtml } from '../../src/parse/html-page.js';
import type { Topic } from '../../src/relevance/topic.js';
import { pageRelevance } from '../../src/relevance/vsm-scorer.js';
import { pageFile, type BuiltSite } from './built-site.js';
import type { SiteEncoding } from './manifest.js';

/** The reachable pages as the topic ranks them, and how many of them (and of the targets) it calls relevant. */
export interface TopicRanking {
  /** Page indices, highest relevance first (ties in index order). */
  order: number[];
  /** Pages whose relevance reaches the topic's threshold. */
  relevant: number;
  /** Targets whose relevance reaches it. */
  relevantTargets: number;
}

/**
 * How well a topic file's words agree with a topic's labels, apart from any crawl: every reachable
 * page scored by the crawler's own page relevance (what every strategy's parent evidence is made
 * of) and sorted. Read as a fetch order, it is what a crawler that could score every page before
 * fetching it would reach by following the topic; a strategy that follows the topic cannot be
 * expected far above it, whatever the links. It is a diagnosis of the topic and the labels, never
 * a grade of a strategy: strategies are graded against the labels only.
 */
export function topicRanking(site: BuiltSite, pagesDir: string, encoding: SiteEncoding, origin: string, topic: Topic, reach: ReadonlySet<number>, targets: ReadonlySet<number>): TopicRanking {
  const decoder = new TextDecoder(encoding);
  const scored: { i: number; r: number }[] = [];
  for (const i of reach) {
    const url = site.urls[i]!;
    const html = decoder.decode(readFileSync(join(pagesDir, pageFile(url))));
    scored.push({ i, r: pageRelevance(topic, parseHtml(html, origin + url, encoding)) });
  }
  scored.sort((a, b) => b.r - a.r || a.i - b.i);
  const relevant = scored.filter((s) => s.r >= topic.threshold);
  return { order: scored.map((s) => s.i), relevant: relevant.length, relevantTargets: relevant.filter((s) => targets.has(s.i)).length };
}
