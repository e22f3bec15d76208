import { z } from 'zod';
import type { Link } from '../types.js';
import { levelScore } from '../relevance/level-scorer.js';
import { linkLevel } from '../relevance/link-scorers.js';
import type { Topic } from '../relevance/topic.js';
import { positionTerms } from '../text/position-terms.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

export const weightedLevelsOptions = z.strictObject({
  /** Weight of the link level against the page level. */
  lambda: z.number().min(0).max(1).default(0.7),
});
export type WeightedLevelsOptions = z.output<typeof weightedLevelsOptions>;

/** The stop filter: media, scripts and styles, and social networks are never followed. */
const STOP_PATH = /\.(?:jpe?g|png|gif|bmp|webp|svg|ico|tiff?|mp3|wav|ogg|flac|mp4|m4v|avi|mov|wmv|flv|webm|css|js|mjs|json|woff2?|ttf|eot|zip|rar|7z|gz|tgz|exe|dmg|iso|apk)$/i;
const SOCIAL = /(?:^|\.)(?:facebook\.com|twitter\.com|x\.com|instagram\.com|linkedin\.com|youtube\.com|tiktok\.com|pinterest\.com|weibo\.com|weixin\.qq\.com|douyin\.com|reddit\.com)$/i;

export function stopFiltered(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return true;
  }
  return STOP_PATH.test(u.pathname) || SOCIAL.test(u.hostname);
}

/**
 * Method B, weighted page and link priority with levels:
 * priority = lambda * linkRelevance + (1 - lambda) * pageRelevance, both levels 0, 1 or 2
 * (link level from link keywords and abbreviations in the URL and anchor; page level from the
 * topic-term cosine of the parent with the 0.01 / 0.68 thresholds). Priority 0 (an irrelevant link
 * on an irrelevant page) is discarded; a relevant link on an irrelevant page is kept, the
 * difference from classic best-first. Links pass the stop filter first.
 *
 * The source's sub-queues, one per priority level, dequeued from the highest non-empty one, are
 * the frontier's own order: priorities take a few discrete values, and ties go first-in first-out.
 * Seeds get the top priority, 2.
 *
 * Reading for seed pages (the source is silent): seeds are hand-picked, so, as method A trusts
 * seeds, the links of a seed page are never discarded for priority 0; they wait at priority 0,
 * the lowest level, behind everything the method ranks higher. Without this a seed page with no
 * topic words (a portal's bare home page) discards every link and the crawl ends after one page.
 * The stop filter still applies.
 */
export class WeightedLevelsStrategy implements Strategy {
  readonly name = 'weighted-levels';
  readonly topic: Topic;
  readonly options: WeightedLevelsOptions;

  constructor(topic: Topic, options: Partial<WeightedLevelsOptions> = {}) {
    this.topic = topic;
    this.options = weightedLevelsOptions.parse(options);
  }

  seed(): LinkDecision {
    return { priority: 2 };
  }

  scoreLinks(view: PageView, links: readonly Link[]): (LinkDecision | null)[] {
    const { lambda } = this.options;
    const pageLevel = levelScore(this.topic, positionTerms(view.page, this.topic.tokenizeOptions)).level;
    const fromSeed = view.request.depth === 0;
    return links.map((l) => {
      if (stopFiltered(l.url)) return null;
      const { level } = linkLevel(this.topic, l.url, l.anchor);
      const priority = lambda * level + (1 - lambda) * pageLevel;
      return priority > 0 || fromSeed ? { priority, data: { linkLevel: level, pageLevel } } : null;
    });
  }
}
