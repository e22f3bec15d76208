import { foldChinese } from './fold-chinese.js';
import { STOPWORDS } from './stopwords.js';

/**
 * The tokenizer of tokenize.ts (bigram mode, no stemming) as a scan over character codes that
 * emits a 53-bit hash per term instead of a string: no substring, Set or Map per word. Used where
 * only counts matter (page relevance on the crawl's hot path); tokenize() stays the reference and
 * test/text/term-hasher.test.ts checks that both agree.
 */
const NON_ASCII = /[^\x00-\x7f]/;
const WORD_CHAR = /[\p{L}\p{N}]/u;

function isCjk(c: number): boolean {
  return (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0xac00 && c <= 0xd7af);
}

/** 1: letter or digit, 2: not; filled lazily per UTF-16 code unit (surrogates count as "not"). */
const charClass = new Uint8Array(65536);
function isWordChar(c: number): boolean {
  let k = charClass[c]!;
  if (k === 0) {
    k = c >= 0xd800 && c <= 0xdfff ? 2 : WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
    charClass[c] = k;
  }
  return k === 1;
}

const M1 = 2654435761;
const M2 = 1597334677;

function finish(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0) * 2097152 + ((h1 >>> 0) & 0x1fffff); // 53 bits, exact in a double
}

/** The hash of a term string, equal to what the scanner emits for it. */
export function hashTerm(term: string): number {
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, M1);
    h2 = Math.imul(h2 ^ c, M2);
  }
  return finish(h1, h2);
}

const STOP_HASHES = new Set([...STOPWORDS].map(hashTerm));

/**
 * Calls emit(hash) for every term of `text`, as tokenize(text, { cjk: 'bigrams' }) would produce
 * them: lower-cased, NFKC for non-ASCII, traditional Chinese folded, CJK runs as overlapping bigrams (a lone CJK character as
 * itself), stopwords skipped.
 */
export function forEachTermHash(text: string, emit: (hash: number) => void): void {
  // ASCII text is case-folded inside the loop: no lower-cased copy of the page is made.
  const s = NON_ASCII.test(text) ? foldChinese(text.normalize('NFKC').toLowerCase()) : text;
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  let len = 0;
  let prev = -1; // previous CJK character of the current run
  let run = 0;
  const endWord = () => {
    if (len) {
      const h = finish(h1, h2);
      if (!STOP_HASHES.has(h)) emit(h);
      h1 = 0x9e3779b9;
      h2 = 0x85ebca6b;
      len = 0;
    }
  };
  const endRun = () => {
    if (run === 1) emitChars(prev, -1, emit);
    run = 0;
    prev = -1;
  };
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (run) endRun();
      h1 = Math.imul(h1 ^ c, M1);
      h2 = Math.imul(h2 ^ c, M2);
      len++;
    } else if (c < 128) {
      endWord();
      if (run) endRun();
    } else if (isCjk(c)) {
      endWord();
      if (prev >= 0) emitChars(prev, c, emit);
      prev = c;
      run++;
    } else if (isWordChar(c)) {
      if (run) endRun();
      h1 = Math.imul(h1 ^ c, M1);
      h2 = Math.imul(h2 ^ c, M2);
      len++;
    } else {
      endWord();
      if (run) endRun();
    }
  }
  endWord();
  if (run) endRun();
}

function emitChars(a: number, b: number, emit: (hash: number) => void): void {
  let h1 = Math.imul(0x9e3779b9 ^ a, M1);
  let h2 = Math.imul(0x85ebca6b ^ a, M2);
  if (b >= 0) {
    h1 = Math.imul(h1 ^ b, M1);
    h2 = Math.imul(h2 ^ b, M2);
  }
  const h = finish(h1, h2);
  if (!STOP_HASHES.has(h)) emit(h);
}

/**
 * Weighted term counts keyed by term hash, in typed arrays reused between pages (open addressing).
 * clear() costs the number of terms added, not the table size.
 */
export class TermAccumulator {
  #keys = new Float64Array(4096);
  #vals = new Float64Array(4096);
  #used: number[] = [];
  #mask = 4095;

  add(hash: number, weight: number): void {
    if (this.#used.length * 2 > this.#mask) this.#grow();
    let i = (hash % 4294967296) & this.#mask;
    for (;;) {
      const k = this.#keys[i]!;
      if (k === hash) {
        this.#vals[i]! += weight;
        return;
      }
      if (k === 0) {
        this.#keys[i] = hash;
        this.#vals[i] = weight;
        this.#used.push(i);
        return;
      }
      i = (i + 1) & this.#mask;
    }
  }

  get(hash: number): number {
    let i = (hash % 4294967296) & this.#mask;
    for (;;) {
      const k = this.#keys[i]!;
      if (k === hash) return this.#vals[i]!;
      if (k === 0) return 0;
      i = (i + 1) & this.#mask;
    }
  }

  sumOfSquares(): number {
    let s = 0;
    for (const i of this.#used) s += this.#vals[i]! * this.#vals[i]!;
    return s;
  }

  clear(): void {
    for (const i of this.#used) {
      this.#keys[i] = 0;
      this.#vals[i] = 0;
    }
    this.#used = [];
  }

  #grow(): void {
    const entries = this.#used.map((i) => [this.#keys[i]!, this.#vals[i]!] as const);
    const size = (this.#mask + 1) * 2;
    this.#keys = new Float64Array(size);
    this.#vals = new Float64Array(size);
    this.#mask = size - 1;
    this.#used = [];
    for (const [k, v] of entries) this.add(k, v);
  }
}
