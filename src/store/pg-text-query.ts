import { FocusCrawlError } from '../errors.js';
import { cjkBigrams } from '../text/cjk-bigrams.js';
import { foldLatinDiacritics } from '../text/fold-latin-diacritics.js';

const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]/;
const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+/g;

/**
 * What separates words on both sides of the index: anything but letters, digits and combining
 * marks (Devanagari vowel signs belong to their word). PostgreSQL's parser would otherwise keep
 * hosts, e-mail addresses, paths and numbers such as 3.5 as single tokens, so neither 'example'
 * nor 'example.com' (split into two words by the query side) found a page about example.com,
 * where the SQLite index (unicode61) finds both.
 */
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/gu;

/**
 * A page's title and text as PgStore indexes them: CJK runs as their bigrams (cjk-bigrams.ts),
 * words separated by single spaces, so PostgreSQL's parser sees nothing but words. NFKC as the
 * query is: the full-width Latin of Chinese pages (ＧＩＳ) is found by GIS. Latin diacritics are
 * folded on both sides (café is found by cafe and the reverse), as the SQLite index does.
 */
export function pgSearchText(title: string | null, text: string | null): string {
  return foldLatinDiacritics((cjkBigrams(title ?? '') + '\n' + cjkBigrams(text ?? '')).normalize('NFKC')).replace(SEPARATORS, ' ');
}

const lexeme = (s: string) => "'" + foldLatinDiacritics(s.toLowerCase()).replace(/'/g, "''") + "'";

/** One query word as tsquery: CJK runs as a phrase of their bigrams, one CJK character as a prefix. */
function wordQuery(word: string): string {
  if (!CJK.test(word)) return lexeme(word);
  const tokens: string[] = [];
  const parts = word.split(CJK_RUN);
  const runs = word.match(CJK_RUN) ?? [];
  parts.forEach((p, i) => {
    if (p) tokens.push(lexeme(p));
    const run = runs[i];
    if (!run) return;
    if (run.length === 1) tokens.push(lexeme(run) + ':*');
    else for (let k = 0; k + 1 < run.length; k++) tokens.push(lexeme(run.slice(k, k + 2)));
  });
  return tokens.length === 1 ? tokens[0]! : '(' + tokens.join(' <-> ') + ')';
}

/**
 * Free text as a PostgreSQL tsquery over the 'simple' configuration that cannot be a syntax error:
 * every word quoted, all words required; CJK words match the bigrams PgStore indexes, as the
 * SQLite index does (cjk-bigrams.ts).
 */
export function pgTextQuery(query: string): string {
  const words = query.normalize('NFKC').split(SEPARATORS).filter(Boolean);
  if (!words.length) throw new FocusCrawlError('USAGE', `search query '${query}' has no words to look for`);
  return words.map(wordQuery).join(' & ');
}
