import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GROUP_DEFAULTS, runGroupCrawl } from '../../src/group/group-crawl.js';
import { readExamplesFile, readSitesFile } from '../../src/group/group-inputs.js';
import { runCli } from '../helpers/run-cli.js';
import { serveTinySites, type TinyPage } from '../helpers/tiny-sites.js';

/** Three small university sites: the same kind of score page under different menus. */
const SITES: Record<string, Record<string, TinyPage>> = {
  a: {
    '/': ['North University', 'welcome', [['/news/', 'News'], ['/adm/', 'Admissions']]],
    '/news/': ['News', 'football match concert library', [['/news/1.html', 'Concert'], ['/news/2.html', 'Match']]],
    '/adm/': ['Admissions', 'apply to study here', [['/adm/scores/', 'Score lines'], ['/adm/fees.html', 'Tuition fees']]],
    '/adm/scores/': ['Score lines', 'past years', [['/adm/scores/2023.html', '2023'], ['/adm/scores/2022.html', '2022']]],
  },
  b: {
    '/': ['South University', 'welcome', [['/events/', 'Events'], ['/apply/', 'Apply']]],
    '/events/': ['Events', 'festival sport club', [['/events/1.html', 'Festival']]],
    '/apply/': ['Apply', 'how to apply', [['/apply/lines/', 'Past score lines'], ['/apply/fees.html', 'Fees']]],
    '/apply/lines/': ['Past score lines', 'history', [['/apply/lines/2023.html', 'Scores 2023'], ['/apply/lines/2022.html', 'Scores 2022']]],
  },
  c: {
    '/': ['East University', 'welcome', [['/research/', 'Research'], ['/study/', 'Study with us']]],
    '/research/': ['Research', 'laboratory physics chemistry', [['/research/1.html', 'Physics']]],
    '/study/': ['Study with us', 'programmes', [['/study/scores/', 'Admission scores']]],
    '/study/scores/': ['Admission scores', 'by year', [['/study/scores/2023.html', 'Entry 2023']]],
  },
  // Two sites of the group without any score page.
  d: {
    '/': ['West College', 'welcome', [['/news/', 'News'], ['/about/', 'About']]],
    '/news/': ['News', 'concert match festival', [['/news/1.html', 'Concert']]],
    '/about/': ['About', 'history of the college', []],
  },
  e: {
    '/': ['Central Institute', 'welcome', [['/library/', 'Library']]],
    '/library/': ['Library', 'books journals opening hours', []],
  },
};
const scorePage = (name: string, y: string) =>
  [`${name} admission scores ${y}`, `Minimum and average admission scores by province ${y}. Province Batch Minimum Average Beijing 612 640 Shanghai 598 630 Jiangsu 605 633`, []] as TinyPage;
for (const [k, name] of [['a', 'North University'], ['b', 'South University'], ['c', 'East University']] as const) {
  for (const path of Object.keys(SITES[k]!)) {
    for (const [href] of SITES[k]![path]![2]) {
      const m = /(20\d\d)\.html$/.exec(href);
      if (m && /scores|lines/.test(href)) SITES[k]![href] = scorePage(name, m[1]!);
      else if (!SITES[k]![href]) SITES[k]![href] = [href, 'tuition fees accommodation campus life sport music', []];
    }
  }
}

let web: Awaited<ReturnType<typeof serveTinySites>>;
let roots: Record<string, string> = {};
const dir = mkdtempSync(join(tmpdir(), 'fc-group-'));
let sitesFile: string;
let examplesFile: string;

before(async () => {
  web = await serveTinySites(SITES);
  roots = web.roots;
  sitesFile = join(dir, 'sites.tsv');
  writeFileSync(sitesFile, `${roots.a}\tNorth\n${roots.b}\tSouth\n${roots.c}\tEast\n${roots.d}\tWest\n${roots.e}\tCentral\n`);
  examplesFile = join(dir, 'examples.tsv');
  writeFileSync(examplesFile, `${roots.a}\t${roots.a}adm/scores/2023.html\n`);
});
after(() => web.close());

