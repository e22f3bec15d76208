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

test('a <meta> naming a legacy encoding for bytes that are valid UTF-8 is overruled (no HTTP charset), and the page says so', () => {
  const long = Buffer.from(`<meta charset="gbk"><title>${zh}</title><p>${zh}，太阳能光伏发电</p>`);
  assert.equal(detectEncoding(long, 'text/html'), 'UTF-8', 'many multi-byte characters: the GBK reading is implausible');
  assert.deepEqual(decodeHtml(long, 'text/html'), { html: long.toString('utf8'), encoding: 'UTF-8 (declared GBK)' });
  const short = Buffer.from('<meta charset="gbk"><p>地图服 map</p>');
  assert.ok(new TextDecoder('gbk').decode(short).includes('\uFFFD'), 'read as GBK, the three characters give a replacement character');
  assert.deepEqual(decodeHtml(short, 'text/html'), { html: short.toString('utf8'), encoding: 'UTF-8 (declared GBK)' });
  const latin = Buffer.from('<meta charset="windows-1252"><p>Café, crème brûlée, naïve déjà-vu à la carte, Zoë</p>');
  assert.equal(decodeHtml(latin, 'text/html').encoding, 'UTF-8 (declared windows-1252)');
});

test('the declared encoding stands for text really in it, for ASCII-only pages, and whenever HTTP names a charset', () => {
  const gbk = iconv.encode(`<meta charset="gbk"><p>${zh}</p>`, 'gbk');
  assert.deepEqual(decodeHtml(gbk, 'text/html'), { html: `<meta charset="gbk"><p>${zh}</p>`, encoding: 'GBK' });
  // Two GBK characters that happen to be valid UTF-8 (C3 A6 C3 A6: "忙忙"): few, and no replacement character as GBK.
  const accidental = iconv.encode('<meta charset="gbk"><p>忙忙</p>', 'gbk');
  assert.doesNotThrow(() => new TextDecoder('utf-8', { fatal: true }).decode(accidental));
  assert.equal(decodeHtml(accidental, 'text/html').html.includes('忙忙'), true);
  assert.equal(detectEncoding(Buffer.from('<meta charset="windows-1252"><p>plain ascii</p>'), 'text/html'), 'windows-1252');
  assert.equal(detectEncoding(Buffer.from(`<meta charset="gbk"><p>${zh.repeat(3)}</p>`), 'text/html; charset=GBK'), 'GBK', 'HTTP charset is not second-guessed');
});
