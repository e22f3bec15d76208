import { InvalidArgumentError } from 'commander';

/** Argument parsers of every command; those of crawl settings, which load the crawl's config, are in crawl-option-parsers.ts. */

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
