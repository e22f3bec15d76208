import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cosine } from '../../src/relevance/cosine.js';
import { loadTopicFile, topicFromFile } from '../../src/relevance/topic.js';
import { FocusCrawlError } from '../../src/errors.js';
import { pageRelevance, vsmScore } from '../../src/relevance/vsm-scorer.js';
import { positionTerms } from '../../src/text/position-terms.js';
import { tokenize, urlTokens } from '../../src/text/tokenize.js';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);
const page = (title: string, text: string, extra: object = {}) => ({ url: 'http://example.org/page', title, headings: '', text, links: [], ...extra });

test('cosine on hand-computed vectors', () => {
  // (1,2,0)·(2,1,1) = 4; |a| = √5, |b| = √6
  close(cosine(new Map([['x', 1], ['y', 2]]), new Map([['x', 2], ['y', 1], ['z', 1]])), 4 / Math.sqrt(30));
  assert.equal(cosine(new Map([['x', 1]]), new Map()), 0);
});

test('position-weighted VSM (method C): title counts 3x, body 1x, url off', () => {
  const topic = topicFromFile({ name: 't', keywords: { solar: 2, panel: 1 }, positions: { url: 0 } });
  // W = solar 3·1 + 1·1 = 4, panel 1, roof 1; T = (2, 1): 9 / (√18 · √5) = 9/√90
  const s = vsmScore(topic, positionTerms(page('Solar', 'solar panel roof')));
  close(s.score, 9 / Math.sqrt(90));
  assert.deepEqual(s.terms.map(([t]) => t), ['solar', 'panel']);
  close(s.terms[0]![1] + s.terms[1]![1], s.score);
});

test('headings and anchors weigh 2x by default, URL words 1x', () => {
  const topic = topicFromFile({ name: 't', keywords: { wms: 1 } });
  const p = page('', 'maps', { headings: 'WMS', links: [{ url: 'http://x/', anchor: 'wms list', nofollow: false }] });
  const terms = positionTerms(p);
  assert.equal(terms.headings.get('wms'), 1);
  assert.equal(terms.anchor.get('wms'), 1);
  assert.deepEqual(urlTokens('http://example.org/geoserver/ows?service=WMS&request=GetCapabilities'), ['example', 'org', 'geoserver', 'ows', 'service', 'wms', 'request', 'getcapabilities']);
  // W = wms 2 + 2 = 4, maps 1, list 2 (anchor), example/org/page 1 each: 4 / √(16+1+4+3)
  close(pageRelevance(topic, p), 4 / Math.sqrt(24));
});

test('tokenize: case folding, maintained stopword lists, optional stemming', () => {
  assert.deepEqual(tokenize('The Solar PANELS of the roof'), ['solar', 'panels', 'roof']);
  assert.deepEqual(tokenize('The Solar PANELS of the roof', { stem: true }), ['solar', 'panel', 'roof']);
  const stemmed = topicFromFile({ name: 't', keywords: { 'mapping services': 1 }, stem: true });
  assert.deepEqual([...stemmed.vector.keys()], ['map', 'servic']);
});

test('Chinese sentences are segmented into words', () => {
  const words = tokenize('国家地理信息公共服务平台提供在线地图服务');
  for (const w of ['国家', '地理', '信息', '服务', '平台', '地图']) assert.ok(words.includes(w), `${w} in ${words.join('|')}`);
  assert.ok(!tokenize('太阳能发电是一种能源').includes('是'), 'Chinese stopwords are removed');
});

test('a Chinese topic scores a Chinese page about it above an unrelated Chinese page', () => {
  const topic = topicFromFile({ name: '地图服务', keywords: { 地图: 3, 服务: 2, 地理信息: 2 } });
  const on = pageRelevance(topic, page('在线地图服务', '国家地理信息公共服务平台提供在线地图服务和地图数据下载'));
  const off = pageRelevance(topic, page('足球比赛', '昨天的足球比赛非常精彩，球队赢得了联赛冠军'));
  assert.ok(on > 0.3, String(on));
  assert.equal(off, 0);
});

test('topic files: the minimal form works, errors name the field and the line, examples resolve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-topic-'));
  writeFileSync(join(dir, 'min.yaml'), 'name: t\nkeywords:\n  solar: 1\n');
  const t = loadTopicFile(join(dir, 'min.yaml'));
  assert.equal(t.threshold, 0.2);
  assert.deepEqual(t.positions, { title: 3, headings: 2, anchor: 2, body: 1, url: 1 });
  assert.deepEqual(t.levels, { high: 0.68, low: 0.01 });
  writeFileSync(join(dir, 'full.yaml'), 'name: t\nkeywords: {solar: 1}\nexamples: [ex/one.html, "http://a.org/x"]\npositions:\n  title: 5\n  bodyy: 1\n');
  assert.throws(() => loadTopicFile(join(dir, 'full.yaml')), /full\.yaml:6: topic field 'positions\.bodyy': unknown/);
  writeFileSync(join(dir, 'ok.yaml'), 'name: t\nkeywords: {solar: 1}\nexamples: [ex/one.html, "http://a.org/x"]\n');
  assert.deepEqual(loadTopicFile(join(dir, 'ok.yaml')).examples, [join(dir, 'ex/one.html'), 'http://a.org/x']);
  writeFileSync(join(dir, 'bad.yaml'), 'name: t\nkeywords: {solar: 1}\nlevels:\n  high: 2\n');
  assert.throws(() => loadTopicFile(join(dir, 'bad.yaml')), /bad\.yaml:4: topic field 'levels\.high'/);
});

