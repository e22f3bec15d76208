import { FocusCrawlError } from '../errors.js';
import { isHttpUrl } from '../parse/normalize-url.js';
import { readBounded } from './read-bounded.js';

/**
 * A line of a URL list that is not text: a byte that is not UTF-8 (read as U+FFFD) or a control
 * character, as in a binary file given by mistake; the line is not echoed, it is no one's URL.
 */
export function notTextLine(line: string): boolean {
  // eslint-disable-next-line no-control-regex
  return line.includes('\uFFFD') || /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(line);
}

/**
 * Why `s` is not a seed URL, or null: one check for seeds given as arguments, in --seeds-file and
 * in a config file. A space is refused: two URLs on one line would become one URL with %20 in it;
 * a line break would be dropped by the URL parser, joining two URLs silently.
 */
export function seedProblem(s: string): string | null {
  if (/[\r\n]/.test(s)) return 'has a line break in it (one URL a seed)';
  if (!isHttpUrl(s)) return 'is not an http(s) URL';
  if (/\s/.test(s)) return 'has a space in it (one URL a line; write a space in a URL as %20)';
  return null;
}

/** A seed as a message quotes it: on one line, and not the whole of a very long one. */
export function quotedSeed(s: string): string {
  const line = s.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `'${line.length > 200 ? `${line.slice(0, 200)}…` : line}'`;
}

/** A seeds file's largest size: 100,000 seeds are about 5 MB; 100 MB is a million long URLs. */
export const MAX_SEEDS_FILE_BYTES = 100 * 1024 * 1024;

/** Seed URLs from a file: one per line; blank lines and lines starting with # are skipped. */
export function readSeedsFile(file: string, maxBytes = MAX_SEEDS_FILE_BYTES): string[] {
  const read = readBounded(file, maxBytes, 'seeds');
  if ('tooLarge' in read) {
    throw new FocusCrawlError('USAGE', `${file}: seeds file of ${read.tooLarge} bytes, more than the ${maxBytes} read (${Math.round(maxBytes / 1024 / 1024)} MB)`);
  }
  const bytes = read.bytes;
  // Read as UTF-8, a UTF-16 file (with or without its byte order mark) has a NUL beside every
  // ASCII character, and every line would be "not an http(s) URL".
  const bom = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (bom || (bytes.length >= 2 && (bytes[0] === 0 || bytes[1] === 0))) throw new FocusCrawlError('USAGE', `${file}: seeds file in UTF-16; save it as UTF-8`);
  const seeds: string[] = [];
  bytes.toString('utf8').replace(/^\uFEFF/, '').split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    // A byte that is not UTF-8 (a Latin-1 "café") would become U+FFFD and a seed of another URL.
    if (notTextLine(line)) throw new FocusCrawlError('USAGE', `${file}:${i + 1}: bytes that are not UTF-8 text; save the seeds file as UTF-8`);
    const problem = seedProblem(line);
    if (problem) throw new FocusCrawlError('USAGE', `${file}:${i + 1}: '${line}' ${problem}`);
    seeds.push(line);
  });
  if (!seeds.length) throw new FocusCrawlError('USAGE', `seeds file ${file} holds no seed URL (one http(s) URL a line; blank lines and lines starting with # are skipped)`);
  return seeds;
}
