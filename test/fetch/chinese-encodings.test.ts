import { test } from 'node:test';
import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { decodeHtml } from '../../src/fetch/decode-body.js';
import { parseHtml } from '../../src/parse/html-page.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import { pageRelevance } from '../../src/relevance/vsm-scorer.js';

const simplified = '<html><head><title>在线地图服务</title></head><body><h1>国家地理信息公共服务平台</h1><p>平台提供在线地图服务、地理信息数据下载和地图图层浏览，用户可以通过网络访问各类地图服务。</p></body></html>';
const traditional = '<html><head><title>線上地圖服務</title></head><body><h1>國家地理資訊公共服務平台</h1><p>平台提供線上地圖服務、地理資訊資料下載和地圖圖層瀏覽，使用者可以透過網路存取各類地圖服務。</p></body></html>';

function score(html: string, bytes: Uint8Array, topic: ReturnType<typeof topicFromFile>): number {
  const { html: decoded } = decodeHtml(bytes, 'text/html');
  assert.equal(decoded, html);
  return pageRelevance(topic, parseHtml(decoded, 'http://example.cn/'));
}

test('GBK and Big5 pages with no charset anywhere score as their UTF-8 versions', () => {
  const gb = topicFromFile({ name: '地图', keywords: { 地图: 3, 服务: 2, 地理: 1 } });
  const utf8 = score(simplified, Buffer.from(simplified), gb);
  assert.ok(utf8 > 0.2);
  assert.equal(score(simplified, iconv.encode(simplified, 'gbk'), gb), utf8);
  const big5Topic = topicFromFile({ name: '地圖', keywords: { 地圖: 3, 服務: 2, 地理: 1 } });
  const utf8Tw = score(traditional, Buffer.from(traditional), big5Topic);
  assert.ok(utf8Tw > 0.2);
  assert.equal(score(traditional, iconv.encode(traditional, 'big5'), big5Topic), utf8Tw);
});