test('topic weights are capped: huge ones overflowed the cosine, tiny ones underflowed it', () => {
  const fails = (input: object, message: RegExp) => assert.throws(() => topicFromFile(input as never), message);
  fails({ name: 't', keywords: { solar: 1e308 } }, /at most 1000/);
  fails({ name: 't', keywords: { solar: 1, panel: 1e155 } }, /at most 1000/);
  fails({ name: 't', keywords: { solar: 1e-320 } }, /at least 0\.000001/);
  fails({ name: 't', keywords: { solar: 1 }, positions: { title: 1e200 } }, /at most 1000/);
  const t = topicFromFile({ name: 't', keywords: { solar: 1000, panel: 0.001 }, positions: { title: 1000 } });
  const s = vsmScore(t, positionTerms(page('Solar', 'solar panel')));
  assert.ok(s.score > 0 && s.score <= 1, String(s.score));
});

test('a keyword that gives no term is refused, naming it; levels must not cross', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-topic-terms-'));
  const load = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return () => loadTopicFile(join(dir, name));
  };
  assert.throws(load('stop.yaml', 'name: t\nkeywords:\n  the: 3\n  and: 2\n'), /stop\.yaml:3: topic field 'keywords': no keyword gives a term: 'the', 'and' are stopwords or punctuation/);
  assert.throws(load('one.yaml', 'name: t\nkeywords:\n  the: 3\n'), /one\.yaml:3: topic field 'keywords\.the': keyword 'the' gives no term \(a stopword or punctuation\)/);
  assert.throws(load('bang.yaml', 'name: t\nkeywords:\n  solar: 3\n  "!!!": 2\n'), /bang\.yaml:4: topic field 'keywords\.!!!': keyword '!!!' gives no term/);
  assert.throws(load('wide.yaml', 'name: t\nkeywords:\n  光伏: 3\n  "！！": 2\n'), /keyword '！！' gives no term/);
  assert.throws(load('lone.yaml', 'name: t\nkeywords:\n  光伏: 3\n  A股: 2\n'), /keyword 'A股' holds a single Chinese character/);
  // Two keywords the crawl reads as the same terms: one weight would be dropped in silence.
  assert.throws(load('case.yaml', 'name: t\nkeywords:\n  solar: 1\n  Solar: 2\n'), /case\.yaml:4: topic field 'keywords\.Solar': keyword 'Solar' gives the same terms as 'solar' .*give it once$/);
  assert.throws(load('script.yaml', 'name: t\nkeywords:\n  太阳能: 1\n  太陽能: 2\n'), /keyword '太陽能' gives the same terms as '太阳能'/);
  assert.doesNotThrow(load('phrase.yaml', 'name: t\nkeywords:\n  solar: 1\n  solar panel: 2\n'), 'a phrase that shares a word is another keyword');
  assert.doesNotThrow(load('usb.yaml', 'name: t\nkeywords:\n  隨身碟: 3\n'), "a keyword is read as written: 隨身碟 folds to U盘, whose 盘 pages give as well");
  assert.throws(load('levels.yaml', 'name: t\nkeywords: {solar: 1}\nlevels: {high: 0.1, low: 0.9}\n'), /levels\.yaml:3: topic field 'levels\.high': high \(0\.1\) is below low \(0\.9\)/);
  assert.throws(load('low.yaml', 'name: t\nkeywords: {solar: 1}\nlevels: {low: 0.9}\n'), /high \(0\.68\) is below low \(0\.9\)/);
  // Chinese keywords, a stopword inside a phrase, and words of other scripts keep working.
  writeFileSync(join(dir, 'ok.yaml'), 'name: t\nkeywords:\n  光伏: 3\n  the solar panel: 2\n  éolienne: 1\n');
  const t = topicFromFile(loadTopicFile(join(dir, 'ok.yaml')));
  assert.deepEqual([...t.vector.keys()].sort(), ['panel', 'solar', 'éolienne', '光伏'].sort());
});

test('topicFromFile, as the library exports it, refuses a bad topic with a one-line FocusCrawlError naming the field (it threw a raw ZodError)', () => {
  const refused = (input: object, message: string) => assert.throws(() => topicFromFile(input as never), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && err.message === message);
  refused({ name: 't', keywords: { solar: 1 }, threshhold: 0.3 }, "topic field 'threshhold': unknown (did you mean 'threshold'?)");
  refused({ keywords: { solar: 1 } }, "topic field 'name': is missing");
  refused({ name: 't', keywords: { the: 1 } }, "topic field 'keywords.the': keyword 'the' gives no term (a stopword or punctuation)");
  refused(topicFromFile({ name: 't', keywords: { solar: 1 } }), "topic is a compiled Topic (loadTopic, topicFromFile): give the topic file's form, loadTopicFile(FILE) or { name, keywords }");
});
