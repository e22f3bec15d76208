import { CJK } from '../text/cjk-ranges.js';
import { tokenize, type TokenizeOptions } from '../text/tokenize.js';
import { cjkTerms } from '../text/cjk-terms.js';

export interface RankedTerm {
  term: string;
  /** tf x idf, see rankTerms. */
  weight: number;
  /** Sample documents containing the term. */
  df: number;
}

function countPhrase(tokens: string[], phrase: string[]): number {
  if (phrase.length === 1) return tokens.reduce((n, t) => (t === phrase[0] ? n + 1 : n), 0);
  let n = 0;
  outer: for (let i = 0; i + phrase.length <= tokens.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (tokens[i + j] !== phrase[j]) continue outer;
    n++;
  }
  return n;
}

/**
 * Ranks terms by TF-IDF over sample documents (method B's topic-term selection).
 *   tf(t)  = occurrences of t in the samples / all sample tokens
 *   idf(t) = ln((1 + N) / (1 + df(t))) + 1, N and df over samples and background documents
 * The smoothed idf keeps a term that occurs in every sample positive: the source ranks terms over
 * pages that are all about the topic, where plain idf would zero the best terms. Candidates may be
 * phrases (counted as consecutive words). With no candidates every sample word is a candidate,
 * and the background documents make words common everywhere rank low; words without a letter
 * are not proposed.
 */
export function rankTerms(samples: string[], opts: { candidates?: string[] | null; background?: string[]; tokenize?: TokenizeOptions } = {}): RankedTerm[] {
  const tk = opts.tokenize ?? {};
  const sampleTokens = samples.map((s) => tokenize(s, tk));
  const backgroundTokens = (opts.background ?? []).map((s) => tokenize(s, tk));
  const total = sampleTokens.reduce((n, d) => n + d.length, 0);
  if (total === 0) return [];
  const n = sampleTokens.length + backgroundTokens.length;
  const candidates = opts.candidates?.length
    ? opts.candidates.map((c) => ({ term: c, words: tokenize(c, tk) })).filter((c) => c.words.length > 0)
    : // A word with no letter (a version, a year, a line number) is absent from the background
      // and so ranked first, yet names no topic: proposed only when the user lists it. Chinese
      // is proposed as the terms its samples repeat (cjkTerms), counted as the topic will count
      // them (their bigrams in a row).
      [
        ...[...new Set(sampleTokens.flat())].filter((w) => /\p{L}/u.test(w) && !CJK.test(w)).map((w) => ({ term: w, words: [w] })),
        ...cjkTerms(samples).map((w) => ({ term: w, words: tokenize(w, tk) })).filter((c) => c.words.length > 0),
      ];
  const ranked = candidates.map(({ term, words }) => {
    let occurrences = 0;
    let df = 0;
    for (const d of sampleTokens) {
      const c = countPhrase(d, words);
      occurrences += c;
      if (c) df++;
    }
    let dfAll = df;
    for (const d of backgroundTokens) if (countPhrase(d, words)) dfAll++;
    return { term, weight: (occurrences / total) * (Math.log((1 + n) / (1 + dfAll)) + 1), df };
  });
  return ranked.filter((r) => r.weight > 0).sort((a, b) => b.weight - a.weight || a.term.localeCompare(b.term));
}
