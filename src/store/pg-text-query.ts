import { CJK, CJK_RUN } from '../text/cjk-ranges.js';
import { prefixWords, queryWords, searchableQuery } from './query-words.js';
import { indexForm, queryTokens } from '../text/cjk-bigrams.js';
import { foldLatinDiacritics } from '../text/fold-latin-diacritics.js';


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
  return searchSource(title, text).replace(SEPARATORS, ' ');
}

/** PostgreSQL's limits on a tsvector (tsvector.h): a lexeme's bytes, a position, positions per lexeme, lexemes and positions together. */
const MAX_LEXEME_BYTES = 2047;
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;
const MAX_TSVECTOR_BYTES = (1 << 20) - 1;

/**
 * A page's title and text as a tsvector literal (`'word':1,4 'other':2`), the lexemes and
 * positions to_tsvector('simple', pgSearchText(...)) gives, for PostgreSQL to read with a cast.
 * Why not to_tsvector in the database: its parser cost the server about 0.1 ms of CPU a page,
 * half of what storing a page costs it, and a shared crawl's database usually shares its
 * machine (bench/distributed/cpu-per-page). The cast only reads the literal. Words PostgreSQL
 * would refuse are left out rather than failing the page's batch: a word over 2,047 bytes (as
 * to_tsvector skips it, without a position), words past the 1 MB a tsvector may hold (where
 * to_tsvector fails). Positions past 16,383 count as
 * 16,383 and a lexeme keeps its first 256, as PostgreSQL does. Lexemes are lowercased here to
 * group them; the statement lowercases the literal again with the database's own lower(), the
 * function the 'simple' dictionary applies to query words, so both sides agree.
 */
export function pgTsvector(title: string | null, text: string | null): string {
  // Positions as text built as the words come (rather than number arrays joined): a third less CPU.
  const index = new Map<string, number>();
  const lexemes: string[] = [];
  const positions: string[] = [];
  const counts: number[] = [];
  let pos = 0;
  let bytes = 0;
  // The words of pgSearchText, found by a scan rather than its replace and split: those built a
  // copy of the text per step and a match per separator, 40 KB of garbage per 2 KB page, and a
  // shared crawl's worker spent a third of its CPU in the garbage collector (cpu-per-page).
  const src = searchSource(title, text);
  const n = src.length;
  let i = 0;
  while (i < n) {
    let k = wordUnitsAt(src, i);
    if (k === 0) {
      i++;
      continue;
    }
    const start = i;
    // Only words with a capital or a non-ASCII character are lowercased: toLowerCase copies.
    let mixed = false;
    do {
      const c = src.charCodeAt(i);
      if ((c >= 65 && c <= 90) || c >= 128) mixed = true;
      i += k;
    } while (i < n && (k = wordUnitsAt(src, i)) !== 0);
    const w = mixed ? src.slice(start, i).toLowerCase() : src.slice(start, i);
    // to_tsvector skips a long word without counting its position (a UTF-16 unit is at most 3 bytes).
    if (w.length * 3 > MAX_LEXEME_BYTES && utf8Length(w) > MAX_LEXEME_BYTES) continue;
    const clamped = pos === MAX_POSITION;
    if (!clamped) pos++;
    const at = index.get(w);
    if (at === undefined) {
      // What a lexeme takes in the tsvector: its bytes aligned to 2, a count of positions, a position.
      const len = utf8Length(w);
      const size = len + (len & 1) + 4;
      if (bytes + size > MAX_TSVECTOR_BYTES) continue;
      bytes += size;
      index.set(w, lexemes.length);
      lexemes.push(w);
      positions.push(String(pos));
      counts.push(1);
    } else if (counts[at]! < MAX_POSITIONS && bytes + 2 <= MAX_TSVECTOR_BYTES && !(clamped && positions[at]!.endsWith(String(MAX_POSITION)))) {
      positions[at] += ',' + pos;
      counts[at]!++;
      bytes += 2;
    }
  }
  let out = '';
  for (let j = 0; j < lexemes.length; j++) out += (j ? " '" : "'") + lexemes[j] + "':" + positions[j];
  return out;
}

/** pgSearchText before its separators become spaces: the text whose words are indexed. */
function searchSource(title: string | null, text: string | null): string {
  return foldLatinDiacritics(indexForm(title ?? '') + '\n' + indexForm(text ?? ''));
}

/** Per UTF-16 unit: 0 not yet known, 1 part of a word (SEPARATORS does not match it), 2 a separator. */
const UNIT_KIND = new Uint8Array(65536);
for (let c = 0; c < 128; c++) UNIT_KIND[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 2;
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const ASTRAL_KIND = new Map<number, boolean>();

/** How many UTF-16 units of a word character start at i (1, or 2 for a surrogate pair), 0 for a separator. */
function wordUnitsAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d < 0xe000) {
      const cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
      let word = ASTRAL_KIND.get(cp);
      if (word === undefined) {
        word = WORD_CHAR.test(String.fromCodePoint(cp));
        if (ASTRAL_KIND.size < 65536) ASTRAL_KIND.set(cp, word);
      }
      return word ? 2 : 0;
    }
  }
  let k = UNIT_KIND[c]!;
  // A lone surrogate is no character to /u: a separator, as SEPARATORS has it.
  if (k === 0) UNIT_KIND[c] = k = c >= 0xd800 && c < 0xe000 ? 2 : WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
  return k === 1 ? 1 : 0;
}

function utf8Length(w: string): number {
  let n = 0;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const lexeme = (s: string) => "'" + foldLatinDiacritics(s.toLowerCase()).replace(/'/g, "''") + "'";

/** One query word as tsquery: the phrase of its index tokens, as the SQLite index is asked (queryTokens). */
function wordQuery(word: string): string {
  if (!CJK.test(word)) return lexeme(word);
  const { tokens, prefix } = queryTokens(word);
  const ts = tokens.map((t, i) => lexeme(t) + (prefix && i === tokens.length - 1 ? ':*' : ''));
  return ts.length === 1 ? ts[0]! : '(' + ts.join(' <-> ') + ')';
}

/**
 * Free text as a PostgreSQL tsquery over the 'simple' configuration that cannot be a syntax error:
 * every word quoted, all words required; CJK words match the bigrams PgStore indexes, as the
 * SQLite index does (cjk-bigrams.ts).
 */
export function pgTextQuery(query: string): string {
  const words = queryWords(searchableQuery(query).split(SEPARATORS).filter(Boolean), query);
  const prefixes = prefixWords(query, SEPARATORS);
  return words.map((w) => (prefixes.has(w.toLowerCase()) ? lexeme(w) + ':*' : wordQuery(w))).join(' & ');
}
