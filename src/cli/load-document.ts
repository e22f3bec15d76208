import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FocusCrawlError, fileError } from '../errors.js';
import { decodeHtml } from '../fetch/decode-body.js';
import type { Fetcher } from '../fetch/fetcher.js';
import { parseHtml, type ParseOptions } from '../parse/html-page.js';
import type { Page } from '../types.js';

const isUrl = (ref: string) => /^https?:\/\//i.test(ref);

/**
 * Reads one page for the tools that score or learn from pages: an http(s) URL (fetched, robots.txt
 * not consulted: the user asked for this one page) or an HTML file. `pageUrl` gives a file the URL
 * its relative links resolve against.
 */
export async function loadPage(ref: string, fetcher: Fetcher, opts: { pageUrl?: string; parse?: ParseOptions } = {}): Promise<Page> {
  if (isUrl(ref)) {
    const res = await fetcher.fetch(ref).catch((err: Error) => {
      throw new FocusCrawlError('IO', `cannot fetch ${ref}: ${err.message}`);
    });
    if (res.status >= 400) throw new FocusCrawlError('IO', `cannot fetch ${ref}: HTTP ${res.status}`);
    if (!res.body) throw new FocusCrawlError('IO', `${ref} is not HTML (${res.contentType || 'no content type'})`);
    const { html, encoding } = decodeHtml(res.body, res.contentType);
    return parseHtml(html, res.finalUrl, encoding, opts.parse);
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(ref);
  } catch (err) {
    // `127.0.0.1:8080/p.html` or `example.org/docs/`: a URL without its scheme, read as a file name.
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    const urlLike = missing && /^(?:(?:[a-z0-9-]+\.)+[a-z0-9-]+|localhost)(?::\d+\/?|(?::\d+)?\/)/i.test(ref);
    // `ftp://host/` or `file:///p.html`: a URL of a scheme the tools do not fetch, not a file name.
    const scheme = missing && !urlLike ? /^([a-z][a-z0-9+.-]+):(?!\d)/i.exec(ref)?.[1] : undefined;
    if (scheme) throw new FocusCrawlError('USAGE', `${ref}: ${scheme}: URLs are not read; give ${scheme.toLowerCase() === 'file' ? 'the file\'s path' : 'an http(s) URL or a file'}`);
    throw new FocusCrawlError('IO', `cannot read ${ref}: ${fileError(err)}${urlLike ? ` (for a URL, write http://${ref})` : ''}`);
  }
  // HTML never holds a NUL byte unless it is UTF-16, which starts with its byte order mark.
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (!utf16 && bytes.subarray(0, 8192).includes(0)) throw new FocusCrawlError('USAGE', `${ref} is not an HTML file (it holds binary data)`);
  // As a URL answered with application/json is refused, so is a .json file that holds JSON.
  if (/\.json$/i.test(ref) && /^\s*[[{]/.test(bytes.subarray(0, 64).toString('utf8'))) throw new FocusCrawlError('USAGE', `${ref} is not an HTML file (it holds JSON)`);
  const { html, encoding } = decodeHtml(bytes, '');
  if (opts.pageUrl) return parseHtml(html, opts.pageUrl, encoding, opts.parse);
  // A file: URL makes no link of the page (links are http(s)), and with them its anchor words
  // would be lost: links resolve against a placeholder origin, the page keeps its file's URL.
  const page = parseHtml(html, FILE_LINKS_BASE, encoding, opts.parse);
  return { ...page, url: pathToFileURL(resolve(ref)).href };
}

/** The origin the links of an HTML file given without --url resolve against (`.invalid` is reserved: never a real host). */
export const PLACEHOLDER_ORIGIN = 'http://relative.invalid';
const FILE_LINKS_BASE = `${PLACEHOLDER_ORIGIN}/`;

/** Expands arguments into page references: a folder stands for the .html/.htm files in it. */
export function expandRefs(args: string[]): string[] {
  return args.flatMap((a) => {
    if (isUrl(a)) return [a];
    try {
      if (statSync(a).isDirectory()) {
        return readdirSync(a).filter((f) => /\.html?$/i.test(f)).sort().map((f) => join(a, f));
      }
    } catch {
      /* loadPage names the missing file */
    }
    return [a];
  });
}