test('path extraction finds the example\'s anchor path; one round adds the most similar new pages of other sites to the library', async () => {
  const sites = readSitesFile(sitesFile);
  const report = await runGroupCrawl({
    ...GROUP_DEFAULTS, sites, examples: readExamplesFile(examplesFile, sites), method: 'bfc', budgetPerSite: 20, iterations: 2, pathSearchPages: 20,
    threshold: 0.5, addPerRound: 20, db: join(dir, 'g.db'), concurrency: 4, perHost: 2, delayMs: 0, robots: true,
  });
  assert.deepEqual(report.library[0]!.path, ['Admissions', 'Score lines', '2023']);
  // Round 1 adds the best new page of each site: North's 2022, South's and East's score pages.
  const added = report.rounds[0]!.added;
  assert.equal(added.length, 3);
  assert.ok(added.every((u) => /\/20(22|23)\.html$/.test(u)), added.join(' '));
  const south = report.library.find((s) => s.url.startsWith(roots.b!));
  assert.deepEqual(south?.path.slice(0, 2), ['Apply', 'Past score lines']);
  const targets = report.pages.filter((p) => p.target).map((p) => p.url.replace(/http:\/\/127\.0\.0\.1:\d+/, p.site));
  // Every score page, and one false positive: East's listing page, titled "Admission scores".
  assert.deepEqual(targets.sort(), [
    'East/study/scores/', 'East/study/scores/2023.html', 'North/adm/scores/2022.html', 'North/adm/scores/2023.html', 'South/apply/lines/2022.html', 'South/apply/lines/2023.html',
  ]);
});

test('focuscrawl group writes the ranked targets per site as CSV; --all adds the rest with a target column', async () => {
  const out = join(dir, 'targets.csv');
  // --threshold: a group of 5 sites, a fifth of whose fetched pages are targets, is too small for
  // the adaptive selection (it takes most pages for non-targets; target-selection.test.ts tests it).
  const r = await runCli(['group', '--sites', sitesFile, '--examples', examplesFile, '--budget-per-site', '20', '--iterations', '2', '--delay-ms', '0', '--threshold', '0.5', '--db', join(dir, 'cli.db'), '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /6 target pages on 3 of 5 sites/);
  const rows = readFileSync(out, 'utf8').trim().split('\r\n');
  assert.equal(rows[0], 'site,url,path,score');
  assert.equal(rows.length, 7);
  // Ranked per site, best first: both North pages are in the library (the example, and 2022 added by round 1).
  assert.match(rows[1]!, /^North,http:\/\/127\.0\.0\.1:\d+\/adm\/scores\/2022\.html,Admissions > Score lines > 2022,1$/);
  assert.match(rows[2]!, /^North,http:\/\/127\.0\.0\.1:\d+\/adm\/scores\/2023\.html,Admissions > Score lines > 2023,1$/);
  assert.match(rows[3]!, /^South,/);
  const all = await runCli(['group', '--sites', sitesFile, '--examples', examplesFile, '--budget-per-site', '20', '--iterations', '2', '--delay-ms', '0', '--threshold', '0.5', '--db', join(dir, 'cli.db'), '--all', '--format', 'jsonl']);
  assert.match(all.stderr, /path extraction \(0 pages\)/, 'the second run on the same database continues it');
  const lines = all.stdout.trim().split('\n').map((l) => JSON.parse(l) as { target: boolean });
  assert.ok(lines.length > 10);
  assert.equal(lines.filter((l) => l.target).length, 6);
  // A .json --out is one array of the same rows.
  const json = join(dir, 'targets.json');
  const j = await runCli(['group', '--sites', sitesFile, '--examples', examplesFile, '--budget-per-site', '20', '--iterations', '2', '--delay-ms', '0', '--threshold', '0.5', '--db', join(dir, 'cli.db'), '--all', '--out', json]);
  assert.equal(j.code, 0, j.stderr);
  assert.deepEqual(JSON.parse(readFileSync(json, 'utf8')), lines);
  const resume = await runCli(['resume', '--db', join(dir, 'cli.db')]);
  assert.equal(resume.code, 2, 'resume cannot rebuild the group strategy');
  assert.match(resume.stderr, /holds a group crawl: run 'focuscrawl group' again with the same --db/);
  // Again with the other method: refused, the database untouched; with other examples: said.
  const untouched = readFileSync(join(dir, 'cli.db'));
  const fc = await runCli(['group', '--sites', sitesFile, '--examples', examplesFile, '--method', 'fc', '--delay-ms', '0', '--db', join(dir, 'cli.db')]);
  assert.equal(fc.code, 2);
  assert.ok(readFileSync(join(dir, 'cli.db')).equals(untouched), 'the database is as it was');
  assert.match(fc.stderr, /cli\.db holds a group crawl made with --method bfc: run it again with --method bfc, or give this one a database of its own \(--db\)/);
  const fewer = join(dir, 'fewer-sites.tsv');
  writeFileSync(fewer, readFileSync(sitesFile, 'utf8').trim().split('\n').slice(0, 4).join('\n') + '\n');
  const other = await runCli(['group', '--sites', fewer, '--examples', examplesFile, '--budget-per-site', '20', '--iterations', '2', '--delay-ms', '0', '--threshold', '0.5', '--db', join(dir, 'cli.db')]);
  assert.equal(other.code, 0, other.stderr);
  assert.match(other.stderr, /cli\.db was made with other sites or examples: this run continues it/);
});

test('Ctrl-C stops a group run without writing a ranking; the same command run again continues', { timeout: 60_000 }, async () => {
  const db = join(dir, 'stopped.db');
  const out = join(dir, 'stopped.csv');
  const args = ['group', '--sites', sitesFile, '--examples', examplesFile, '--budget-per-site', '20', '--iterations', '2', '--threshold', '0.5', '--db', db, '--out', out];
  const before = { ...web.hits };
  // A slow crawl (a second between a site's requests), stopped once round 1 has begun.
  const stopped = await runCli([...args, '--delay-ms', '1000'], {
    onStart: (child) => {
      let seen = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (/path extraction/.test(seen) && !child.killed) child.kill('SIGINT');
      });
    },
  });
  assert.equal(stopped.code, 130, stopped.stderr);
  assert.match(stopped.stderr, /stopping: the requests in flight are given back \(Ctrl-C again to quit now\)/);
  assert.match(stopped.stderr, /stopped during round 1: nothing ranked or written; the pages fetched are kept in .*stopped\.db, and the same command run again continues from them/);
  assert.ok(!existsSync(out), 'no partial ranking is written');
  const fetchedBefore = Object.keys(web.hits).reduce((n, k) => n + web.hits[k]! - before[k]!, 0);
  assert.ok(fetchedBefore > 0);
  const again = await runCli([...args, '--delay-ms', '0']);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /path extraction \(0 pages\)/, 'the examples found before the stop are not searched again');
  assert.match(again.stderr, /6 target pages on 3 of 5 sites/);
  assert.equal(readFileSync(out, 'utf8').trim().split('\r\n').length, 7);
});

