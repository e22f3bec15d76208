import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GROUP_DEFAULTS, runGroupCrawl } from '../../src/group/group-crawl.js';
import { serveTinySites, type TinyPage } from '../helpers/tiny-sites.js';

/**
 * Groups where the selection's relative cuts alone fail (a new user's first try): three small
 * university sites whose score tables are a large share of their pages, with and without forty
 * news pages each that share no word with the tables.
 */
const YEARS = ['2021', '2022', '2023'];
function university(name: string, news: number): Record<string, TinyPage> {
  const site: Record<string, TinyPage> = {
    '/': [name, 'welcome', [['/adm/', 'Admissions'], ['/about.html', 'About'], ...(news ? ([['/news/', 'News']] as [string, string][]) : [])]],
    '/about.html': ['About', 'history of the campus', []],
    '/adm/': ['Admissions', 'admissions office', [...YEARS.map((y) => [`/adm/${y}.html`, `${y} admission scores`] as [string, string]), ['/adm/apply.html', 'How to apply']]],
    '/adm/apply.html': ['How to apply', 'send the form before June', []],
  };
  YEARS.forEach((y, i) => {
    site[`/adm/${y}.html`] = [`${y} admission scores`, `Province Minimum score Average score Beijing ${601 + i} admission score line minimum score by province`, []];
  });
  if (news) {
    site['/news/'] = ['News', 'latest', Array.from({ length: news }, (_x, i) => [`/news/${i}.html`, `News item ${i}`] as [string, string])];
    for (let i = 0; i < news; i++) site[`/news/${i}.html`] = [`News item ${i}`, `The football team won match ${i}; students held a concert about topic ${i % 7}.`, []];
  }
  return site;
}

const dir = mkdtempSync(join(tmpdir(), 'fc-small-group-'));
const webs: Awaited<ReturnType<typeof serveTinySites>>[] = [];
after(() => Promise.all(webs.map((w) => w.close())));

async function crawlGroup(news: number, db: string) {
  const web = await serveTinySites({ n: university('North University', news), s: university('South University', news), e: university('East University', news) });
  webs.push(web);
  const { n, s, e } = web.roots as { n: string; s: string; e: string };
  const sites = [n, s, e].map((root, i) => ({ root, host: new URL(root).host, name: ['North', 'South', 'East'][i]! }));
  const report = await runGroupCrawl({
    ...GROUP_DEFAULTS, sites, examples: [{ site: sites[0]!, url: `${n}adm/2023.html`, where: 'test' }, { site: sites[1]!, url: `${s}adm/2022.html`, where: 'test' }], method: 'bfc',
    db: join(dir, db), concurrency: 4, perHost: 2, delayMs: 0, robots: true,
  });
  return report.pages.filter((p) => p.target).map((p) => `${p.site}${new URL(p.url).pathname}`).sort();
}

let withNews: string[] = [];
let without: string[] = [];
before(async () => {
  withNews = await crawlGroup(40, 'news.db');
  without = await crawlGroup(0, 'plain.db');
});

test('a group whose other pages share no word with the samples: no home page is a target (the floor)', () => {
  // The noise level is 0 there; before the floor every home page (one word in common) was returned.
  assert.deepEqual(withNews.filter((t) => t.endsWith('/') && !t.endsWith('/adm/')), [], withNews.join(' '));
  assert.deepEqual(withNews.filter((t) => t.includes('/news/') || t.endsWith('about.html')), []);
  for (const site of ['North', 'South', 'East']) for (const y of YEARS) assert.ok(withNews.includes(`${site}/adm/${y}.html`), `${site} ${y}: ${withNews.join(' ')}`);
});

test('a group of few pages, a third of them score tables: the sister tables of the examples are targets (near copies)', () => {
  // Before, the tables set the noise level and only the two examples were returned.
  const others = without.filter((t) => t !== 'North/adm/2023.html' && t !== 'South/adm/2022.html');
  assert.ok(others.filter((t) => /\/adm\/20\d\d\.html$/.test(t)).length >= 4, without.join(' '));
  assert.ok(others.some((t) => t.startsWith('East/adm/20')), 'the site with no example too');
  assert.deepEqual(without.filter((t) => !/\/adm\/(20\d\d\.html)?$/.test(t)), [], 'nothing but tables (and at most the admissions index)');
});

