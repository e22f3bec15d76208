import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExampleScorer } from '../../src/relevance/example-scorer.js';
import { levelOf, levelScore } from '../../src/relevance/level-scorer.js';
import { anchorScore, contextScore, linkLevel } from '../../src/relevance/link-scorers.js';
import { rankTerms } from '../../src/relevance/tfidf-ranking.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import { positionTerms } from '../../src/text/position-terms.js';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-6, `${a} != ${b}`);

test('levels at the 0.01 / 0.68 boundaries (method B)', () => {
  const levels = { high: 0.68, low: 0.01 };
  assert.deepEqual([0.68, 0.6799, 0.01, 0.0099, 0, 1].map((r) => levelOf(r, levels)), [2, 1, 1, 0, 0, 2]);
});

test('method B page vector: topic terms only, title 3x body', () => {
  const topic = topicFromFile({ name: 't', keywords: { solar: 1, panel: 1 } });
  // P = solar 3·1 + 1·2 = 5, panel 1; T = (1, 1): 6 / (√26 · √2)
  const s = levelScore(topic, positionTerms({ url: 'http://a.org/', title: 'Solar', headings: '', text: 'solar solar panel and many other words', links: [] }));
  close(s.score, 6 / Math.sqrt(52));
  assert.equal(s.level, 2);
});

test('anchor-text cosine (method A) and anchor context (shark-search)', () => {
  const topic = topicFromFile({ name: 't', keywords: { solar: 2, panel: 1 } });
  close(anchorScore(topic, 'Solar panel guide').score, 3 / Math.sqrt(15));
  assert.equal(anchorScore(topic, 'click here').score, 0);
  close(contextScore(topic, 'read about solar').score, 2 / Math.sqrt(2 * 5));
});

test('link levels over URL and anchor (method B)', () => {
  const topic = topicFromFile({ name: 't', keywords: { map: 1 }, links: { keywords: ['GetCapabilities', 'wms', '地图服务'], abbreviations: ['gis', 'ows'] } });
  assert.deepEqual(linkLevel(topic, 'http://x.org/geoserver/ows?service=WMS&request=GetCapabilities', 'Map'), { level: 2, matched: 'getcapabilities' });
  assert.deepEqual(linkLevel(topic, 'http://x.org/gis/index.html', 'Maps'), { level: 1, matched: 'gis' });
  assert.deepEqual(linkLevel(topic, 'http://x.org/wmsx/', 'Things'), { level: 0, matched: null });
  assert.deepEqual(linkLevel(topic, 'http://x.org/a', '国家地图服务目录'), { level: 2, matched: '地图服务' });
  // Chinese in a percent-encoded path, and an acronym written against Chinese, as Chinese pages write them.
  assert.deepEqual(linkLevel(topic, 'http://x.org/%E6%96%B0%E9%97%BB/%E5%9C%B0%E5%9B%BE%E6%9C%8D%E5%8A%A1.html', 'news'), { level: 2, matched: '地图服务' });
  assert.deepEqual(linkLevel(topic, 'http://x.org/a', 'WMS服务'), { level: 2, matched: 'wms' });
  assert.deepEqual(linkLevel(topic, 'http://x.org/a', 'GIS平台'), { level: 1, matched: 'gis' });
  assert.deepEqual(linkLevel(topic, 'http://x.org/%D6%D0', 'Things'), { level: 0, matched: null }, 'GBK escapes stay as they are');
});

test('Chinese samples propose the terms they repeat, not bigrams that straddle two words', () => {
  const samples = ['光伏逆变器是把光伏组件产生的直流电转换为交流电的设备。光伏逆变器的效率很重要。', '组串式逆变器与集中式逆变器，光伏电站常用。直流电经过逆变器变成交流电。', '光伏组件、逆变器和支架组成光伏系统。'];
  const terms = rankTerms(samples, { background: ['今天天气很好，我们去公园散步。'] }).map((r) => r.term);
  assert.deepEqual(terms.slice(0, 2).sort(), ['光伏', '逆变器'].sort());
  for (const piece of ['伏逆', '变器', '逆变', '光伏逆', '伏组']) assert.ok(!terms.includes(piece), `${piece} is a piece of a longer term`);
  assert.ok(terms.includes('光伏逆变器') && terms.includes('交流电'), terms.join(' '));
  // A function character that always comes before a word does not make the two one term.
  assert.equal(rankTerms(['我们安装的逆变器很好。选择的逆变器要看效率。', '新的逆变器更便宜。'])[0]?.term, '逆变器');
});

test('TF-IDF ranking on a small corpus computed by hand', () => {
  const ranked = rankTerms(['wms map service', 'wms layer'], { candidates: ['wms', 'map', 'football'], background: ['football match'] });
  // N = 3, sample tokens = 5. wms: 2/5 · (ln(4/3) + 1); map: 1/5 · (ln(4/2) + 1); football: tf 0
  assert.deepEqual(ranked.map((r) => r.term), ['wms', 'map']);
  close(ranked[0]!.weight, 0.4 * (Math.log(4 / 3) + 1));
  close(ranked[1]!.weight, 0.2 * (Math.log(2) + 1));
  const proposed = rankTerms(['wms layer wms', 'wms map'], { background: ['map of the city', 'city map'] });
  assert.equal(proposed[0]!.term, 'wms', 'without candidates, words common in the background rank low');
  const versions = rankTerms(['wms 1.3.0 2024 layer', 'wms 1.3.0 2024 ipv6'], { background: ['city map'] });
  assert.deepEqual(versions.map((r) => r.term).filter((t) => /\d/.test(t)), ['ipv6'], 'numbers are not proposed, words with digits are');
  assert.deepEqual(rankTerms(['wms 1.3.0'], { candidates: ['1.3.0'] }).map((r) => r.term), ['1.3.0'], 'a number the user lists is ranked');
});

test('similarity to example pages (TF-IDF cosine), lowered by negatives', () => {
  const s = new ExampleScorer();
  s.addExample('ex1', new Map([['wms', 2], ['map', 1]]));
  s.addExample('ex2', new Map([['football', 1]]));
  // idf of df=1 terms with N=2: ln(3/2)+1 for both terms, so cos = (2+1)/(√2·√5)
  const r = s.score(new Map([['wms', 1], ['map', 1]]));
  close(r.score, 3 / Math.sqrt(10));
  assert.equal(r.detail!.nearestExample, 'ex1');
  s.addExample('neg', new Map([['map', 1]]), true);
  const lowered = s.score(new Map([['wms', 1], ['map', 1]]));
  assert.ok(lowered.score < r.score && lowered.detail!.nearestNegative === 'neg');
});
