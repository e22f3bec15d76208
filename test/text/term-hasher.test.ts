import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterOf, renderPage } from '../../src/bench/generated-site.js';
import { parseHtml } from '../../src/parse/html-page.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import { pageRelevance, vsmScore } from '../../src/relevance/vsm-scorer.js';
import { positionTerms } from '../../src/text/position-terms.js';
import { forEachTermHash, hashTerm } from '../../src/text/term-hasher.js';
import { tokenize } from '../../src/text/tokenize.js';

const samples = [
  'The Solar PANELS of the roof, 2024 edition!',
  '太阳能光伏发电是一种可再生能源。光',
  'mixed 中文text and English，全角ＡＢＣ１２３ café Ünïcode naïve',
  'Привет мир 123 — 東京タワー 한국어',
  '  ',
  '的 我们 a the',
  '網際網路與伺服器軟體設定，方程式',
];

test('the hashing scanner emits exactly the terms tokenize() produces', () => {
  for (const s of samples) {
    const got: number[] = [];
    forEachTermHash(s, (h) => got.push(h));
    assert.deepEqual(got, tokenize(s).map(hashTerm), s);
  }
});

test('fast page relevance equals the string-based VSM on generated English and Chinese pages', () => {
  const topic = topicFromFile({ name: 'solar', keywords: { solar: 3, photovoltaic: 3, panel: 2, 太阳能: 3, 光伏: 3, 电池板: 2 } });
  const spec = { pages: 400, seed: 9 };
  let relevant = 0;
  for (let i = 0; i < 60; i++) {
    const page = parseHtml(renderPage(spec, i)!, `http://127.0.0.1:8080/p/${i}`);
    const slow = vsmScore(topic, positionTerms(page, topic.tokenizeOptions)).score;
    const fast = pageRelevance(topic, page);
    assert.ok(Math.abs(fast - slow) < 1e-9, `page ${i}: ${fast} vs ${slow}`);
    if (clusterOf(spec, i) === 'solar') relevant += fast > 0.1 ? 1 : 0;
  }
  assert.ok(relevant > 5);
});
