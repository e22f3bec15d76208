/**
 * Inserts spaces between the words of CJK runs so that whitespace tokenizers (SQLite FTS5's
 * unicode61, PostgreSQL's 'simple') index Chinese words, which are written without spaces.
 * Intl.Segmenter carries ICU's dictionary, so nothing has to be shipped. Text without CJK
 * characters is returned unchanged and costs one regex scan.
 */
const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+/g;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

export function spaceCjk(text: string): string {
  return text.replace(CJK_RUN, (run) => {
    if (run.length === 1) return ' ' + run + ' ';
    let out = ' ';
    for (const s of segmenter.segment(run)) out += s.segment + ' ';
    return out;
  });
}
