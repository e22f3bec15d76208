import { FocusCrawlError } from '../errors.js';

const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]/;
const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+/g;

const lexeme = (s: string) => "'" + s.toLowerCase().replace(/'/g, "''") + "'";

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
  const words = query.normalize('NFKC').split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  if (!words.length) throw new FocusCrawlError('USAGE', `search query '${query}' has no words to look for`);
  return words.map(wordQuery).join(' & ');
}
