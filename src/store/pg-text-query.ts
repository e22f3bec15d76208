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
  for (const w of pgSearchText(title, text).toLowerCase().split(' ')) {
    if (!w) continue;
    // to_tsvector skips a long word without counting its position (a UTF-16 unit is at most 3 bytes).
    if (w.length * 3 > MAX_LEXEME_BYTES && utf8Length(w) > MAX_LEXEME_BYTES) continue;
    const clamped = pos === MAX_POSITION;
    if (!clamped) pos++;
    const i = index.get(w);
    if (i === undefined) {
      // What a lexeme takes in the tsvector: its bytes aligned to 2, a count of positions, a position.
      const n = utf8Length(w);
      const size = n + (n & 1) + 4;
      if (bytes + size > MAX_TSVECTOR_BYTES) continue;
      bytes += size;
      index.set(w, lexemes.length);
      lexemes.push(w);
      positions.push(String(pos));
      counts.push(1);
    } else if (counts[i]! < MAX_POSITIONS && bytes + 2 <= MAX_TSVECTOR_BYTES && !(clamped && positions[i]!.endsWith(String(MAX_POSITION)))) {
      positions[i] += ',' + pos;
      counts[i]!++;
      bytes += 2;
    }
  }
  let out = '';
  for (let i = 0; i < lexemes.length; i++) out += (i ? " '" : "'") + lexemes[i] + "':" + positions[i];
  return out;
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
