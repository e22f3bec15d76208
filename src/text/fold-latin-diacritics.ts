/**
 * Latin letters without their diacritics (café → cafe, Ångström → Angstrom), as SQLite's unicode61
 * tokenizer folds them (remove_diacritics): the PostgreSQL index folds the same way, so a search
 * finds the same pages in both repositories. Other scripts keep their marks: a Devanagari vowel
 * sign or a Cyrillic й is part of its letter.
 */
export function foldLatinDiacritics(s: string): string {
  // Most text has nothing to fold; skip the two normalizations for it.
  if (!/[\u00c0-\u024f\u1e00-\u1eff\u0300-\u036f]/.test(s)) return s;
  return s.normalize('NFD').replace(/(\p{Script=Latin})\p{Mn}+/gu, '$1').normalize('NFC');
}
