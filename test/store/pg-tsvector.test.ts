import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pgSearchText, pgTsvector } from '../../src/store/pg-text-query.js';

/**
 * pgTsvector scans for words instead of replacing separators and splitting (pg-store.test.ts
 * checks it against PostgreSQL's to_tsvector). Here, on many random texts mixing every kind of
 * character, it must give what the plain reading of pgSearchText gives: its words split on spaces,
 * lowercased, positions counted from 1.
 */
function reference(title: string | null, text: string | null): string {
  const lexemes = new Map<string, number[]>();
  let pos = 0;
  for (const w of pgSearchText(title, text).toLowerCase().split(' ')) {
    if (!w) continue;
    pos++;
    const list = lexemes.get(w);
    if (list) list.push(pos);
    else lexemes.set(w, [pos]);
  }
  return [...lexemes].map(([w, p]) => `'${w}':${p.join(',')}`).join(' ');
}

const PIECES = [
  'solar', 'Energy', 'ÉTÉ', 'café', 'naïve', 'İstanbul', 'ΟΔΟΣ', 'σοφός', 'Straße', '3.5', 'kW', 'example.com', 'a-b', "it's", 'back\\slash', '"quoted"',
  '光伏发电', '电', 'ＧＩＳ', 'ｶﾀｶﾅ', 'हिन्दी', 'ภาษาไทย', '𝐀𝐁', '𠀀𠀁', '😀', '\ud800', '\udc00x', 'x\u0301', '\u00a0', '\u3000', '\t', '\n', ' ', '—', '…', '_', '١٢٣',
];

test('pgTsvector gives the words, lowercase forms and positions of pgSearchText on random mixed texts', () => {
  let seed = 11;
  const rnd = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
  const text = () => Array.from({ length: rnd(40) }, () => PIECES[rnd(PIECES.length)]! + (rnd(3) ? ' ' : '')).join('');
  let nonEmpty = 0;
  for (let i = 0; i < 2000; i++) {
    const title = rnd(4) ? text() : null;
    const body = rnd(5) ? text() : null;
    const got = pgTsvector(title, body);
    assert.equal(got, reference(title, body), JSON.stringify([title, body]));
    if (got) nonEmpty++;
  }
  assert.ok(nonEmpty > 1500);
  // The scan sees a lone surrogate, an emoji and punctuation as separators, as the replace does.
  assert.equal(pgTsvector('a\ud800b', 'c😀d e—f'), "'a':1 'b':2 'c':3 'd':4 'e':5 'f':6");
  assert.equal(pgTsvector(null, '𠀀𠀁 𝐀𝐁'), "'𠀀𠀁':1 'ab':2");
});
