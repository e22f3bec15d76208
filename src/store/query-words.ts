import { CJK as CJK_CHAR } from '../text/cjk-ranges.js';
import { FocusCrawlError } from '../errors.js';
import { foldChinese } from '../text/fold-chinese.js';

/** Words of one search: more is a pasted text, not a query, and each word is a full-text lookup. */
export const MAX_QUERY_WORDS = 64;

/**
 * A query's words, each once (case aside): every word is required, so a repeat adds nothing but
 * work (4,000 copies of one word took 16 s). Refuses a query of no word or of too many.
 */
export function queryWords(words: readonly string[], query: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of words) {
    const key = w.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(w);
  }
  const shown = shownQuery(query);
  if (!out.length) throw new FocusCrawlError('USAGE', `search query '${shown}' has no words to look for`);
  if (out.length > MAX_QUERY_WORDS) throw new FocusCrawlError('USAGE', `search query '${shown}' has ${out.length} different words; at most ${MAX_QUERY_WORDS} are looked for`);
  return out;
}

/** A query as messages quote it: a pasted page is cut to its first 60 characters. */
export function shownQuery(query: string): string {
  return query.length > 60 ? `${query.slice(0, 60)}…` : query;
}

/**
 * The query's text as the index holds page text: without the characters a page shows as
 * nothing inside a word (the soft hyphen of photo&shy;voltaic, zero-width space, word joiner;
 * html-page.ts drops them from pages), in NFKC, traditional Chinese folded as the index folds it.
 */
export function searchableQuery(query: string): string {
  return foldChinese(query.replace(/[\0\u00ad\u200b\u2060]/g, '').normalize('NFKC'), undefined, false);
}

/**
 * The words a query asks for as prefixes, lower-cased: those written with a `*` right after them
 * (`sol*` finds solar and solstice), as FTS5, PostgreSQL and Lucene users write them. `separators`
 * splits words as the backend's query side does. A CJK word is matched by its bigrams, never as a
 * prefix of its own.
 */
export function prefixWords(query: string, separators: RegExp): Set<string> {
  const out = new Set<string>();
  for (const m of searchableQuery(query).matchAll(/([^*\s]+)\*/gu)) {
    const word = m[1]!.split(separators).filter(Boolean).pop();
    // One letter (the t of don't*) would match most of the index: a prefix has two at least.
    if (word && word.length >= 2 && !CJK_CHAR.test(word)) out.add(word.toLowerCase());
  }
  return out;
}

