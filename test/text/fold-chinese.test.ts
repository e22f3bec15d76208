import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldChinese } from '../../src/text/fold-chinese.js';
import { tokenize } from '../../src/text/tokenize.js';

test('traditional characters and regional variants fold to simplified ones, regional words to the mainland\'s', () => {
  assert.equal(foldChinese('為什麼網路會斷線'), '为什么网络会断线');
  assert.equal(foldChinese('軟體與資料庫的預設值'), '软件与数据库的默认值');
  assert.equal(foldChinese('網路伺服器設定'), '伺服器\n网络服务器设置', 'a word written alike in both scripts keeps its own reading too, before the text');
  assert.equal(foldChinese('網際網路'), '互联网', 'a longer word wins over the shorter one inside it');
  assert.equal(foldChinese('解方程式與程式設計'), '解方程式与编程', 'a word that means the same in both stays (方程式 is not 方程序)');
  assert.equal(foldChinese('綫上 臺灣'), '线上 台湾', "Hong Kong's and Taiwan's variant forms");
});

test('folded words are lower-cased as the text is, and a character outside the BMP is never produced', () => {
  assert.deepEqual(tokenize('隨身碟'), ['u', '盘'], "Taiwan's 隨身碟 is the mainland's U盘, read as the lower-cased text around it is");
  assert.equal(foldChinese('二噁英'), '二恶英', 'a table entry giving 𫫇 (outside the BMP) is not used');
  for (const s of ['隨身碟裝置', '二噁英', 'PN接面']) {
    const folded = foldChinese(s.toLowerCase());
    assert.ok(!/[A-Z\ud800-\udfff]/.test(folded), `${s} -> ${folded}`);
  }
});

test('simplified characters that OpenCC also lists as traditional forms (著 of 显著) fold alike everywhere but do not make a text traditional', () => {
  assert.equal(foldChinese('显著 核心'), '显着 核心', 'characters fold, words are left alone: 核心 stays');
  assert.deepEqual(tokenize('显著'), tokenize('顯著'));
  assert.equal(foldChinese('顯著 核心').includes('内核'), true, 'in traditional text 核心 is also read as 内核');
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
