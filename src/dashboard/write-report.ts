import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FocusCrawlError, fileError } from '../errors.js';
import { readSnapshot, type SnapshotSource } from './read-snapshot.js';
import { checkDashboardFiles, DASHBOARD_FILES } from './static-files.js';

/** Pages a report lists (the live dashboard shows 50; a report cannot ask for more later). */
const REPORT_PAGES = 200;

/**
 * The static report: the dashboard's own page with its script, styles and one snapshot inlined
 * into a single index.html (browsers refuse module scripts from file:// URLs, inline ones run),
 * plus the snapshot as data.json for other tools. No server, no network.
 */
export async function writeReport(src: SnapshotSource, outDir: string): Promise<{ index: string; snapshotAt: string }> {
  checkDashboardFiles();
  const snapshot = await readSnapshot(src, null, REPORT_PAGES);
  const html = readFileSync(join(DASHBOARD_FILES, 'index.html'), 'utf8');
  const js = readFileSync(join(DASHBOARD_FILES, 'assets/dashboard.js'), 'utf8');
  const css = readFileSync(join(DASHBOARD_FILES, 'assets/dashboard.css'), 'utf8');
  // In a <script> element only "</script" ends it: escaped, the code and the data mean the same.
  const data = JSON.stringify(snapshot).replace(/</g, '\\u003c');
  const page = html
    .replace(/<script type="module"[^>]*src="[^"]*"><\/script>\s*/, '')
    .replace(/<link rel="stylesheet"[^>]*>\s*/, '')
    .replace('<title>focuscrawl</title>', () => `<title>focuscrawl report: ${escapeHtml(src.label)}</title>\n    <style>${css}</style>`)
    .replace('</body>', () => `  <script id="focuscrawl-data" type="application/json">${data}</script>\n    <script type="module">${js.replace(/<\/script/gi, '<\\/script')}</script>\n  </body>`);
  try {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'index.html'), page);
    writeFileSync(join(outDir, 'data.json'), JSON.stringify(snapshot, null, 1));
  } catch (err) {
    // mkdir says EEXIST for a file in the way: the report is a folder (index.html and data.json).
    if ((err as NodeJS.ErrnoException).code === 'EEXIST' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new FocusCrawlError('IO', `cannot write the report to ${outDir}: it is a file, and the report is a folder (index.html and data.json); name a folder`);
    }
    throw new FocusCrawlError('IO', `cannot write the report to ${outDir}: ${fileError(err, 'write')}`);
  }
  return { index: join(outDir, 'index.html'), snapshotAt: snapshot.at };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
