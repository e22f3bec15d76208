import iconv from 'iconv-lite';
import HKPhrasesRev from 'opencc-js/dict/HKPhrasesRev';
import HKVariantsRev from 'opencc-js/dict/HKVariantsRev';
import TSCharacters from 'opencc-js/dict/TSCharacters';
import STCharacters from 'opencc-js/dict/STCharacters';
import TSPhrases from 'opencc-js/dict/TSPhrases';
import TWPhrasesRev from 'opencc-js/dict/TWPhrasesRev';
import TWVariantsRev from 'opencc-js/dict/TWVariantsRev';

/**
 * Chinese as mainland China writes it, for matching words (relevance, never the stored text):
 * traditional characters and Taiwan's and Hong Kong's variant forms folded to simplified ones
 * (網路 is read as 网路, 為 as 为), and, in text that has traditional characters, Taiwan's and
 * Hong Kong's words as the mainland's (網路 as 网络, 軟體 as 软件), from OpenCC's tables
 * (opencc-js). A topic written in simplified Chinese then finds a Taiwan or Hong Kong page's
 * words, and one written in traditional Chinese a mainland page's. Folding to simplified loses
 * nothing simplified text does not already lose (乾 and 幹 are both 干 there). Words are rewritten
 * only where traditional characters show the text is not mainland Chinese, and a word written
 * alike in both scripts keeps its own reading beside the mainland's (伺服器 is read as 服务器 and
 * 伺服器, 核心 as 内核 and 核心). Japanese kanji fold too, on pages and topics alike.
 */
const FOLD = new Uint16Array(0x10000);
/**
 * 1: a character that folds; 2: one that also shows a text is traditional Chinese, which those
 * GB2312 has do not, GB2312 being simplified Chinese's character set (著 of 显著, 後, 於 and 乾 are
 * simplified characters too).
 */
const KIND = new Uint8Array(0x10000);
const FOLDS = 1;
const TRADITIONAL = 2;

/** True for a character of GB2312's Chinese characters (GBK's bytes B0-F7, A1-FE). */
function inGb2312(c: string): boolean {
  const b = iconv.encode(c, 'gbk');
  return b.length === 2 && b[0]! >= 0xb0 && b[0]! <= 0xf7 && b[1]! >= 0xa1 && b[1]! <= 0xfe;
}

function table(dict: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const entry of dict.split('|')) {
    const [from, to] = entry.split(' ');
    if (from && to) m.set(from, to);
  }
  return m;
}

{
  const ts = table(TSCharacters);
  const variants = [table(TWVariantsRev), table(HKVariantsRev)];
  const keys = new Set([...ts.keys(), ...variants.flatMap((v) => [...v.keys()])]);
  // A character simplified text uses as it is stays (么 of 什么 is Taiwan's form of 幺, 麽 a simplified one).
  const simplified = new Set([...table(STCharacters).keys(), ...ts.values()]);
  for (const from of keys) {
    if (simplified.has(from)) continue;
    // A regional form goes to OpenCC's standard traditional form first, then to simplified.
    const standard = variants.map((v) => v.get(from)).find((x) => x !== undefined) ?? from;
    const to = ts.get(standard) ?? ts.get(from) ?? standard;
    // The CJK ranges focuscrawl reads (cjk-ranges.ts) are in the BMP.
    if (to === from || from.length !== 1 || to.length !== 1) continue;
    FOLD[from.charCodeAt(0)] = to.charCodeAt(0);
    KIND[from.charCodeAt(0)] = inGb2312(from) ? FOLDS : TRADITIONAL;
  }
}

/** Regional words -> the mainland's (still in traditional characters, folded after), longest first per first character. */
const PHRASES = new Map<string, [string, string][]>();
{
  const all = new Map<string, string>();
  // Taiwan's words first, then Hong Kong's, then phrases whose characters fold differently together.
  for (const dict of [TSPhrases, HKPhrasesRev, TWPhrasesRev]) for (const [from, to] of table(dict)) all.set(from.toLowerCase(), to.toLowerCase());
  for (const [from, to] of all) {
    // Kept when it maps to itself: 方程式 must not become 方程序 through 程式. Text is lower-cased
    // before it is folded (隨身碟 is U盤, read as u盘); a character outside the BMP is no CJK term
    // anywhere else (cjk-ranges.ts), so 二噁英 stays as written.
    if (from.length < 2 || /[\ud800-\udfff]/.test(from + to)) continue;
    const list = PHRASES.get(from[0]!) ?? [];
    list.push([from, to]);
    PHRASES.set(from[0]!, list);
  }
  for (const list of PHRASES.values()) list.sort((a, b) => b[0].length - a[0].length);
}

/** The text's kind in one pass: TRADITIONAL if a character shows it, FOLDS if one folds, else 0. */
function kindOf(text: string): number {
  let kind = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x3400) continue;
    const k = KIND[c]!;
    if (k === TRADITIONAL) return k;
    kind |= k;
  }
  return kind;
}

/** True when the text has a character only traditional Chinese writes (see KIND). */
export function hasTraditional(text: string): boolean {
  return kindOf(text) === TRADITIONAL;
}

/**
 * Regional words replaced by the mainland's, longest match first. `both`: a word written alike in
 * both scripts (see foldChinese) is also given as written, before the text, so that the mainland
 * words stay next to their neighbours (a phrase search for 服务器设置 finds 伺服器設定).
 */
function mainlandWords(text: string, both: boolean): string {
  const out: string[] = [];
  const own: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; ) {
    const list = text.charCodeAt(i) >= 0x3400 ? PHRASES.get(text[i]!) : undefined;
    const hit = list?.find(([w]) => text.startsWith(w, i));
    if (!hit) {
      i++;
      continue;
    }
    out.push(text.slice(from, i), hit[1]);
    if (both && hit[0] !== hit[1] && !hasTraditional(hit[0])) own.push(hit[0]);
    i += hit[0].length;
    from = i;
  }
  if (from === 0) return text;
  out.push(text.slice(from));
  // First, so that PostgreSQL's positions (at most 16,383) still tell its bigrams apart on a long page.
  if (own.length) out.unshift(own.join(' '), '\n');
  return out.join('');
}

const UTF16 = new TextDecoder('utf-16le');

/** Every character that folds, folded. Only BMP characters outside the surrogates change, so the code units decode back as they were. */
function foldChars(text: string): string {
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    codes[i] = (c >= 0x3400 && FOLD[c]) || c;
  }
  return UTF16.decode(codes);
}

/**
 * The text as mainland Chinese writes it (see above): characters folded in any text, words
 * rewritten where the text has a character only traditional Chinese writes, or where
 * `traditional` says it is traditional Chinese anyway (a topic's keywords: 伺服器 alone does not
 * show its script, the topic's other keywords do); the same string when nothing folds. `bothReadings` false
 * gives a word written alike in both scripts the mainland's reading only: a search query, whose
 * words are all required, asks for 服务器 where the page's index holds 服务器 and 伺服器.
 */
export function foldChinese(text: string, traditional?: boolean, bothReadings = true): string {
  const kind = kindOf(text);
  const words = traditional ?? kind === TRADITIONAL;
  if (!words && kind === 0) return text;
  // Characters fold in every text alike (显著 is read as 显着 everywhere); words only in traditional text.
  return foldChars(words ? mainlandWords(text, bothReadings) : text);
}

/** Characters only, no words (the same length as the text: positions in it are the text's own). */
export function foldChineseChars(text: string): string {
  return kindOf(text) === 0 ? text : foldChars(text);
}
