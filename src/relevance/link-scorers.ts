import { foldChinese } from '../text/fold-chinese.js';
import { termCounts, urlTokens } from '../text/tokenize.js';
import { readableUrl } from '../parse/readable-url.js';
import { explainedCosine, type Scored } from './scored.js';
import type { Topic } from './topic.js';
import type { Level } from './level-scorer.js';

/** Method A: link relevance r = cos(anchor-text term vector, T). Only the anchor is read. */
export function anchorScore(topic: Topic, anchor: string): Scored {
  return explainedCosine(termCounts(anchor, topic.tokenizeOptions), topic.vector);
}

/**
 * Shark-search's anchor context: cos(term vector of the text around the link, T). The parser
 * provides the context when asked (ParseOptions.linkContext).
 */
export function contextScore(topic: Topic, context: string): Scored {
  return explainedCosine(termCounts(context, topic.tokenizeOptions), topic.vector);
}

/** Between words: anything not a letter or digit, and the edges of a run of Han characters. */
const WORD_BREAK = /[^\p{L}\p{N}]+|(?<=\p{Script=Han})(?=[\p{L}\p{N}])(?!\p{Script=Han})|(?<=[\p{L}\p{N}])(?<!\p{Script=Han})(?=\p{Script=Han})/u;

/**
 * Method B's link level over the URL string and the anchor text: 2 when a link keyword occurs,
 * 1 when only an abbreviation does, 0 otherwise. A one-word keyword must match a whole word of
 * the URL or anchor (so 'wms' does not match 'wmsx'); a phrase must occur in their text.
 */
export function linkLevel(topic: Topic, url: string, anchor: string): { level: Level; matched: string | null } {
  // Chinese writers leave no space between an acronym and a word ("WMS服务"): the anchor's words
  // break where Han script starts or ends, as at spaces.
  const words = new Set([...urlTokens(url), ...foldChinese(anchor.normalize('NFKC').toLowerCase()).split(WORD_BREAK).filter(Boolean)]);
  // The URL as a browser shows it: a Chinese keyword is in /新闻/地图服务.html, not in its %E5... form.
  const haystack = foldChinese((readableUrl(url) + ' ' + anchor).normalize('NFKC').toLowerCase());
  const hit = (k: string) => (/^[\p{L}\p{N}]+$/u.test(k) && !/\p{Script=Han}/u.test(k) ? words.has(k) : haystack.includes(k));
  const k = topic.linkKeywords.find(hit);
  if (k) return { level: 2, matched: k };
  const s = topic.linkAbbreviations.find(hit);
  if (s) return { level: 1, matched: s };
  return { level: 0, matched: null };
}
