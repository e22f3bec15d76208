import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cjkBigrams, cjkQueryTerm } from '../../src/text/cjk-bigrams.js';

test('CJK runs become overlapping bigrams; other text is unchanged', () => {
  assert.equal(cjkBigrams('solar 太阳能 panel'), 'solar  太阳 阳能  panel');
  assert.equal(cjkBigrams('plain English'), 'plain English');
  assert.equal(cjkBigrams('光'), ' 光 ');
});

test('query words become phrases of bigrams, one character a prefix query', () => {
  assert.equal(cjkQueryTerm('太阳能'), '"太阳 阳能"');
  assert.equal(cjkQueryTerm('光'), '"光"*');
  assert.equal(cjkQueryTerm('北京2024年'), '"北京 京 2024 年"*', "a run the word goes on after has its lone last character, as the page's index does");
  assert.equal(cjkQueryTerm('光伏组件'), '"光伏 伏组 组件"', 'a run that ends the word has none: the page may go on');
  assert.equal(cjkQueryTerm('solar'), '"solar"');
  assert.equal(cjkQueryTerm('a"b'), '"a""b"');
});
