import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serveTinySites } from '../helpers/tiny-sites.js';

/** The library as the README shows it: every name its examples import is exported, and the examples run as written. */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const docs = [join(root, 'README.md'), ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f))];
const blocks = docs.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => ({ file, code: m[1]! })));
const ENTRY: Record<string, string> = { focuscrawl: join(root, 'dist/src/index.js'), 'focuscrawl/seen': join(root, 'dist/src/seen/index.js') };

test("every name the docs' examples import from focuscrawl is one of the package's exports", async () => {
  let names = 0;
  for (const { file, code } of blocks) {
    for (const [, list, spec] of code.matchAll(/import \{([^}]+)\} from '(focuscrawl[^']*)'/g)) {
      assert.ok(spec! in ENTRY, `${file}: the package exports no '${spec}'`);
      // Through the package's own name, as a user's import resolves it (package.json "exports").
      const module = (await import(spec!)) as Record<string, unknown>;
      for (const name of list!.split(',').map((n) => n.trim().replace(/^type /, ''))) {
        assert.ok(name in module, `${file} imports ${name} from '${spec}', which does not export it`);
        names++;
      }
    }
  }
  assert.ok(names >= 10, `${names} names checked`);
});

test("the README's embedded-crawl examples run as written, in order, against a local site", async () => {
  const page = (title: string, links: [string, string][]) => [title, `${title}: solar inverter photovoltaic panels`, links] as [string, string, [string, string][]];
  const site = await serveTinySites({ a: { '/': page('solar home', [['/a', 'inverters'], ['/b', 'panels']]), '/a': page('string inverter', [['/b', 'panels']]), '/b': page('solar panel', []) } });
  after(() => site.close());
  // A user's folder: the topic file the examples name, and the databases they write.
  const cwd = mkdtempSync(join(tmpdir(), 'fc-readme-'));
  writeFileSync(join(cwd, 'solar.yaml'), 'name: solar energy\nkeywords:\n  solar: 3\n  inverter: 2\n');
  const runnable = blocks.filter((b) => b.file.endsWith('README.md') && /from 'focuscrawl/.test(b.code) && !/Shared/.test(b.code));
  assert.ok(runnable.length >= 4, `${runnable.length} examples`);
  const outputs: string[] = [];
  for (const { code } of runnable) {
    const script = code
      .replace(/from '(focuscrawl[^']*)'/g, (_m, spec: string) => `from '${pathToFileURL(ENTRY[spec]!).href}'`)
      .replaceAll('https://example.org/', site.roots.a!)
      // A port the machine has free, where the example names Prometheus's usual one.
      .replace('serveMetrics(registry, 9464)', 'serveMetrics(registry, 0)');
    const file = join(cwd, `example-${outputs.length}.mjs`);
    writeFileSync(file, script);
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(process.execPath, [file], { cwd }, (err, stdout, stderr) => (err ? reject(new Error(`${code}\nfailed: ${stderr}`)) : resolve({ stdout, stderr })));
    });
    assert.equal(stderr, '', `${code}\nwrote to stderr`);
    outputs.push(stdout);
  }
  const [crawl, metrics, reader] = runnable.map((b, i) => ({ code: b.code, out: outputs[i]! })).filter((r) => /startCrawl|SqliteCrawlReader/.test(r.code));
  assert.match(crawl!.out, /^4 \[/, 'the crawl fetched the three pages and the guessed sitemap, and printed its search');
  assert.match(crawl!.out, /url: 'http:\/\/127\.0\.0\.1:\d+\/a'/);
  assert.match(metrics!.out, /^# TYPE focuscrawl_fetches_total counter$/m);
  assert.match(reader!.out, /done: 4/, 'three pages and the guessed sitemap');
  assert.match(reader!.out, /relevance/);
  assert.match(reader!.out, /^url,final_url,/m, "formatPages's CSV header, as export writes it");
});
