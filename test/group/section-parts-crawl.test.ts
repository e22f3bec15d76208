import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GROUP_DEFAULTS, runGroupCrawl, type GroupReport } from '../../src/group/group-crawl.js';
import { readExamplesFile, readSitesFile } from '../../src/group/group-inputs.js';
import { DEFAULT_SELECTION } from '../../src/group/target-selection.js';
import { serveTinySites, type TinyPage } from '../helpers/tiny-sites.js';

/**
 * Six small project manuals with a menu on every page. Three have a FAQ page; one splits its FAQ
 * into an index and a page a question, each question linking back through the menu; two have none.
 */
const MENU: [string, string][] = [['/', 'Home'], ['/guide.html', 'Guide'], ['/faq/', 'FAQ']];
const ORDINARY = ['install the package from the archive and configure the server', 'the reference of every option and its default value', 'release history and the changes of each version', 'tutorial building a first project step by step'];
function manual(project: string, faq: TinyPage | null, extra: Record<string, TinyPage> = {}): Record<string, TinyPage> {
  const site: Record<string, TinyPage> = {
    '/': [`${project} manual`, `welcome to the ${project} manual`, [...MENU, ...ORDINARY.map((_t, i): [string, string] => [`/ch${i}.html`, `Chapter ${i}`])]],
    '/guide.html': [`${project} guide`, `the ${project} user guide`, MENU],
    ...Object.fromEntries(ORDINARY.map((t, i) => [`/ch${i}.html`, [`${project} chapter ${i}`, `${project} ${t}`, MENU] as TinyPage])),
    ...extra,
  };
  if (faq) site['/faq/'] = faq;
  return site;
}
const faqPage = (project: string): TinyPage => [
  'FAQ',
  `Frequently asked questions about ${project}. Why does ${project} fail to start? Check the log file. How do I report a bug? Open an issue. Can I use ${project} without a network? Yes, questions welcome.`,
  MENU,
];
const QUESTIONS = ['Why does the daemon fail to start?', 'How do I report a bug?', 'Can I use it without a network?', 'Where is the log file?'];
const SITES: Record<string, Record<string, TinyPage>> = {
  a: manual('alpha', faqPage('alpha')),
  b: manual('bravo', faqPage('bravo')),
  c: manual('charlie', faqPage('charlie')),
  s: manual('sierra', ['FAQ', 'Frequently asked questions', [...MENU, ...QUESTIONS.map((q, i): [string, string] => [`/faq/q${i}.html`, q])]],
    Object.fromEntries(QUESTIONS.map((q, i) => [`/faq/q${i}.html`, [q, `Question: ${q.toLowerCase()} Answer: sierra ${['reads the log file first', 'takes bug reports as issues', 'works offline', 'writes its log file under var'][i]}.`, MENU] as TinyPage]))),
  d: manual('delta', null),
  e: manual('echo', null),
};

let web: Awaited<ReturnType<typeof serveTinySites>>;
const dir = mkdtempSync(join(tmpdir(), 'fc-sections-'));
let withParts: GroupReport;
let withoutParts: GroupReport;

before(async () => {
  web = await serveTinySites(SITES);
  const sitesFile = join(dir, 'sites.tsv');
  writeFileSync(sitesFile, Object.keys(SITES).map((k) => `${web.roots[k]}\t${k}`).join('\n') + '\n');
  const examplesFile = join(dir, 'examples.tsv');
  writeFileSync(examplesFile, `${web.roots.a}\t${web.roots.a}faq/\n`);
  const sites = readSitesFile(sitesFile);
  const run = (name: string, sectionParts: number | undefined) => runGroupCrawl({
    ...GROUP_DEFAULTS, sites, examples: readExamplesFile(examplesFile, sites), method: 'bfc', budgetPerSite: 40, iterations: 2, pathSearchPages: 20,
    selection: { ...DEFAULT_SELECTION, sectionParts }, db: join(dir, `${name}.db`), concurrency: 4, perHost: 2, delayMs: 0, robots: true,
  });
  withParts = await run('with', DEFAULT_SELECTION.sectionParts);
  withoutParts = await run('without', undefined);
});
after(() => web.close());

const targets = (r: GroupReport) => r.pages.filter((p) => p.target).map((p) => `${p.site}${new URL(p.url).pathname}`).sort();

test('the parts of a FAQ split into pages are returned with its index once the index is a sample', () => {
  assert.ok(withParts.library.some((s) => s.url === `${web.roots.s}faq/`), `sierra's FAQ index joins the library: ${withParts.library.map((s) => s.url).join(' ')}`);
  assert.deepEqual(targets(withParts), ['a/faq/', 'b/faq/', 'c/faq/', 's/faq/', 's/faq/q0.html', 's/faq/q1.html', 's/faq/q2.html', 's/faq/q3.html']);
  // Returned, but never samples: the parts are added to the final selection only.
  assert.ok(!withParts.library.some((s) => s.url.includes('/faq/q')), withParts.library.map((s) => s.url).join(' '));
  assert.deepEqual([...(withParts.parts ?? [])].map((x) => new URL(x).pathname).sort(), ['/faq/q0.html', '/faq/q1.html', '/faq/q2.html', '/faq/q3.html']);
  // The same crawl without the rule: the questions stand no further above the group than the chapters.
  assert.deepEqual(targets(withoutParts), ['a/faq/', 'b/faq/', 'c/faq/', 's/faq/']);
});
