import { CJK, CJK_RUN } from './cjk-ranges.js';
import { foldChinese } from './fold-chinese.js';
/**
 * Full-text indexing form of CJK text: every run of CJK characters becomes its overlapping
 * character bigrams ("太阳能" -> "太阳 阳能"), the scheme of Lucene's CJKAnalyzer. FTS5's
 * unicode61 tokenizer would otherwise index a whole run of Chinese (no spaces) as one token.
 * Bigrams need no dictionary, cost a few string operations, and find any word of two or more
 * characters as a phrase of its bigrams; a one-character query becomes a prefix query.
 * Text without CJK costs one regex test.
 */

function bigrams(run: string): string {
  if (run.length === 1) return run;
  // Slices joined once: a string built with += per character was about twice as slow (the
  // bigram row of bench/score, bench/RESULTS.md 2026-11-23).
  const parts = new Array<string>(run.length - 1);
  for (let i = 0; i + 1 < run.length; i++) parts[i] = run.slice(i, i + 2);
  return parts.join(' ');
}

/** CJK text as bigrams, other text as it is (the term form relevance scoring uses). */
export function cjkBigrams(text: string): string {
  if (!CJK.test(text)) return text;
  return text.replace(CJK_RUN, (run) => ' ' + bigrams(run) + ' ');
}

/**
 * The text as both full-text indexes (SQLite and PostgreSQL) are given it: NFKC, as queries are
 * (full-width ｓｏｌａｒ is solar, ﬁ is fi, half-width ｿｰﾗｰ is ソーラー), traditional Chinese
 * folded as relevance reads it (fold-chinese.ts: 網路 is indexed as 网络), then bigrams with each
 * run's last character also alone, so that a one-character query, a prefix query, finds the
 * character that ends a run ("好" in "我的书很好" is in no bigram's first place).
 */
export function indexForm(text: string): string {
  const norm = foldChinese(text.normalize('NFKC'));
  if (!CJK.test(norm)) return norm;
  return norm.replace(CJK_RUN, (run) => ' ' + bigrams(run) + (run.length > 1 ? ' ' + run[run.length - 1] : '') + ' ');
}

/**
 * A query word as the tokens its index form has in a row, so that one phrase finds it in both
 * indexes: a CJK run as its bigrams, followed by its last character alone where the word goes on
 * after it ("北京2024年" is 北京 京 2024 年, as the page's text is indexed), but not where the
 * word ends (the page's run may go on: "光伏组件" is in "光伏组件安装", whose index has no lone 件).
 * A one-character run that ends the word is a prefix (`prefix`): "A股" finds "A股市".
 */
export function queryTokens(word: string): { tokens: string[]; prefix: boolean } {
  const tokens: string[] = [];
  const parts = word.split(CJK_RUN);
  const runs = word.match(CJK_RUN) ?? [];
  let prefix = false;
  parts.forEach((p, i) => {
    if (p) tokens.push(p);
    const run = runs[i];
    if (!run) return;
    const last = i === runs.length - 1 && !parts[i + 1];
    if (run.length === 1) {
      tokens.push(run);
      prefix = last;
      return;
    }
    for (let k = 0; k + 1 < run.length; k++) tokens.push(run.slice(k, k + 2));
    if (!last) tokens.push(run[run.length - 1]!);
  });
  return { tokens, prefix };
}

/**
 * A query word as an FTS5 query expression: a quoted phrase of its index tokens (queryTokens),
 * marked as a prefix when it ends in a one-character CJK run; a quoted term otherwise.
 */
export function cjkQueryTerm(word: string): string {
  const quote = (s: string) => '"' + s.replace(/"/g, '""') + '"';
  if (!CJK.test(word)) return quote(word);
  const { tokens, prefix } = queryTokens(word);
  return quote(tokens.join(' ')) + (prefix ? '*' : '');
}
