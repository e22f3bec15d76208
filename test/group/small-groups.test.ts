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
