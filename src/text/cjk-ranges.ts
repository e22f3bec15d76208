/**
 * The characters every part of focuscrawl treats as CJK text (Han, kana, Hangul): tokenizing,
 * both full-text indexes, query words and topic terms must agree on them, or a word indexed one
 * way is searched another.
 */
const CLASS = '[\\u3400-\\u9fff\\uf900-\\ufaff\\u3040-\\u30ff\\uac00-\\ud7af]';

/** One CJK character anywhere (for .test: no global flag, no state between calls). */
export const CJK = new RegExp(CLASS);

/** Runs of CJK characters, for replace, match and split (global: never use it with .test or .exec). */
export const CJK_RUN = new RegExp(CLASS + '+', 'g');

/** A word of two or more CJK characters and nothing else. */
export const CJK_WORD = new RegExp('^' + CLASS + '{2,}$');
