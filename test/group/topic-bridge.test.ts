import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GROUP_DEFAULTS, runGroupCrawl } from '../../src/group/group-crawl.js';
import { readExamplesFile, readSitesFile } from '../../src/group/group-inputs.js';
import { TopicBridge } from '../../src/group/topic-bridge.js';
import { TfIdfSpace } from '../../src/relevance/tfidf-space.js';
import { termCounts } from '../../src/text/tokenize.js';
import { GROUP_TOKENS } from '../../src/group/anchor-path.js';
import { runCli } from '../helpers/run-cli.js';
import { serveTinySites, type TinyPage } from '../helpers/tiny-sites.js';

const KEYWORDS = { 'admission scores': 3, 'score line': 2, 录取分数线: 3, 历年分数线: 3, 招生: 1 };

test('the bridge scores a path by its best reading: the whole path, or the link\'s own step', () => {
  const b = new TopicBridge(KEYWORDS, 1);
  const menu = b.pathScore(['本科招生']);
  const step = b.pathScore(['本科招生', '历年分数线']);
  const other = b.pathScore(['新闻', '校园活动']);
  assert.ok(step > menu, `${step} > ${menu}`);
  assert.equal(other, 0);
  assert.ok(new TopicBridge(KEYWORDS, 0.5).pathScore(['本科招生', '历年分数线']) <= 0.5);
  assert.equal(b.pathScore([]), 0, 'a site root has no path to score');
});

test('a page scores as a share of the examples\' own keyword score, capped at the weight', () => {
  const space = new TfIdfSpace();
  const docs = ['admission scores by province 2023 score line', '历年分数线 录取分数线 2023年 各省', 'campus concert library news'].map((t) => termCounts(t, GROUP_TOKENS));
  for (const d of docs) space.observe(d);
  const b = new TopicBridge(KEYWORDS, 0.5);
  const kw = b.keywordVector(space);
  const [en, zh, news] = docs.map((d) => space.vector(d));
  const level = b.pageScore(en!, kw, 1) / 0.5;
  assert.equal(b.pageScore(en!, kw, level), 0.5, 'as topical as the example: the whole weight');
  assert.ok(b.pageScore(zh!, kw, level) > 0.25, 'the Chinese page reaches most of it through its Chinese keywords');
  assert.equal(b.pageScore(news!, kw, level), 0);
  assert.equal(b.pageScore(en!, kw, 0), 0, 'no example level, no score');
});

/**
 * An English and a Chinese university site with the same kind of page (admission scores of a
 * year, a table by province), and one site without it. The example is English.
 */
const table = (rows: [string, number, number][]) => rows.map(([p, a, b]) => `${p} ${a} ${b}`).join(' ');
const PAGES: Record<string, Record<string, TinyPage>> = {
  en: {
    '/': ['North University', 'welcome', [['/news/', 'News'], ['/adm/', 'Admissions']]],
    '/news/': ['News', 'football match concert library', [['/news/1.html', 'Concert']]],
    '/news/1.html': ['Concert', 'music tonight', []],
    '/adm/': ['Admissions', 'apply to study here', [['/adm/scores/', 'Score lines']]],
    '/adm/scores/': ['Score lines', 'past years', [['/adm/scores/2023.html', '2023']]],
    '/adm/scores/2023.html': ['Admission scores 2023', `Admission scores by province, score line 2023. ${table([['Beijing', 612, 640], ['Shanghai', 598, 630], ['Jiangsu', 605, 633], ['Hebei', 590, 611], ['Henan', 601, 622]])}`, []],
  },
  zh: {
    '/': ['南方大学', '欢迎', [['/xw/', '新闻'], ['/zs/', '本科招生']]],
    '/xw/': ['新闻', '校园 音乐会 图书馆 讲座', [['/xw/1.html', '音乐会']]],
    '/xw/1.html': ['音乐会', '今晚 音乐', []],
    '/zs/': ['本科招生', '报考 指南', [['/zs/fs/', '历年分数线']]],
    '/zs/fs/': ['历年分数线', '往年', [['/zs/fs/2023.html', '2023年']]],
    '/zs/fs/2023.html': ['2023年录取分数线', `各省录取分数线 2023年 ${table([['北京', 610, 641], ['上海', 597, 629], ['江苏', 604, 632], ['河北', 589, 612], ['河南', 600, 621]])}`, []],
  },
  none: {
    '/': ['西部学院', '欢迎', [['/xw/', '新闻']]],
    '/xw/': ['新闻', '校园 音乐会 节日', []],
  },
};

