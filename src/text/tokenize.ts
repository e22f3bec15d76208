import { stemmer } from 'stemmer';
import { spaceCjk } from './space-cjk.js';
import { STOPWORDS } from './stopwords.js';

export interface TokenizeOptions {
  /** Porter-stem English words (Chinese words are never stemmed). Default false. */
  stem?: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;
const LATIN = /^[a-z]+$/;

/**
 * Words of a text: NFKC-normalised, lower-cased, CJK runs segmented into words by
 * Intl.Segmenter (ICU's dictionary, nothing shipped), stopwords removed, English optionally
 * stemmed. Chinese and English words come out of the same pipeline.
 */
export function tokenize(text: string, opts: TokenizeOptions = {}): string[] {
  const norm = spaceCjk(text.normalize('NFKC').toLowerCase());
  const out: string[] = [];
  for (const m of norm.matchAll(WORD)) {
    const w = m[0];
    if (STOPWORDS.has(w)) continue;
    out.push(opts.stem && LATIN.test(w) ? stemmer(w) : w);
  }
  return out;
}

/** Term frequencies of a text. */
export function termCounts(text: string, opts: TokenizeOptions = {}): Map<string, number> {
  const tf = new Map<string, number>();
  for (const w of tokenize(text, opts)) tf.set(w, (tf.get(w) ?? 0) + 1);
  return tf;
}

/** Words of a URL: host labels, path segments and query parts split at punctuation. */
export function urlTokens(url: string, opts: TokenizeOptions = {}): string[] {
  let decoded = url;
  try {
    decoded = decodeURI(url);
  } catch {
    /* keep it encoded */
  }
  return tokenize(decoded.replace(/^https?:\/\//i, '').replace(/[_./?=&:%+-]+/g, ' '), opts);
}
