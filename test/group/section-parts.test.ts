import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sectionIndexes, withSectionParts, type PartCandidate } from '../../src/group/section-parts.js';
import type { StoredText } from '../../src/store/crawl-graph-reader.js';

const H = 'http://127.0.0.1:9001';
const u = (p: string) => `${H}/${p}`;

/**
 * A small documentation site: every page has a sidebar linking the start page and four chapters
 * (navigation); the FAQ index lists its questions, each question links back to it.
 */
function docSite(opts: { questions: number; faqText: string; zh?: boolean }): StoredText[] {
  const sidebar: [string, string][] = [[u('index'), 'Home'], [u('install'), 'Installation'], [u('api'), 'API reference'], [u('faq'), 'FAQ'], [u('license'), 'License']];
  const qs = Array.from({ length: opts.questions }, (_x, i) => u(`q${i}`));
  const qAnchor = (i: number) => (opts.zh ? `如何配置第${i}个代理服务器的超时时间` : `How do I set the timeout of proxy number ${i}?`);
  const rows: StoredText[] = [
    { url: u('index'), host: '127.0.0.1:9001', title: 'Home', text: 'Welcome to the manual. '.repeat(30), outlinks: sidebar },
    { url: u('install'), host: '127.0.0.1:9001', title: 'Installation', text: 'Install it with pip. '.repeat(40), outlinks: [...sidebar, [u('api'), 'the API'], [u('faq'), 'questions']] },
    { url: u('api'), host: '127.0.0.1:9001', title: 'API', text: 'The functions and classes. '.repeat(80), outlinks: [...sidebar, [u('install'), 'install first']] },
    { url: u('license'), host: '127.0.0.1:9001', title: 'License', text: 'Permission is hereby granted. '.repeat(20), outlinks: sidebar },
    { url: u('faq'), host: '127.0.0.1:9001', title: 'FAQ', text: opts.faqText + ' ' + qs.map((_q, i) => qAnchor(i)).join(' '), outlinks: [...sidebar, ...qs.map((q, i): [string, string] => [q, qAnchor(i)])] },
    ...qs.map((q, i): StoredText => ({ url: q, host: '127.0.0.1:9001', title: qAnchor(i), text: `The answer to question ${i}. `.repeat(15), outlinks: [...sidebar, [u('faq'), 'Back to the FAQ'], ...(i > 0 ? [[qs[i - 1]!, 'previous'] as [string, string]] : [])] })),
  ];
  return rows;
}

test('a FAQ split into pages is a section index of its questions; other pages are not', () => {
  const sections = sectionIndexes(docSite({ questions: 6, faqText: 'Frequently asked questions.' }));
  assert.deepEqual([...sections.keys()], [u('faq')]);
  assert.deepEqual(sections.get(u('faq')), [0, 1, 2, 3, 4, 5].map((i) => u(`q${i}`)));
});

test('a long page whose few links are a small part of its text is no section index', () => {
  // The same six questions answered on the FAQ page itself, links to them kept: the anchors are
  // now a small share of the page's text.
  const sections = sectionIndexes(docSite({ questions: 6, faqText: 'Each question is answered here at length. '.repeat(200) }));
  assert.equal(sections.size, 0);
});

test('fewer than three parts that link back make no section', () => {
  assert.equal(sectionIndexes(docSite({ questions: 2, faqText: 'FAQ.' })).size, 0);
});

test('the share counts characters, so a Chinese index counts as an English one', () => {
  const sections = sectionIndexes(docSite({ questions: 6, faqText: '常见问题。', zh: true }));
  assert.deepEqual([...sections.keys()], [u('faq')]);
});

test('the share counts characters: a long Chinese paragraph, one word to a word count, outweighs the list', () => {
  assert.equal(sectionIndexes(docSite({ questions: 6, faqText: '每个问题都在这一页上详细回答，包括代理服务器、超时时间和日志文件的配置方法。'.repeat(30), zh: true })).size, 0);
});

test('links a part does not return make no part', () => {
  const rows = docSite({ questions: 6, faqText: 'FAQ.' });
  for (const r of rows) if (r.url.includes('/q')) r.outlinks = r.outlinks.filter((l) => l[0] !== u('faq'));
  assert.equal(sectionIndexes(rows).size, 0);
});

