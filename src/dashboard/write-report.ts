import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { makeFolder } from '../files/make-folder.js';
import { join, resolve, sep } from 'node:path';
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
export async function writeReport(src: SnapshotSource, outDir: string, o: { force?: boolean } = {}): Promise<{ index: string; snapshotAt: string }> {
  checkDashboardFiles();
  checkReportFolder(outDir, o.force === true);
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
    makeFolder(outDir);
    writeFileSync(join(outDir, 'index.html'), page);
    writeFileSync(join(outDir, 'data.json'), JSON.stringify(snapshot, null, 1));
  } catch (err) {
    // mkdir says EEXIST for a file in the way: the report is a folder (index.html and data.json).
    if ((err as NodeJS.ErrnoException).code === 'EEXIST' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') {
      // The file in the way may be a parent (--out afile/sub): name the one that is.
      const inTheWay = fileOnPath(outDir);
      throw new FocusCrawlError('IO', inTheWay === outDir || inTheWay === null
        ? `cannot write the report to ${outDir}: it is a file, and the report is a folder (index.html and data.json); name a folder`
        : `cannot write the report to ${outDir}: ${inTheWay} is a file, so no folder can be made under it`);
    }
    throw new FocusCrawlError('IO', `cannot write the report to ${outDir}: ${fileError(err, 'write')}`);
  }
  return { index: join(outDir, 'index.html'), snapshotAt: snapshot.at };
}

/**
 * The report is a folder: a name like a file's (report.html) would become a folder of that name,
 * and an index.html that no report wrote would be replaced without a word. A folder holding an
 * earlier report is written again (a report refreshed in place).
 */
function checkReportFolder(outDir: string, force: boolean): void {
  if (force) return;
  if (/\.html?$/i.test(outDir) && !existsSync(outDir)) {
    throw new FocusCrawlError('USAGE', `--out ${outDir}: the report is a folder (index.html and data.json), and this looks like a file name; name a folder (e.g. ${outDir.replace(/\.html?$/i, '')}), or pass --force to make a folder of that name`);
  }
  const index = join(outDir, 'index.html');
  let text: string;
  try {
    text = readFileSync(index, 'utf8');
  } catch {
    // No index.html: a new or empty folder is the report's; one holding the user's files is not
    // (a folder of sample pages would gain an index.html that the next `topic learn` reads).
    // Hidden files (.gitkeep, .DS_Store) leave a folder empty; a data.json counts unless a report wrote it.
    const others = folderEntries(outDir).filter((f) => !f.startsWith('.') && !(f === 'data.json' && isReportData(join(outDir, f))));
    if (others.length) throw new FocusCrawlError('USAGE', `--out ${outDir}: it holds other files (${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}), to which the report would add index.html and data.json; name a new or empty folder, or pass --force`);
    return;
  }
  if (!text.includes('id="focuscrawl-data"')) {
    throw new FocusCrawlError('USAGE', `--out ${outDir}: it holds an index.html that is no focuscrawl report, which the report would replace; name another folder, or pass --force`);
  }
}

/** A data.json a report wrote: a snapshot, with its time, crawl and state. */
function isReportData(file: string): boolean {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
    return v !== null && typeof v === 'object' && typeof v.at === 'string' && typeof v.crawl === 'object' && typeof v.state === 'object';
  } catch {
    return false;
  }
}

function folderEntries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** The first path on the way to `dir` that is a file, or null. */
function fileOnPath(dir: string): string | null {
  const parts = resolve(dir).split(sep);
  for (let i = 1; i <= parts.length; i++) {
    const at = parts.slice(0, i).join(sep) || sep;
    try {
      if (!statSync(at).isDirectory()) return i === parts.length ? dir : at;
    } catch {
      return null;
    }
  }
  return null;
}
