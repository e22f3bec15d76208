import { CJK_RUN } from './cjk-ranges.js';
/**
 * Inserts spaces between the words of CJK runs so that whitespace tokenizers (SQLite FTS5's
 * unicode61, PostgreSQL's 'simple') index Chinese words, which are written without spaces.
 * Intl.Segmenter carries ICU's dictionary, so nothing has to be shipped. Text without CJK
 * characters is returned unchanged and costs one regex scan.
 */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/**
 * ICU's dictionary segmentation grows faster than linearly with a run's length (an unpunctuated
 * run of 80,000 characters took 10 s, of 40,000 0.2 s): a run is segmented in pieces of this many
 * characters, which may split the one word that straddles a cut.
 */
const PIECE = 1000;

export function spaceCjk(text: string): string {
  return text.replace(CJK_RUN, (run) => {
    if (run.length === 1) return ' ' + run + ' ';
    let out = ' ';
    for (let at = 0; at < run.length; at += PIECE) {
      for (const s of segmenter.segment(run.slice(at, at + PIECE))) out += s.segment + ' ';
    }
    return out;
  });
}
