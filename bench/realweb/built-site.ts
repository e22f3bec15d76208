import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Bumped whenever the build changes what is served; an older build is rebuilt. */
export const BUILD_VERSION = 4;

/** What a build leaves in out/<site>/graph.json: the served pages and their link graph. */
export interface BuiltSite {
  id: string;
  package: string;
  version: string;
  buildVersion: number;
  builtAt: string;
  /** Served path of page i ('/' for the start page, else /p/<hash>.html). */
  urls: string[];
  /** Page i's path in the original tree (for labels and for humans; never served). */
  originals: string[];
  /** Index of the page page i's <link rel="up"> names, or -1. */
  up: number[];
  /** Page indices each page links to (as the crawler's parser sees the rewritten page). */
  out: number[][];
  /** Index of the start page. */
  root: number;
  /** Pages reachable from the start page. */
  reachable: number;
  /** Redirect stubs dropped and resolved into their targets. */
  redirects: number;
}

/**
 * One folder per build version, so that checkouts running different versions of the bench side
 * by side (sharing out/ through a symlink) never rebuild each other's sites under a running crawl.
 */
export const siteDir = (outDir: string, id: string) => join(outDir, id, `build-${BUILD_VERSION}`);
export const pagesDir = (outDir: string, id: string) => join(siteDir(outDir, id), 'pages');
/** The served file of page path `url`. */
export const pageFile = (url: string) => (url === '/' ? 'start.html' : url.slice(3));

export function readBuiltSite(outDir: string, id: string): BuiltSite | null {
  const f = join(siteDir(outDir, id), 'graph.json');
  if (!existsSync(f)) return null;
  try {
    return JSON.parse(readFileSync(f, 'utf8')) as BuiltSite;
  } catch {
    return null;
  }
}
