import { InvalidArgumentError } from 'commander';
import { isProxySetting, regexProblem } from '../config/crawl-config.js';
import { headerProblem } from '../fetch/request-headers.js';
import { parseResolveEntry } from '../fetch/resolve-map.js';

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number >= 0');
  return n;
}

/** A TCP port; 0 (the system picks one) only where `allowZero`. */
export function tcpPort(allowZero: boolean) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n > 65535 || (n === 0 && !allowZero)) throw new InvalidArgumentError(`expected a port, ${allowZero ? 0 : 1} to 65535`);
    return n;
  };
}

/** A number from 0 to 1 (a relevance). */
export function unitNumber(value: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value.trim()) || n > 1) throw new InvalidArgumentError('expected a number from 0 to 1');
  return n;
}

export function regex(value: string, previous: string[] = []): string[] {
  const problem = regexProblem(value);
  if (problem) throw new InvalidArgumentError(`not a valid regular expression: ${problem}`);
  return [...previous, value];
}

/** name=number, repeatable, collected into an object. */
export function keyNumber(value: string, previous: Record<string, number> = {}): Record<string, number> {
  const m = /^([A-Za-z][\w-]*)=(-?\d+(?:\.\d+)?)$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError(`expected name=number, got '${value}'`);
  return { ...previous, [m[1]!]: Number(m[2]) };
}

export function oneOf<T extends string>(choices: readonly T[]) {
  return (value: string): T => {
    if (!(choices as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${choices.join(', ')}`);
    return value as T;
  };
}

/** A proxy URL or 'direct' (crawl-config's `proxy`). */
export function proxySetting(value: string): string {
  if (!isProxySetting(value)) throw new InvalidArgumentError("expected an http://, https:// or socks5:// URL, or 'direct'");
  return value;
}

/** 'Name: value', repeatable, collected into an object with lower-case names (a later one wins). */
/** Collects repeated `--resolve HOST:PORT:ADDR` entries (curl's form). */
export function resolveEntry(value: string, previous: string[] = []): string[] {
  const e = parseResolveEntry(value);
  if (typeof e === 'string') throw new InvalidArgumentError(e);
  return [...previous, value.trim()];
}

export function requestHeader(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const colon = value.indexOf(':');
  if (colon <= 0) throw new InvalidArgumentError(`expected 'Name: value', got '${value}'`);
  const name = value.slice(0, colon).trim();
  const text = value.slice(colon + 1).trim();
  const problem = headerProblem(name, text);
  if (problem) throw new InvalidArgumentError(problem);
  return { ...previous, [name.toLowerCase()]: text };
}