test('focuscrawl group names a malformed examples line and exits 2', async () => {
  const bad = join(dir, 'bad-examples.tsv');
  writeFileSync(bad, `${roots.a}\t${roots.a}adm/scores/2023.html\n${roots.b}\t${roots.b}apply/\tnote\n`);
  const r = await runCli(['group', '--sites', sitesFile, '--examples', bad]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`focuscrawl: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: expected 'site_root<TAB>page_url'`));
  const threshold = await runCli(['group', '--sites', sitesFile, '--examples', examplesFile, '--threshold', '2']);
  assert.equal(threshold.code, 2);
  assert.match(threshold.stderr, /--threshold: '2' is not a number from 0 to 1/);
  const nameWeight = await runCli(['group', '--sites', sitesFile, '--examples', examplesFile, '--name-weight', '1.5']);
  assert.equal(nameWeight.code, 2);
  assert.match(nameWeight.stderr, /--name-weight: '1.5' is not a number from 0 to 1/);
});

test('an example that was fetched but cannot be used is named with the reason from the crawl log', async () => {
  const z = await serveTinySites({
    z: {
      '/': ['Zeta University', 'welcome', [['/gone.html', 'Score lines 2021'], ['/ok.html', 'Score lines 2023']]],
      '/ok.html': ['Score lines 2023', 'admission score lines by province', []],
    },
  });
  try {
    const sites = join(dir, 'z-sites.tsv');
    // A second site that refuses connections: named at the end as giving no page.
    writeFileSync(sites, `${z.roots.z}\tZeta\nhttp://127.0.0.1:9/\tDead\n`);
    const examples = join(dir, 'gone-examples.tsv');
    writeFileSync(examples, `${z.roots.z}\t${z.roots.z}gone.html\n${z.roots.z}\t${z.roots.z}ok.html\n${z.roots.z}\t${z.roots.z}\n`);
    const r = await runCli(['group', '--sites', sites, '--examples', examples, '--budget-per-site', '5', '--iterations', '1', '--delay-ms', '0', '--db', join(dir, 'gone.db')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /gone-examples\.tsv:3: example http:\/\/127\.0\.0\.1:\d+\/ is its site's start page, which is never a target: give a page of the kind you want/);
    assert.match(r.stderr, /gone-examples\.tsv:1: example http:\/\/127\.0\.0\.1:\d+\/gone\.html could not be fetched: HTTP 404; left out/);
    assert.match(r.stderr, /1 of 2 sites gave no page to rank: http:\/\/127\.0\.0\.1:9\/ \(their reasons are in the crawl log/);
    assert.match(r.stderr, /round 1: \d+ pages? fetched[^,\n]*, \d+ URLs? ended without a request \(host or its robots\.txt unreachable\)/, 'the dead site\'s URLs are no failed fetches');
    const none = join(dir, 'none-examples.tsv');
    writeFileSync(none, `${z.roots.z}\t${z.roots.z}gone.html\n`);
    const all = await runCli(['group', '--sites', sites, '--examples', none, '--delay-ms', '0', '--db', join(dir, 'none.db')]);
    assert.equal(all.code, 2);
    assert.match(all.stderr, /focuscrawl: no example page could be used \(the reasons are above\): check the examples$/m);
  } finally {
    await z.close();
  }
});

test('an example the crawl never reached is explained by its site: a root that could not be fetched, or a site that ran out of pages', async () => {
  const z = await serveTinySites({
    z: {
      '/': ['Zeta University', 'welcome', [['/ok.html', 'Score lines 2023']]],
      '/ok.html': ['Score lines 2023', 'admission score lines by province', []],
    },
  });
  try {
    const sites = join(dir, 'unreached-sites.tsv');
    writeFileSync(sites, `${z.roots.z}\tZeta\nhttp://127.0.0.1:9/\tDead\n`);
    const examples = join(dir, 'unreached-examples.tsv');
    // A mistyped page on a live two-page site, a page of a site that refuses connections, and one that works.
    writeFileSync(examples, `${z.roots.z}\t${z.roots.z}okk.html\nhttp://127.0.0.1:9/\thttp://127.0.0.1:9/faq.html\n${z.roots.z}\t${z.roots.z}ok.html\n`);
    const r = await runCli(['group', '--sites', sites, '--examples', examples, '--budget-per-site', '5', '--iterations', '1', '--delay-ms', '0', '--db', join(dir, 'unreached.db')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /unreached-examples\.tsv:1: example http:\/\/127\.0\.0\.1:\d+\/okk\.html was not reached: none of the \d+ pages crawled from http:\/\/127\.0\.0\.1:\d+\/ links to it, and no more were found from there \(check the URL\); left out/);
    assert.match(r.stderr, /unreached-examples\.tsv:2: example http:\/\/127\.0\.0\.1:9\/faq\.html was not reached: its site root http:\/\/127\.0\.0\.1:9\/ could not be fetched \(.*connection refused.*\); left out/);
    assert.doesNotMatch(r.stderr, /raise --path-search/);
  } finally {
    await z.close();
  }
});

test('FC follows only the links of pages its classifier judges relevant (roots trusted), and stops before its budget', async () => {
  const sites = readSitesFile(sitesFile);
  const base = { ...GROUP_DEFAULTS, sites, examples: readExamplesFile(examplesFile, sites), budgetPerSite: 20, iterations: 2, pathSearchPages: 20, concurrency: 4, perHost: 2, delayMs: 0, robots: true };
  const fc = await runGroupCrawl({ ...base, method: 'fc', db: join(dir, 'fc.db') });
  const bfc = await runGroupCrawl({ ...base, method: 'bfc', db: join(dir, 'bfc-vs-fc.db') });
  const fetched = (r: typeof fc) => r.pages.map((p) => p.url.replace(/http:\/\/127\.0\.0\.1:\d+/, p.site));
  // Every root's links were followed although no root looks like a score page...
  for (const p of ['North/adm/', 'South/apply/', 'East/study/', 'West/about/', 'Central/library/']) assert.ok(fetched(fc).includes(p), p);
  // ...but on the other sites no menu page looks like a score page, so FC never goes below them:
  // their score pages, two links under their admissions menus, are not reached. (North's menu
  // pages share the university's name with the example, and are judged relevant.)
  assert.ok(!fetched(fc).some((u) => /^(South|East)\/.*20\d\d\.html$/.test(u)), fetched(fc).join(' '));
  const targets = fc.pages.filter((p) => p.target).map((p) => p.url.replace(/http:\/\/127\.0\.0\.1:\d+/, p.site));
  assert.ok(targets.includes('North/adm/scores/2023.html') && targets.every((t) => t.startsWith('North/')), targets.join(' '));
  assert.ok(fc.pages.length < bfc.pages.length, `FC fetched ${fc.pages.length} pages, BFC ${bfc.pages.length}`);
  // BFC's anchor paths lead it to them.
  assert.ok(fetched(bfc).includes('South/apply/lines/2023.html') && fetched(bfc).includes('East/study/scores/2023.html'));
});
