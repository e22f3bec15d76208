import { readFileSync } from 'node:fs';
import { FocusCrawlError, fileError } from '../errors.js';
import { normalizeUrl } from '../parse/normalize-url.js';
import { notTextLine, quotedSeed, seedProblem } from '../config/seeds.js';

/** A ground-truth list: the pages a benchmark counts as relevant, normalised as the crawl normalises URLs. */
export interface TruthList {
  file: string;
  urls: string[];
}

/**
 * Reads `--truth FILE` (or bench run's `--labels`, named by `flag`): one http(s) URL a line; blank lines and lines starting with # are skipped.
 * A line that is not a URL is an error naming the file and line, not a silent miss in the recall.
 */
export function loadTruth(file: string, flag = '--truth'): TruthList {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new FocusCrawlError('IO', `${flag}: cannot read ${file}: ${fileError(err)}`);
  }
  const urls = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    if (notTextLine(line)) throw new FocusCrawlError('USAGE', `${flag} ${file}:${i + 1}: bytes that are not UTF-8 text; save the file as UTF-8, one URL a line`);
    // A seed's rule: "URL relevant", "URL<TAB>1", "URL # note" read as one URL were pages never found.
    const problem = seedProblem(line);
    const url = problem === null ? normalizeUrl(line) : null;
    if (url === null) throw new FocusCrawlError('USAGE', `${flag} ${file}:${i + 1}: ${quotedSeed(line.slice(0, 80))} ${problem ?? 'is not an http(s) URL'}`);
    urls.add(url);
  });
  if (!urls.size) throw new FocusCrawlError('USAGE', `${flag} ${file} holds no URLs`);
  return { file, urls: [...urls] };
}
