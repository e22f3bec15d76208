import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cosine } from '../../src/relevance/cosine.js';
import { pageRelevance, topicFromFile } from '../../src/relevance/topic.js';
import { tokenize } from '../../src/text/tokenize.js';

test('cosine on hand-computed vectors', () => {
  // (1,2,0)·(2,1,1) = 4; |a| = √5, |b| = √6; 4/√30 = 0.7303
  const a = new Map([['x', 1], ['y', 2]]);
  const b = new Map([['x', 2], ['y', 1], ['z', 1]]);
  assert.ok(Math.abs(cosine(a, b) - 4 / Math.sqrt(30)) < 1e-12);
  assert.equal(cosine(a, new Map()), 0);
  assert.equal(cosine(a, a), 1);
});

test('page relevance is the cosine of the topic vector and the page term frequencies', () => {
  const topic = topicFromFile({ name: 't', keywords: { solar: 2, panel: 1 }, threshold: 0.2 });
  // Page terms: solar 2, panel 1, roof 1 -> (2·2 + 1·1) / (√5 · √6) = 5/√30
  assert.ok(Math.abs(pageRelevance(topic, 'Solar', 'solar panel roof') - 5 / Math.sqrt(30)) < 1e-12);
  assert.equal(pageRelevance(topic, 'Cooking', 'garlic sauce'), 0);
});

test('tokenize: case folding, stopwords, Chinese words', () => {
  assert.deepEqual(tokenize('The Solar PANELS of the roof'), ['solar', 'panels', 'roof']);
  const zh = tokenize('太阳能光伏发电是一种可再生能源');
  assert.ok(zh.includes('太阳能') || zh.includes('太阳'), zh.join('|'));
  assert.ok(!zh.includes('是'), 'stopword removed');
});

test('a Chinese topic scores a Chinese page about it above an unrelated one', () => {
  const topic = topicFromFile({ name: '光伏', keywords: { 光伏: 3, 太阳能: 2, 发电: 1 }, threshold: 0.2 });
  const on = pageRelevance(topic, '光伏发电', '太阳能光伏发电系统的安装与维护，光伏组件效率');
  const off = pageRelevance(topic, '足球比赛', '昨天的足球比赛非常精彩，球队赢得了联赛冠军');
  assert.ok(on > 0.2 && off === 0, `${on} vs ${off}`);
});
