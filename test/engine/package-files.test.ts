import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `npm pack` ships ("files" in package.json) is enough for the source maps it ships to resolve. */
const root = fileURLToPath(new URL('../../../', import.meta.url));

function mapsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? mapsUnder(join(dir, e.name)) : e.name.endsWith('.js.map') ? [join(dir, e.name)] : []));
}

test("every source a shipped source map names is shipped too (debuggers and stack traces of the library's users find the TypeScript)", () => {
  const files = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] }).files;
  const shipped = (path: string) => files.some((f) => path === f || path.startsWith(f + '/'));
  const maps = mapsUnder(join(root, 'dist', 'src'));
  assert.ok(maps.length > 100, `${maps.length} source maps`);
  for (const map of maps) {
    assert.ok(shipped(relative(root, map).split(sep).join('/')), `${map} is shipped`);
    for (const source of (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources) {
      const path = relative(root, join(dirname(map), source)).split(sep).join('/');
      assert.ok(shipped(path), `${relative(root, map)} names ${path}, which package.json "files" does not ship`);
    }
  }
});
