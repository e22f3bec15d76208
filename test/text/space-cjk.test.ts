import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spaceCjk } from '../../src/text/space-cjk.js';

test('CJK runs are split into words; a run far longer than one piece keeps every character, in order', () => {
  const words = spaceCjk('solar 太阳能电池板 panel').split(/\s+/).filter(Boolean);
  assert.ok(words.length > 3 && words.includes('电池'), words.join('|'));
  // An unpunctuated run of 100,000 characters (ICU took 13 s on one before runs were cut in pieces).
  const run = '我们研究太阳能电池的效率和成本'.repeat(6700);
  const spaced = spaceCjk(run);
  assert.equal(spaced.replace(/ /g, ''), run);
  assert.ok(spaced.split(' ').filter(Boolean).length > run.length / 4, 'segmented into words, not left whole');
});
