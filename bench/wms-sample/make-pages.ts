/**
 * Writes topics/wms-sample/pages/: the pages of MapProxy's manual (Debian package mapproxy-doc,
 * installed with apt-get if missing) slimmed to their title and visible text, as focuscrawl's
 * parser reads them. They are method B's sample of real pages about web map services, from which
 * `focuscrawl topic learn` ranks the candidate terms (topics/wms-sample/README.md).
 *
 *   npm run build && node dist/bench/wms-sample/make-pages.js
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHtml } from '../../src/parse/html-page.js';

const SOURCE = '/usr/share/doc/mapproxy/html';
/** Index pages of the Sphinx build, not pages of the manual. */
const SKIP = new Set(['genindex.html', 'search.html', 'py-modindex.html']);
const OUT = fileURLToPath(new URL('../../../topics/wms-sample/pages', import.meta.url));

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

if (!existsSync(SOURCE)) {
  process.stderr.write('mapproxy-doc is not installed: apt-get install mapproxy-doc\n');
  execFileSync('apt-get', ['install', '-y', 'mapproxy-doc'], { stdio: 'inherit' });
}
const version = execFileSync('dpkg-query', ['-W', '-f', '${Version}', 'mapproxy-doc'], { encoding: 'utf8' });
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
let n = 0;
for (const f of readdirSync(SOURCE).filter((x) => x.endsWith('.html') && !SKIP.has(x)).sort()) {
  const page = parseHtml(readFileSync(join(SOURCE, f), 'utf8'), `file://${SOURCE}/${f}`, 'utf-8');
  const html = `<!doctype html>\n<!-- mapproxy-doc ${version}: ${SOURCE}/${f}, title and visible text only -->\n<title>${escape(page.title)}</title>\n<p>${escape(page.text)}</p>\n`;
  writeFileSync(join(OUT, f), html);
  n++;
}
process.stdout.write(`wrote ${n} pages of mapproxy-doc ${version} to ${OUT}\n`);
