import { spaceCjk } from './space-cjk.js';

/** A small English stopword list; the text-pipeline issue replaces it with maintained lists. */
const STOPWORDS = new Set(
  ('a an and are as at be but by for from has have he her his i in is it its of on or our she that the their them they ' +
    'this to was we were what when where which who will with you your not no can all any more most other some such ' +
    'than then there these those would could should do does did been being into about also if so up out over only ' +
    '的 了 和 是 在 就 都 而 及 与 着 或 一个 我们 你们 他们 这 那').split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Words of a text: NFKC-normalised, lower-cased, CJK runs segmented by Intl.Segmenter,
 * stopwords removed. Chinese and English words come out of the same pipeline.
 */
export function tokenize(text: string): string[] {
  const norm = spaceCjk(text.normalize('NFKC').toLowerCase());
  const out: string[] = [];
  for (const m of norm.matchAll(WORD)) {
    const w = m[0];
    if (!STOPWORDS.has(w)) out.push(w);
  }
  return out;
}

/** Term frequencies of a text. */
export function termCounts(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  for (const w of tokenize(text)) tf.set(w, (tf.get(w) ?? 0) + 1);
  return tf;
}
