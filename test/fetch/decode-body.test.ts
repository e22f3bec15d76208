import { test } from 'node:test';
import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { charsetOf, decodeHtml, detectEncoding } from '../../src/fetch/decode-body.js';
import { queryInPageEncoding } from '../../src/parse/query-encoding.js';

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

test('a GBK page under a server-wide UTF-8 label is read as its <meta> says; a UTF-8 page with one bad byte stays UTF-8', () => {
  const gbk = iconv.encode(`<html><head><meta charset="gbk"><title>光伏</title></head><p>${zh}，太阳能光伏发电系统的安装与维护。</p>`, 'gbk');
  const d = decodeHtml(gbk, 'text/html; charset=utf-8');
  assert.ok(d.html.includes(zh) && d.html.includes('太阳能光伏'), d.html);
  assert.equal(d.encoding, 'GBK (declared UTF-8)');
  // A UTF-8 page under a copied GBK template, with one stray byte: the label's reading stands.
  const utf8 = Buffer.concat([Buffer.from(`<meta charset="gbk"><p>${zh}，太阳能光伏发电系统`), Buffer.from([0xff]), Buffer.from('的安装与维护。</p>')]);
  const u = decodeHtml(utf8, 'text/html; charset=utf-8');
  assert.equal(u.encoding, 'UTF-8');
  assert.ok(u.html.includes('太阳能光伏发电系统'));
});

test("Big5 is WHATWG's Big5-HKSCS: Hong Kong's characters are kept, in the text and in a link's query", () => {
  const hk = '呢個太陽能板唔啱，佢哋喺屋邨裝咗嘅';
  const body = iconv.encode(`<p>${hk}</p>`, 'big5hkscs');
  assert.equal(decodeHtml(body, 'text/html; charset=big5').html, `<p>${hk}</p>`);
  assert.equal(decodeHtml(iconv.encode(`<meta charset="big5"><p>${hk}</p>`, 'big5hkscs'), 'text/html').html.includes(hk), true);
  assert.equal(queryInPageEncoding('/s?q=嘅', 'Big5'), `/s?q=${[...iconv.encode('嘅', 'big5hkscs')].map((b) => '%' + b.toString(16).toUpperCase()).join('')}`);
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

test('GBK and GB2312 labels decode four-byte GB18030 characters, as browsers do', () => {
  const text = '南汉高祖刘䶮 生僻字𬌗 光伏';
  const gb = iconv.encode(`<p>${text}</p>`, 'gb18030');
  assert.notEqual(new TextDecoder('gbk').decode(gb), `<p>${text}</p>`, "Node's own GBK decoder loses them");
  assert.equal(decodeHtml(gb, 'text/html; charset=gb2312').html, `<p>${text}</p>`);
  const meta = Buffer.concat([Buffer.from('<meta charset="gbk">'), gb]);
  assert.deepEqual(decodeHtml(meta, 'text/html'), { html: `<meta charset="gbk"><p>${text}</p>`, encoding: 'GBK' });
});

test('a declared encoding the sniffer does not know but TextDecoder does (ISO-2022-JP, x-mac-cyrillic) is used', () => {
  // 日本語 in JIS X 0208 between the escapes of ISO-2022-JP (iconv-lite has no encoder for it).
  const jis = Buffer.concat([Buffer.from('<meta charset="iso-2022-jp"><p>'), Buffer.from([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x38, 0x6c, 0x1b, 0x28, 0x42]), Buffer.from('</p>')]);
  assert.equal(decodeHtml(jis, 'text/html').html, '<meta charset="iso-2022-jp"><p>日本語</p>');
  const mac = iconv.encode('<p>Привет мир</p>', 'maccyrillic');
  assert.deepEqual(decodeHtml(mac, 'text/html; charset=x-mac-cyrillic'), { html: '<p>Привет мир</p>', encoding: 'x-mac-cyrillic' });
});

test('undeclared Greek, Cyrillic, Hebrew and Arabic pages are read in the encoding chardet finds, not as windows-1252', () => {
  const pages: [string, string][] = [
    ['Η Ελλάδα είναι μια χώρα στη νοτιοανατολική Ευρώπη με πλούσια ιστορία και πολιτισμό, γνωστή για τα νησιά της.', 'iso-8859-7'],
    ['Москва является столицей России и крупнейшим городом страны, её политическим, экономическим и культурным центром. Город расположен на реке Москве в центре Восточно-Европейской равнины.', 'koi8-r'],
    ['Москва является столицей России и крупнейшим городом страны, её политическим, экономическим и культурным центром. Город расположен на реке Москве в центре Восточно-Европейской равнины.', 'windows-1251'],
    ['ירושלים היא עיר הבירה של מדינת ישראל והעיר הגדולה ביותר בה, עיר עתיקה וקדושה לשלוש דתות.', 'iso-8859-8'],
    ['القاهرة هي عاصمة جمهورية مصر العربية وأكبر مدنها، وتقع على ضفاف نهر النيل في شمال البلاد.', 'windows-1256'],
  ];
  for (const [text, enc] of pages) {
    const html = `<html><body><p>${text}</p></body></html>`;
    assert.equal(decodeHtml(iconv.encode(html, enc), 'text/html').html, html, enc);
  }
});

test('a <meta charset> after the first 1024 bytes of the head is still read; one in the body is not', () => {
  const text = 'Привет мир'; // too short for chardet to be sure: only the <meta> says it
  const late = `<html><head><script>${'var x = 1;\n'.repeat(10_000)}</script><meta charset="windows-1251"></head><body><p>${text}</p></body></html>`;
  assert.equal(decodeHtml(iconv.encode(late, 'windows-1251'), 'text/html').html, late);
  // Hostile bytes: 256 KB of "<meta " with no ">" (13 s before the tag's length was bounded),
  // and a real declaration after them still counts.
  const junk = Buffer.concat([Buffer.from([0xff]), Buffer.from('<meta '.repeat(50_000), 'latin1'), iconv.encode(`<meta charset="windows-1251"><p>${text}</p>`, 'windows-1251')]);
  assert.notEqual(decodeHtml(junk, 'text/html').encoding.toLowerCase(), 'windows-1251', 'past 256 KB: not read');
  const near = Buffer.concat([Buffer.from([0xff]), Buffer.from('<meta '.repeat(20_000), 'latin1'), Buffer.from('<meta charset="windows-1251">')]);
  assert.equal(decodeHtml(near, 'text/html').encoding.toLowerCase(), 'windows-1251');
  const inBody = `<html><head></head><body>${'<p>plain</p>'.repeat(200)}<meta charset="koi8-r"><p>caf\u00e9</p></body></html>`;
  assert.notEqual(decodeHtml(iconv.encode(inBody, 'windows-1252'), 'text/html').encoding, 'KOI8-R');
});
