import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StoredText } from '../../src/store/crawl-graph-reader.js';
import { inLinkAnchors } from '../../src/group/page-names.js';
import { nameTerms } from '../../src/group/page-vectors.js';
import { nearestSampleScore, type SampleView } from '../../src/group/group-ranking.js';
import { TfIdfSpace } from '../../src/relevance/tfidf-space.js';

/** Stored pages as the graph reader returns them (StoredText); no text needed for names. */
function storedTexts(pages: { url: string; host: string; links: [string, string][] }[]): StoredText[] {
  return pages.map((p) => ({ url: p.url, host: p.host, title: null, text: '', outlinks: p.links }));
}

test('a page is named by the first anchor of each page that links to it, on its own site', () => {
  const pages = storedTexts([
    // A table of contents: the FAQ's own entry, then its sections (their #fragments are gone).
    { url: 'http://a/', host: 'a', links: [['http://a/faq', 'Frequently Asked Questions'], ['http://a/faq', 'Licensing'], ['http://a/faq', 'Installing']] },
    { url: 'http://a/guide', host: 'a', links: [['http://a/faq', 'FAQ'], ['http://a/faq', 'faq'], ['http://a/guide', 'Guide']] },
    // Another site's link names nothing here (broken pages are not stored texts: the reader's contract).
    { url: 'http://b/', host: 'b', links: [['http://a/faq', 'Their FAQ']] },
  ]);
  const names = inLinkAnchors(pages);
  assert.deepEqual(names.get('http://a/faq')?.sort(), ['faq', 'frequently asked questions']);
  assert.equal(names.get('http://a/guide'), undefined, 'a link to the page itself is not a name');
});

test('name terms count each text once, so a menu link on every page does not shout', () => {
  const once = nameTerms('License', ['license']);
  const often = nameTerms('License', ['license', 'license terms']);
  assert.equal(once.get('licens'), 2);
  assert.equal(often.get('licens'), 3);
  assert.equal(often.get('term'), 1);
});

test('the ranking mixes words and names; only the examples name the kind', () => {
  const space = new TfIdfSpace();
  const names = new TfIdfSpace();
  const docs = {
    example: { words: { jinja: 2, templat: 3, escap: 1 }, name: { faq: 1 } },
    added: { words: { celeri: 2, task: 3, broker: 1 }, name: { licens: 1 } },
    faq: { words: { flask: 2, rout: 3, blueprint: 1 }, name: { faq: 1 } },
    license: { words: { celeri: 1, task: 1, redistribut: 2 }, name: { licens: 1 } },
  };
  const terms = (o: Record<string, number>) => new Map(Object.entries(o));
  for (const d of Object.values(docs)) {
    space.observe(terms(d.words));
    names.observe(terms(d.name));
  }
  const view = (d: { words: Record<string, number>; name: Record<string, number> }): SampleView => ({ vector: space.vector(terms(d.words)), nameVector: names.vector(terms(d.name)), shape: new Map() });
  const [example, added, faq, license] = [docs.example, docs.added, docs.faq, docs.license].map(view) as [SampleView, SampleView, SampleView, SampleView];
  // Words alone: a FAQ of other software shares no word with the example FAQ.
  assert.equal(nearestSampleScore(faq, [example], 0, 0), 0);
  // Names at 0.25: the same name counts a quarter.
  assert.ok(Math.abs(nearestSampleScore(faq, [example], 0, 0.25) - 0.25) < 1e-9);
  // A wrong page the rounds added (a licence) lends its words, not its name: a licence page
  // scores by its words only, at 0.75 of their cosine, and below a perfect match.
  const viaWords = nearestSampleScore(license, [example, added], 0, 0.25, [example]);
  assert.ok(viaWords > 0 && viaWords < 0.75, `licence page ${viaWords}`);
  const ifAddedNamed = nearestSampleScore(license, [example, added], 0, 0.25, [example, added]);
  assert.ok(ifAddedNamed > viaWords + 0.2, 'had the added page named the kind, its name would lift every licence page');
});
