import { test } from 'node:test';
import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { charsetOf, decodeHtml, detectEncoding } from '../../src/fetch/decode-body.js';

const zh = '地图服务目录';

test('the HTTP charset wins over a <meta> that disagrees, a BOM wins over both', () => {
  const body = iconv.encode(`<meta charset="utf-8"><p>${zh}</p>`, 'gbk');
  assert.equal(detectEncoding(body, 'text/html; charset=GBK'), 'GBK');
  assert.ok(decodeHtml(body, 'text/html; charset=gbk').html.includes(zh));
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`<p>${zh}</p>`)]);
  assert.equal(detectEncoding(bom, 'text/html; charset=gbk'), 'UTF-8');
});

test('a <meta charset> prescan finds GBK and Big5', () => {
  assert.equal(detectEncoding(iconv.encode(`<meta charset="gb2312"><p>${zh}</p>`, 'gbk'), 'text/html'), 'GBK');
  const big5 = iconv.encode(`<meta http-equiv="content-type" content="text/html; charset=big5"><p>地圖服務</p>`, 'big5');
  assert.equal(decodeHtml(big5, 'text/html').html.includes('地圖服務'), true);
});

test('with no declaration: valid UTF-8, short GBK, Latin-1 and Cyrillic are told apart', () => {
  assert.equal(decodeHtml(iconv.encode('<p>Café résumé naïve, déjà vu</p>', 'latin1'), '').html, '<p>Café résumé naïve, déjà vu</p>');
  assert.equal(decodeHtml(iconv.encode('<p>Привет мир, как у вас дела сегодня</p>', 'win1251'), '').html, '<p>Привет мир, как у вас дела сегодня</p>');
  assert.equal(detectEncoding(Buffer.from(`<p>${zh}</p>`), ''), 'UTF-8');
  const gbk = iconv.encode(`<p>${zh}</p>`, 'gbk');
  assert.equal(decodeHtml(gbk, 'text/html').html, `<p>${zh}</p>`);
});

test('charsetOf reads quoted and unquoted parameters', () => {
  assert.equal(charsetOf('text/html; charset="Big5"'), 'Big5');
  assert.equal(charsetOf('text/html;charset=utf-8'), 'utf-8');
  assert.equal(charsetOf('text/html'), undefined);
});
