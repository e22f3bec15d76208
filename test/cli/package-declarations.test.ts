import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A library user compiles against dist/src's declarations with only the package's dependencies
 * installed: every package those declarations import must be a dependency, and so must its
 * @types package when it ships no types of its own (TypeScript's publishing rule). A devDependency
 * there compiled here and failed for a user with TS7016.
 */
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string>; types?: string; main?: string };

function declarations(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? declarations(join(dir, d.name)) : d.name.endsWith('.d.ts') ? [join(dir, d.name)] : []));
}

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);

function shipsOwnTypes(name: string): boolean {
  const dir = join('node_modules', name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { types?: string; typings?: string; exports?: unknown };
  return Boolean(manifest.types || manifest.typings || existsSync(join(dir, 'index.d.ts')) || /"types"|\.d\.ts"/.test(JSON.stringify(manifest.exports ?? null)));
}

test("the published declarations import only the package's dependencies, with their types", () => {
  const imported = new Set<string>();
  for (const file of declarations('dist/src')) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^'.][^']*)'|\bimport\('([^'.][^']*)'\)/gm)) {
      const spec = m[1] ?? m[2]!;
      if (!spec.startsWith('node:')) imported.add(packageOf(spec));
    }
  }
  assert.ok(imported.has('better-sqlite3') && imported.has('pg'), `the scan found the store's imports (${[...imported].join(', ')})`);
  for (const name of imported) {
    assert.ok(Object.hasOwn(pkg.dependencies, name), `${name} is imported by dist/src's declarations but is no dependency`);
    if (!shipsOwnTypes(name)) assert.ok(Object.hasOwn(pkg.dependencies, `@types/${name}`), `${name} ships no types and @types/${name} is no dependency`);
  }
  // moduleResolution node10 reads "types", not "exports".
  assert.equal(pkg.types, './dist/src/index.d.ts');
});

test('the types the public interfaces name are exported too', () => {
  const index = readFileSync('dist/src/index.d.ts', 'utf8');
  // Strategy.reoffers, PageView.profile, restorePages, startCrawl's parts, CrawlSummary.reason: a user's code names them.
  for (const name of ['Reoffer', 'TopicProfile', 'FetchedRelevance', 'CrawlParts', 'StopReason', 'LinkDecision', 'PageView']) {
    assert.match(index, new RegExp(`\\b(?:type )?${name}\\b[^;]*\\bfrom\\b`), `${name} is not exported by dist/src/index.d.ts`);
  }
});