/** A manual with a help section: an index linking its FAQ, contact and licence pages, and chapters. */
function manual(name: string): Record<string, TinyPage> {
  const chapters = Array.from({ length: 8 }, (_x, i) => [`/docs/${i}.html`, `Chapter ${i}`] as [string, string]);
  const site: Record<string, TinyPage> = {
    '/': [name, 'welcome to the manual', [['/docs/', 'Documentation'], ['/help/', 'Help']]],
    '/docs/': ['Documentation', 'the chapters', chapters],
    '/help/': ['Help', 'help with questions, contact and the license', [['/help/faq.html', 'FAQ'], ['/help/contact.html', 'Contact'], ['/help/license.html', 'License']]],
    '/help/faq.html': ['Frequently asked questions', 'Question: how do I install it? Answer: run the installer. Question: why does it fail? Answer: check the log.', []],
    '/help/contact.html': ['Contact', 'write to the mailing list', []],
    '/help/license.html': ['License', 'permission is granted to copy and modify', []],
  };
  chapters.forEach(([path], i) => {
    site[path] = [`Chapter ${i}`, `configuration option ${i} sets the value of parameter ${i * 3}`, []];
  });
  return site;
}

async function crawlManuals(db: string, budgetPerSite: number) {
  const web = await serveTinySites(Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k) => [k, manual(`Manual ${k}`)])));
  webs.push(web);
  const sites = Object.values(web.roots).map((root, i) => ({ root, host: new URL(root).host, name: `m${i}` }));
  const lines: string[] = [];
  const report = await runGroupCrawl({
    ...GROUP_DEFAULTS, sites, examples: sites.slice(0, 2).map((site) => ({ site, url: `${site.root}help/faq.html`, where: 'test' })), method: 'bfc',
    db: join(dir, db), concurrency: 4, perHost: 2, delayMs: 0, robots: true, budgetPerSite, log: (l) => lines.push(l),
  });
  const targets = report.pages.filter((p) => p.target).map((p) => new URL(p.url).pathname);
  return { targets, lines, report };
}

test('once every site\'s target is a sample, no other page joins the library: the targets stay the FAQ pages, not the help index and what it links', async () => {
  const { targets, report } = await crawlManuals('manuals.db', 100);
  assert.ok(report.rounds.every((r) => r.added.every((u) => u.endsWith('/faq.html'))), JSON.stringify(report.rounds));
  assert.equal(targets.filter((t) => t === '/help/faq.html').length, 5, targets.join(' '));
  // The index names the FAQ in its words and may rank with it; the pages it links that are not about it do not follow.
  assert.deepEqual(targets.filter((t) => t.endsWith('contact.html') || t.endsWith('license.html')), [], targets.join(' '));
});

test('a round that ends on its share of the host budget is not the last: later rounds reach the pages it could not, and each round\'s line counts its own fetches', async () => {
  const { targets, lines, report } = await crawlManuals('budget.db', 15);
  assert.equal(report.rounds.length, 3, 'three rounds, not one');
  assert.equal(targets.filter((t) => t === '/help/faq.html').length, 5, `every site's FAQ is found: ${targets.join(' ')}`);
  const said = lines.filter((l) => l.startsWith('round ')).map((l) => Number(/: (\d+) pages? fetched/.exec(l)?.[1]));
  assert.deepEqual(said, report.rounds.map((r) => r.fetched), lines.join('\n'));
});

test('a re-run on the same database with fewer sites fetches nothing more of the dropped ones: their waiting URLs end as discarded, logged', async () => {
  const web = await serveTinySites(Object.fromEntries(['a', 'b', 'c'].map((k) => [k, manual(`Manual ${k}`)])));
  webs.push(web);
  const sites = Object.values(web.roots).map((root, i) => ({ root, host: new URL(root).host, name: `m${i}` }));
  const db = join(dir, 'fewer.db');
  const lines: string[] = [];
  const run = (group: typeof sites, budgetPerSite: number) =>
    runGroupCrawl({
      ...GROUP_DEFAULTS, sites: group, examples: group.slice(0, 2).map((site) => ({ site, url: `${site.root}help/faq.html`, where: 'test' })), method: 'bfc',
      db, concurrency: 2, perHost: 1, delayMs: 0, robots: true, budgetPerSite, iterations: 1, log: (l) => lines.push(l),
    });
  await run(sites, 6); // a budget that leaves every site with URLs waiting
  const before = web.hits.c;
  await run(sites.slice(0, 2), 30);
  assert.equal(web.hits.c, before, 'no request to the dropped site');
  assert.ok(lines.some((l) => /^\d+ URLs? waiting on 1 site no longer in --sites ended as discarded$/.test(l)), lines.join('\n'));
  const { SqliteCrawlReader } = await import('../../src/store/sqlite-crawl-reader.js');
  const reader = SqliteCrawlReader.open(db);
  try {
    const dropped: { state: string; error: string | null }[] = [];
    for await (const e of reader.logEntries()) if (new URL(e.url).host === sites[2]!.host && e.state === 'discarded') dropped.push(e);
    assert.ok(dropped.length > 0 && dropped.every((e) => e.error === "its site is not in this run's --sites"), JSON.stringify(dropped.slice(0, 3)));
  } finally {
    await reader.close();
  }
});
