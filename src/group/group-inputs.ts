import { readFileSync } from 'node:fs';
import { notTextLine } from '../config/seeds.js';
import { FocusCrawlError, fileError } from '../errors.js';
import { hostOf, normalizeUrl } from '../parse/normalize-url.js';
import { siteOfHost } from './site-of-host.js';

/** One site of the group: its root URL, a display name, and the host it is crawled on. */
export interface GroupSite {
  root: string;
  name: string;
  host: string;
}

/** An example target page of one site. */
export interface GroupExample {
  site: GroupSite;
  url: string;
  /** Where it was given: `file:line`. */
  where: string;
}

function lines(file: string, what: string): { text: string; n: number }[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new FocusCrawlError('IO', `cannot read ${what} file ${file}: ${fileError(err)}`);
  }
  const kept = text
    .split(/\r?\n/)
    .map((t, i) => ({ text: t.trim(), n: i + 1 }))
    .filter((l) => l.text && !l.text.startsWith('#'));
  const bad = kept.find((l) => notTextLine(l.text));
  if (bad) throw new FocusCrawlError('USAGE', `${file}:${bad.n}: bytes that are not UTF-8 text; save the ${what} file as UTF-8`);
  return kept;
}

function httpUrl(raw: string, where: string, what: string): string {
  const url = /^https?:\/\//i.test(raw) ? normalizeUrl(raw) : null;
  if (!url) throw new FocusCrawlError('USAGE', `${where}: ${what} '${raw}' is not an http(s) URL`);
  return url;
}

/**
 * The sites file: one site root per line, optionally a tab and a name (default: the host).
 * Blank lines and lines starting with # are skipped. Two sites may not share a host: the
 * per-site page budget is kept per host.
 */
export function readSitesFile(file: string): GroupSite[] {
  const sites: GroupSite[] = [];
  const byHost = new Map<string, string>();
  for (const { text, n } of lines(file, 'sites')) {
    // A URL holds no whitespace, so a tab or spaces (an editor's "TSV") end the root alike; the rest names the site.
    const [, rawRoot = '', rest = ''] = /^(\S+)\s*(.*)$/s.exec(text.trim()) ?? [];
    const where = `${file}:${n}`;
    // A CSV line (`http://a.edu/,North University`) read as a root of `http://a.edu/,North` was crawled, and failed only after.
    if (rawRoot.includes(',')) throw new FocusCrawlError('USAGE', `${where}: ',' in the site root '${rawRoot}': separate the name with a tab (a CSV file?), or write a comma in the URL as %2C`);
    const root = httpUrl(rawRoot, where, 'site root');
    const host = hostOf(root);
    const other = byHost.get(host);
    if (other === root) throw new FocusCrawlError('USAGE', `${where}: site ${root} is listed twice`);
    if (other) throw new FocusCrawlError('USAGE', `${where}: site ${root} is on the same host as ${other}; give one root per host`);
    const twin = sites.find((s) => siteOfHost([s])(host) === s.host);
    if (twin) throw new FocusCrawlError('USAGE', `${where}: site ${root} is ${twin.root} under its www. twin's name: one site, give one root`);
    byHost.set(host, root);
    sites.push({ root, name: rest.replace(/\s+/g, ' ').trim() || host, host });
  }
  if (!sites.length) throw new FocusCrawlError('USAGE', `${file}: no sites (one root URL per line)`);
  return sites;
}

/** The examples file: `site_root<TAB>page_url` per line; the root must be one of the sites. */
export function readExamplesFile(file: string, sites: GroupSite[]): GroupExample[] {
  const examples: GroupExample[] = [];
  for (const { text, n } of lines(file, 'examples')) {
    const where = `${file}:${n}`;
    const cols = text.trim().split(/\s+/);
    if (cols.length !== 2 || !cols[0] || !cols[1]) {
      throw new FocusCrawlError('USAGE', `${where}: expected 'site_root<TAB>page_url' (a tab or spaces between), got '${text.length > 80 ? text.slice(0, 80) + '…' : text}'`);
    }
    const root = httpUrl(cols[0], where, 'site root');
    const url = httpUrl(cols[1], where, 'page URL');
    // A page of a site's www. twin (an address copied from the browser, after the root's redirect) is the site's.
    const siteOf = siteOfHost(sites);
    const site = sites.find((s) => s.root === root) ?? sites.find((s) => s.host === siteOf(hostOf(root)));
    if (!site) throw new FocusCrawlError('USAGE', `${where}: site root ${root} is not in the sites file`);
    if (siteOf(hostOf(url)) !== site.host) throw new FocusCrawlError('USAGE', `${where}: page ${url} is not on the site ${site.root}`);
    // As a site listed twice is: a repeated example is a slip (another page was meant), not a second example.
    const twice = examples.find((e) => e.url === url);
    if (twice) throw new FocusCrawlError('USAGE', `${where}: example ${url} is listed twice (first at line ${twice.where.slice(twice.where.lastIndexOf(':') + 1)})`);
    examples.push({ site, url, where });
  }
  if (!examples.length) throw new FocusCrawlError('USAGE', `${file}: no examples (site_root<TAB>page_url per line)`);
  return examples;
}