test('pages of another site make no part, even when they link back', () => {
  // The questions moved to another host, every link to them rewritten.
  const moved = (url: string) => url.replace(/^http:\/\/127\.0\.0\.1:9001\/q/, 'http://127.0.0.2:9001/q');
  const rows = docSite({ questions: 6, faqText: 'FAQ.' }).map((r) => ({
    ...r, url: moved(r.url), host: moved(r.url) === r.url ? r.host : '127.0.0.2:9001', outlinks: r.outlinks.map(([l, a]): [string, string] => [moved(l), a]),
  }));
  assert.ok(rows.some((r) => r.host === '127.0.0.2:9001'));
  assert.equal(sectionIndexes(rows).size, 0);
});

test('a sample that is a section index passes its kind to the parts above the noise level', () => {
  const sections = new Map([[u('faq'), [u('q0'), u('q1'), u('q2'), u('q3')]]]);
  const page = (p: string, score: number, extra: Partial<PartCandidate> = {}): PartCandidate => ({ url: u(p), score, sample: false, target: false, entry: false, nameLikeness: 1, ...extra });
  const pages = [page('faq', 1, { sample: true, target: true }), page('q0', 0.4), page('q1', 0.2), page('q2', 0.1), page('q3', 0), page('api', 0.5)];
  // Noise level 0.2: parts from 0.15 (0.75 x 0.2); q2 (0.1) shares too little with the kind, q3 nothing.
  assert.deepEqual(withSectionParts(pages, sections, 0.2, 0.75), [true, true, true, false, false, false]);
  // A page selected by its score alone passes nothing on.
  const byScore = pages.map((p, i) => (i === 0 ? { ...p, sample: false } : p));
  assert.deepEqual(withSectionParts(byScore, sections, 0.2, 0.75), [true, false, false, false, false, false]);
  // Nor does a start page that became a sample.
  const entry = pages.map((p, i) => (i === 0 ? { ...p, entry: true } : p));
  assert.deepEqual(withSectionParts(entry, sections, 0.2, 0.75), [true, false, false, false, false, false]);
  // Nor a sample named unlike every example (an API index that joined the library by mistake).
  const unnamed = pages.map((p, i) => (i === 0 ? { ...p, nameLikeness: 0.4 } : p));
  assert.deepEqual(withSectionParts(unnamed, sections, 0.2, 0.75), [true, false, false, false, false, false]);
});

test("an example that is one part of a section brings the section's index and its other parts, when an example's name covers the index's", () => {
  const sections = new Map([[u('faq'), [u('q0'), u('q1'), u('q2'), u('q3')]]]);
  const page = (p: string, score: number, extra: Partial<PartCandidate> = {}): PartCandidate => ({ url: u(p), score, sample: false, target: false, entry: false, nameLikeness: 0, ...extra });
  // The user gave one question (q0) as an example; the index is named "FAQ", as another example is.
  const pages = [page('faq', 0.3, { nameCoverage: 1 }), page('q0', 1, { sample: true, target: true, example: true }), page('q1', 0.2), page('q2', 0.1), page('q3', 0.16), page('api', 0.5)];
  // Noise level 0.2: the index and the parts from 0.15 (q1, q3); q2 shares too little with the kind.
  assert.deepEqual(withSectionParts(pages, sections, 0.2, 0.75), [true, true, true, false, true, false]);
  // An index named otherwise ("About": the licence example's siblings are authors and changelog) brings nothing.
  const about = pages.map((p, i) => (i === 0 ? { ...p, nameCoverage: 0.3 } : p));
  assert.deepEqual(withSectionParts(about, sections, 0.2, 0.75), [false, true, false, false, false, false]);
  // Nor does a sample the rounds added (not an example): a wrong sample would pull in its section.
  const added = pages.map((p, i) => (i === 1 ? { ...p, example: false } : p));
  assert.deepEqual(withSectionParts(added, sections, 0.2, 0.75), [false, true, false, false, false, false]);
  // Nor a site's start page, which lists the whole site.
  const entry = pages.map((p, i) => (i === 0 ? { ...p, entry: true } : p));
  assert.deepEqual(withSectionParts(entry, sections, 0.2, 0.75), [false, true, false, false, false, false]);
  // Nor a general index that lists every page (each links back to it from its sidebar).
  const whole = new Map([[u('faq'), [u('q0'), u('q1'), u('q2'), u('q3'), ...Array.from({ length: 80 }, (_x, i) => u(`p${i}`))]]]);
  assert.deepEqual(withSectionParts(pages, whole, 0.2, 0.75), [false, true, false, false, false, false]);
});
