import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldChinese } from '../../src/text/fold-chinese.js';
import { tokenize } from '../../src/text/tokenize.js';

test('traditional characters and regional variants fold to simplified ones, regional words to the mainland\'s', () => {
  assert.equal(foldChinese('為什麼網路會斷線'), '为什么网络会断线');
  assert.equal(foldChinese('軟體與資料庫的預設值'), '软件与数据库的默认值');
  assert.equal(foldChinese('網路伺服器設定'), '网络服务器设置\n伺服器', 'a word written alike in both scripts keeps its own reading too, after the text');
  assert.equal(foldChinese('網際網路'), '互联网', 'a longer word wins over the shorter one inside it');
  assert.equal(foldChinese('解方程式與程式設計'), '解方程式与编程', 'a word that means the same in both stays (方程式 is not 方程序)');
  assert.equal(foldChinese('綫上 臺灣'), '线上 台湾', "Hong Kong's and Taiwan's variant forms");
});

test('text with no traditional character is returned as it is, simplified words included', () => {
  for (const s of ['为什么', '什么是程式化交易', 'solar panels', 'タワー 한국어', '', '𠀀𠀁 astral']) {
    assert.equal(foldChinese(s), s, s);
  }
});

test('topic terms and page terms agree across scripts', () => {
  assert.deepEqual(tokenize('網路與軟體'), tokenize('网络与软件'));
  const taiwan = tokenize('Linux 核心與網路');
  for (const term of ['linux', '核心', '网络']) assert.ok(taiwan.includes(term), term);
  assert.ok(taiwan.includes('内核'), "Taiwan's 核心 is also the mainland's 内核 (kernel)");
  assert.deepEqual(tokenize('東京'), tokenize('东京'), 'Japanese kanji fold as Chinese characters do, in topics and pages alike');
});
