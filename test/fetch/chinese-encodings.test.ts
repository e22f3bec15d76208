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

test('a topic written in simplified Chinese scores a Taiwan page (Big5, traditional characters and words) as its mainland version, and the other way round', () => {
  const mainland = '<html><head><title>网络服务器设置</title></head><body><p>本章介绍网络服务器的软件和数据库的默认设置。</p></body></html>';
  const taiwan = '<html><head><title>網路伺服器設定</title></head><body><p>本章介紹網路伺服器的軟體和資料庫的預設設定。</p></body></html>';
  const simplifiedTopic = topicFromFile({ name: '网络服务器', keywords: { 网络: 3, 服务器: 3, 软件: 2, 数据库: 1 } });
  const traditionalTopic = topicFromFile({ name: '網路伺服器', keywords: { 網路: 3, 伺服器: 3, 軟體: 2, 資料庫: 1 } });
  const mainlandScore = score(mainland, Buffer.from(mainland), simplifiedTopic);
  assert.ok(mainlandScore > 0.3, `${mainlandScore}`);
  // 伺服器 is written alike in both scripts, so the Taiwan page keeps it beside 服务器: a few more terms.
  const taiwanScore = score(taiwan, iconv.encode(taiwan, 'big5'), simplifiedTopic);
  assert.ok(taiwanScore > 0.85 * mainlandScore && taiwanScore <= mainlandScore, `the Taiwan page reads nearly as the mainland one: ${taiwanScore} against ${mainlandScore}`);
  const unfolded = topicFromFile({ name: 'x', keywords: { 网路: 3, 伺服器: 3, 软体: 2, 资料库: 1 } });
  assert.ok(score(mainland, Buffer.from(mainland), unfolded) < 0.1, 'a character fold alone would not make the words one');
  const fromTraditional = score(mainland, Buffer.from(mainland), traditionalTopic);
  assert.ok(fromTraditional > 0.7 * mainlandScore, `a topic in traditional Chinese finds the mainland page: ${fromTraditional} against ${mainlandScore}`);
});
