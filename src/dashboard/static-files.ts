import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FocusCrawlError } from '../errors.js';
import { decodeStrict } from './query-params.js';

/** The built front end (Vite's output), shipped in the package: dist/dashboard beside dist/src. */
export const DASHBOARD_FILES = fileURLToPath(new URL('../../dashboard/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export function checkDashboardFiles(): void {
  if (!existsSync(join(DASHBOARD_FILES, 'index.html'))) {
    throw new FocusCrawlError('IO', `the dashboard's files are missing from ${DASHBOARD_FILES} (a source checkout builds them with npm run build)`);
  }
}

/** A file of the built front end, or null for anything outside it; a malformed escape in `path` is a USAGE error. */
export function dashboardFile(path: string): { body: Buffer; type: string } | null {
  const rel = normalize(decodeStrict(path === '/' ? '/index.html' : path, 'the path')).replace(/^[/\\]+/, '');
  const full = join(DASHBOARD_FILES, rel);
  if (!full.startsWith(DASHBOARD_FILES) || rel.split(sep).includes('..') || !existsSync(full)) return null;
  try {
    return { body: readFileSync(full), type: TYPES[extname(full)] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}