let web: Awaited<ReturnType<typeof serveTinySites>>;
let roots: Record<string, string> = {};
const dir = mkdtempSync(join(tmpdir(), 'fc-bridge-'));
let sitesFile: string;
let examplesFile: string;
let topicFile: string;

before(async () => {
  web = await serveTinySites(PAGES);
  roots = web.roots;
  sitesFile = join(dir, 'sites.tsv');
  writeFileSync(sitesFile, `${roots.en}\tNorth\n${roots.zh}\tSouth\n${roots.none}\tWest\n`);
  examplesFile = join(dir, 'examples.tsv');
  writeFileSync(examplesFile, `${roots.en}\t${roots.en}adm/scores/2023.html\n`);
  topicFile = join(dir, 'scores.yaml');
  writeFileSync(topicFile, `name: admission scores\nkeywords:\n${Object.entries(KEYWORDS).map(([k, w]) => `  ${k}: ${w}`).join('\n')}\n`);
});
after(() => web.close());

const run = (db: string, topic: boolean) => {
  const sites = readSitesFile(sitesFile);
  return runGroupCrawl({
    ...GROUP_DEFAULTS, sites, examples: readExamplesFile(examplesFile, sites), method: 'bfc', budgetPerSite: 10, iterations: 2, pathSearchPages: 10,
    threshold: 0.4, topicKeywords: topic ? KEYWORDS : null, topicWeight: 1, db: join(dir, db), concurrency: 4, perHost: 2, delayMs: 0, robots: true,
  });
};
const targetsOf = (pages: { url: string; target: boolean }[]) => pages.filter((p) => p.target).map((p) => p.url).sort();

test('English examples find no Chinese target by themselves; with bilingual topic keywords they find its score page and not the page listing the years', async () => {
  const zh = (urls: string[]) => urls.filter((u) => u.startsWith(roots.zh!));
  const alone = await run('alone.db', false);
  assert.ok(alone.pages.some((p) => p.url === `${roots.zh}zs/fs/2023.html`), 'the Chinese score page was fetched');
  assert.deepEqual(zh(targetsOf(alone.pages)), []);
  const bridged = await run('bridged.db', true);
  assert.deepEqual(zh(targetsOf(bridged.pages)), [`${roots.zh}zs/fs/2023.html`]);
  assert.deepEqual(targetsOf(bridged.pages).filter((u) => u.startsWith(roots.none!)), [], 'the site without the kind returns nothing');
  const list = bridged.pages.find((p) => p.url === `${roots.zh}zs/fs/`)!;
  const year = bridged.pages.find((p) => p.url === `${roots.zh}zs/fs/2023.html`)!;
  assert.ok(year.score > list.score, `the year's table (${year.score}) ranks above the list of years (${list.score}), which only names the kind`);
});

test('focuscrawl group --topic reads the keywords of a topic file; a missing file is one line naming it, exit 2', async () => {
  const out = join(dir, 'targets.csv');
  const r = await runCli(['group', '--sites', sitesFile, '--examples', examplesFile, '--topic', topicFile, '--topic-weight', '1', '--threshold', '0.4', '--budget-per-site', '10', '--iterations', '2', '--delay-ms', '0', '--db', join(dir, 'cli.db'), '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /target pages on 2 of 3 sites/);
  const bad = await runCli(['group', '--sites', sitesFile, '--examples', examplesFile, '--topic', join(dir, 'nope.yaml'), '--db', join(dir, 'bad.db')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /nope\.yaml/);
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  const fc = await runCli(['group', '--sites', sitesFile, '--examples', examplesFile, '--topic', topicFile, '--method', 'fc', '--db', join(dir, 'fc.db')]);
  assert.equal(fc.code, 2);
  assert.match(fc.stderr, /--topic: only the bootstrapping crawler/);
});
