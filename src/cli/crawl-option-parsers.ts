import { InvalidArgumentError } from 'commander';
import { isProxySetting, regexProblem } from '../config/crawl-config.js';
import { headerProblem } from '../fetch/request-headers.js';
import { parseResolveEntry } from '../fetch/resolve-map.js';

/** Argument parsers of crawl settings (crawl, resume, worker): checked as the crawl's config checks them. */

export function regex(value: string, previous: string[] = []): string[] {
  const problem = regexProblem(value);
  if (problem) throw new InvalidArgumentError(`not a valid regular expression: ${problem}`);
  return [...previous, value];
}

/** A proxy URL or 'direct' (crawl-config's `proxy`). */
export function proxySetting(value: string): string {
  if (!isProxySetting(value)) throw new InvalidArgumentError("expected an http://, https:// or socks5:// URL, or 'direct'");
  return value;
}

/** Collects repeated `--resolve HOST:PORT:ADDR` entries (curl's form). */
export function resolveEntry(value: string, previous: string[] = []): string[] {
  const e = parseResolveEntry(value);
  if (typeof e === 'string') throw new InvalidArgumentError(e);
  return [...previous, value.trim()];
}

/** 'Name: value', repeatable, collected into an object with lower-case names (a later one wins). */
export function requestHeader(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const colon = value.indexOf(':');
  if (colon <= 0) throw new InvalidArgumentError(`expected 'Name: value', got '${value}'`);
  const name = value.slice(0, colon).trim();
  const text = value.slice(colon + 1).trim();
  const problem = headerProblem(name, text);
  if (problem) throw new InvalidArgumentError(problem);
  return { ...previous, [name.toLowerCase()]: text };
}
