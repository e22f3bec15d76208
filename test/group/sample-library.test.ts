import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SampleLibrary } from '../../src/group/sample-library.js';
import { BootstrapGroupStrategy } from '../../src/strategies/bootstrap-group.js';

test('the path discriminator scores prefixes of sample paths, the link\'s own step, and learns from added samples', () => {
  const lib = new SampleLibrary();
  assert.equal(lib.pathScore(['Admissions']), 0, 'an empty library rates nothing: breadth-first');
  lib.add({ site: 'a', url: 'http://a/2023', path: ['Admissions', 'Score lines', '2023'], terms: new Map() });
  assert.equal(lib.pathScore(['Admissions']), 1, 'the first step of a sample path');
  assert.equal(lib.pathScore(['News']), 0);
  // Prefix "Admissions > Score lines": whole path {apply, score, line} vs {admiss, score, line} = 2/3; own step = 1.
  assert.ok(Math.abs(lib.pathScore(['Apply', 'Score lines']) - (2 / 3 + 1) / 2) < 1e-9);
  assert.ok(lib.pathScore(['Apply', 'Score lines']) > lib.pathScore(['Apply', 'Campus tours']));
  assert.equal(lib.pathScore(['招生信息', '历年分数线']), 0, 'other words: nothing yet');
  lib.add({ site: 'b', url: 'http://b/2023', path: ['招生信息', '历年分数线', '2023年'], terms: new Map() });
  assert.equal(lib.pathScore(['招生信息', '历年分数线']), 1, 'a learned sample path rates its own prefix');
  assert.ok(lib.pathScore(['本科招生', '分数线']) > 0, 'and shares its bigrams with other wordings');
});

test('the bootstrap strategy carries anchor paths and rescores waiting URLs from the library', () => {
  const lib = new SampleLibrary();
  const s = new BootstrapGroupStrategy(lib);
  const request = { key: '0000000000000001', id: 1, url: 'http://a/', host: 'a', depth: 0, parent: null, anchor: '', priority: 2, data: { path: [] }, attempts: 0 };
  const page = { url: 'http://a/', title: '', text: '', headings: '', links: [], canonical: null, noindex: false, nofollow: false, encoding: 'utf-8' };
  const links = [{ url: 'http://a/news/', anchor: 'News', nofollow: false }, { url: 'http://a/zs/', anchor: 'Admissions', nofollow: false }];
  const before = s.scoreLinks({ request, page, relevance: null }, links);
  assert.deepEqual(before.map((d) => d.priority), [0, 0]);
  assert.deepEqual(before[1]!.data, { path: ['Admissions'] });
  lib.add({ site: 'a', url: 'http://a/zs/2023', path: ['Admissions', '2023'], terms: new Map() });
  assert.equal(s.rescore({ ...request, id: 3, data: { path: ['Admissions'] } }), 1);
  assert.equal(s.rescore(request), null, 'a root keeps its priority');
});

test('the path discriminator learns from paths that led nowhere', () => {
  const lib = new SampleLibrary();
  lib.add({ site: 'a', url: 'http://a/2023', path: ['Admissions', 'Score lines', '2023'], terms: new Map() });
  const fees = ['Admissions', 'Tuition fees'];
  const before = lib.pathScore(['Admissions', 'Fees']);
  assert.ok(before > 0, 'a link under the admissions menu starts with some value');
  assert.equal(lib.addDeadEnd(fees), true);
  assert.equal(lib.addDeadEnd(fees), false, 'known');
  assert.equal(lib.addDeadEnd(['Admissions']), false, 'a prefix of a sample path is never a dead end');
  assert.ok(lib.pathScore(['Admissions', 'Fees']) < before, 'a path like the dead end is worth less');
  assert.ok(lib.pathScore(['Admissions', 'Score lines']) > lib.pathScore(['Admissions', 'Fees']));
  assert.ok(lib.pathScore(['Admissions']) > 0.8, 'the first step of a sample path keeps most of its value');
});
