import { CJK_RUN } from './cjk-ranges.js';
/**
 * Candidate terms in Chinese (and Japanese, Korean) text, for a topic learned from sample pages,
 * found from the samples' own repetitions rather than a dictionary: ICU's dictionary has no
 * 光伏 (photovoltaic), the kind of domain word a topic is made of. Every string of 2 to
 * MAX_TERM characters inside a CJK run is counted; a string is a term when it repeats (any
 * 2-character one may stand alone) and no one-character-longer string containing it occurs as
 * often: 伏逆, seen only inside 光伏逆变器, is a piece of it, not a term. Bigrams alone, as the
 * index uses them, made keywords such as 伏逆 and cut 逆变器 in two.
 */
/** The longest term proposed, in characters. */
const MAX_TERM = 8;
/**
 * Chinese function characters, which join words rather than make them: a term neither starts nor
 * ends with one, and 的逆变器 does not make 逆变器 a piece of it, however often 的 precedes it.
 */
const FUNCTION_CHARS = new Set('的了是在和与及或把被将对为也就都而之其这那');

export function cjkTerms(texts: readonly string[]): string[] {
  // The runs hold only BMP characters (CJK_RUN), so a character is one UTF-16 unit.
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const run of text.normalize('NFKC').toLowerCase().match(CJK_RUN) ?? []) {
      // One longer than a term, so that the longest terms have strings to be compared with.
      for (let n = 2; n <= MAX_TERM + 1; n++) {
        for (let i = 0; i + n <= run.length; i++) {
          const s = run.slice(i, i + n);
          counts.set(s, (counts.get(s) ?? 0) + 1);
        }
      }
    }
  }
  // The count of the most frequent string one character longer that contains each string.
  const longer = new Map<string, number>();
  for (const [t, c] of counts) {
    if (t.length < 3) continue;
    if (!FUNCTION_CHARS.has(t[0]!) && (longer.get(t.slice(1)) ?? 0) < c) longer.set(t.slice(1), c);
    if (!FUNCTION_CHARS.has(t[t.length - 1]!) && (longer.get(t.slice(0, -1)) ?? 0) < c) longer.set(t.slice(0, -1), c);
  }
  const terms: string[] = [];
  for (const [s, c] of counts) {
    if (s.length > MAX_TERM || (s.length > 2 && c < 2) || FUNCTION_CHARS.has(s[0]!) || FUNCTION_CHARS.has(s[s.length - 1]!)) continue;
    if ((longer.get(s) ?? 0) < c) terms.push(s);
  }
  return terms;
}
