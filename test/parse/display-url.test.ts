import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayUrl } from '../../src/parse/display-url.js';

test('displayUrl shows Chinese paths and queries as a browser does, and keeps ASCII escapes as they are', () => {
  assert.equal(displayUrl('http://a.test/%E6%96%B0%E9%97%BB/%E5%8C%97%E4%BA%AC?q=%E5%A4%AA%E9%98%B3%E8%83%BD'), 'http://a.test/新闻/北京?q=太阳能');
  assert.equal(displayUrl('http://a.test/a%20b/c%2Fd?x=%25&y=%0A'), 'http://a.test/a%20b/c%2Fd?x=%25&y=%0A');
  assert.equal(displayUrl('http://a.test/plain'), 'http://a.test/plain');
});

test('displayUrl keeps what is no UTF-8 (a GBK query) and what a terminal must not be shown, escaped', () => {
  // 北京 in GBK: no UTF-8, shown as it is.
  assert.equal(displayUrl('http://a.test/s?q=%B1%B1%BE%A9'), 'http://a.test/s?q=%B1%B1%BE%A9');
  // A right-to-left override, a zero-width space, an ideographic space, a C1 control and U+FFFD stay escaped; the characters around them are decoded.
  assert.equal(displayUrl('http://a.test/%E4%B8%AD%E2%80%AE%E6%96%87'), 'http://a.test/中%E2%80%AE文');
  assert.equal(displayUrl('http://a.test/%E2%80%8B%E3%80%80%C2%9B%EF%BF%BD'), 'http://a.test/%E2%80%8B%E3%80%80%C2%9B%EF%BF%BD');
  // Invisible letters and marks, noncharacters and slash lookalikes stay escaped (two URLs must not look the same).
  for (const c of ['\u3164', '\u115F', '\uFFA0', '\u034F', '\uFE0F', '\uFFFE', '\u{10FFFF}', '\uFF0F', '\u2215', '\u0338']) {
    const escaped = encodeURIComponent(c);
    assert.equal(displayUrl(`http://a.test/a${escaped}b`), `http://a.test/a${escaped}b`, escaped);
  }
  // A UTF-8 run cut short stays as it is.
  assert.equal(displayUrl('http://a.test/%E6%96'), 'http://a.test/%E6%96');
});
