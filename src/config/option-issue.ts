import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** The first problem zod found in some options, as a message names it: the field's path and what is wrong. */
export interface OptionIssue {
  /** Path segments of the field ('topic', 'keywords'); empty for the options as a whole. */
  path: string[];
  message: string;
  /** The unknown key, when the problem is one. */
  unknownKey?: string;
}

/**
 * The issue a person can act on. A union (`topic`: a file name or a topic inline) that fails
 * reports only "Invalid input": the branch the value was meant for (the one whose type it has)
 * says what is wrong in it. A missing field is said to be missing, not "expected record,
 * received undefined".
 */
export function optionIssue(error: z.ZodError): OptionIssue {
  return describe(error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0]!, []);
}

function describe(issue: Issue, base: string[]): OptionIssue {
  const path = [...base, ...issue.path.map(String)];
  if (issue.code === 'invalid_union' && 'errors' in issue) {
    // A branch whose first issue is about the value's own type was not the branch the value was meant for.
    const meant = issue.errors.find((branch) => branch.length && !(branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0));
    // Within it, an unknown key first: `keyword:` for `keywords:` leaves keywords missing too.
    if (meant) return describe(meant.find((i) => i.code === 'unrecognized_keys') ?? meant[0]!, path);
    // No branch was meant (`topic: 5`): say what the value may be, from the branches' own types.
    const types = issue.errors.map((branch) => branch[0]).filter((i): i is Issue & { expected: string } => i?.code === 'invalid_type' && 'expected' in i);
    const words = [...new Set(types.map((i) => EXPECTED[String(i.expected)] ?? String(i.expected)))];
    const got = /received (\w+)$/.exec(types[0]?.message ?? '')?.[1];
    if (words.length === issue.errors.length) return { path, message: `must be ${words.join(' or ')}${got ? `, not ${RECEIVED[got] ?? got}` : ''}` };
  }
  // A map's key that breaks its rule (`keywords: {"": 3}`): zod says only "Invalid key in record".
  if (issue.code === 'invalid_key' && 'issues' in issue && issue.issues.length) {
    const key = path[path.length - 1] ?? '';
    return { path: path.slice(0, -1), message: `has the key '${key}': ${describe(issue.issues[0]!, []).message}` };
  }
  if (issue.code === 'unrecognized_keys' && issue.keys.length) {
    return { path: [...path, issue.keys[0]!], message: 'unknown', unknownKey: issue.keys[0]! };
  }
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) {
    return { path, message: 'is missing' };
  }
  if (issue.code === 'invalid_type' && 'expected' in issue) {
    const words = EXPECTED[String(issue.expected)];
    const got = /received (\w+)$/.exec(issue.message)?.[1];
    if (words) return { path, message: `must be ${words}${got ? `, not ${got === 'number' && issue.expected === 'int' ? 'a fraction' : RECEIVED[got] ?? got}` : ''}` };
  }
  // zod's own wording only: a schema's message of its own ("is empty: give a file name") stands.
  if (issue.code === 'invalid_value' && issue.values.length && /^Invalid (option|input)/.test(issue.message)) {
    return { path, message: `must be ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map((v) => `'${String(v)}'`).join(', ')}` };
  }
  if ((issue.code === 'too_big' || issue.code === 'too_small') && /^Too (big|small)/.test(issue.message) && typeof (issue.code === 'too_big' ? issue.maximum : issue.minimum) !== 'object') {
    return { path, message: boundWords(issue.code === 'too_big', Number(issue.code === 'too_big' ? issue.maximum : issue.minimum), issue.inclusive !== false, String(issue.origin)) };
  }
  return { path, message: issue.message };
}

/** "must be at most 1", "must not be empty": a bound zod found broken, as a config file's reader says it. */
function boundWords(max: boolean, n: number, inclusive: boolean, origin: string): string {
  if (origin === 'string' || origin === 'array' || origin === 'set') {
    if (!max && n === 1 && inclusive) return 'must not be empty';
    const unit = origin === 'string' ? 'character' : 'item';
    return `must have ${max ? 'at most' : 'at least'} ${n} ${unit}${n === 1 ? '' : 's'}`;
  }
  if (inclusive) return `must be ${max ? 'at most' : 'at least'} ${n}`;
  return `must be ${max ? 'below' : 'above'} ${n}`;
}

/**
 * The keys of the object `schema` holds at `path`, through optional, default and nullable
 * wrappers and through unions (a config's `topic`: a file name or a topic inline); none when it
 * holds no object there.
 */
export function keysAt(schema: z.ZodType, path: readonly string[]): string[] {
  return keysIn(schema, path);
}

type Def = { type?: string; innerType?: unknown; shape?: Record<string, unknown>; options?: unknown[] };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

function keysIn(schema: unknown, path: readonly string[]): string[] {
  let s = schema;
  while (['optional', 'default', 'nullable', 'prefault', 'readonly'].includes(defOf(s)?.type ?? '')) s = defOf(s)!.innerType;
  const def = defOf(s);
  if (def?.type === 'union') {
    for (const option of def.options ?? []) {
      const keys = keysIn(option, path);
      if (keys.length) return keys;
    }
    return [];
  }
  if (def?.type !== 'object' || !def.shape) return [];
  if (!path.length) return Object.keys(def.shape);
  const [key, ...rest] = path;
  return Object.hasOwn(def.shape, key!) ? keysIn(def.shape[key!], rest) : [];
}

/**
 * "did you mean 'maxPages'?" for a key one or two edits away from a known one; else the known
 * keys that hold it whole (`timeoutMs`: 'connectTimeoutMs', 'headersTimeoutMs', ...), at most
 * four; else ''.
 */
export function didYouMean(key: string, known: readonly string[]): string {
  let best: string | null = null;
  // Two edits turn any key of two letters into another ('a' into 'db'): short keys get fewer.
  let bestDistance = key.length <= 1 ? 1 : key.length <= 3 ? 2 : 3;
  for (const k of known) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  if (best !== null) return ` (did you mean '${best}'?)`;
  const holding = key.length >= 4 ? known.filter((k) => k.toLowerCase().includes(key.toLowerCase())) : [];
  if (!holding.length || holding.length > 4) return '';
  const quoted = holding.map((k) => `'${k}'`);
  return ` (did you mean ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`}?)`;
}

/** zod's type names, as a config file's reader says them. */
const EXPECTED: Record<string, string> = { int: 'a whole number', number: 'a number', string: 'text', boolean: 'true or false', array: 'a list', object: 'a map of keys', record: 'a map of keys' };
const RECEIVED: Record<string, string> = { number: 'a number', string: 'text', boolean: 'true or false', array: 'a list', object: 'a map', null: 'empty' };

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_x, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * "crawl option 'maxPage': unknown (did you mean 'maxPages'?)": `what` names the kind of field.
 * `schema` gives the keys of nested maps for the same hint ("positions.titel": 'title').
 */
export function optionMessage(what: string, error: z.ZodError, known: readonly string[] = [], schema?: z.ZodType): string {
  const i = optionIssue(error);
  const keys = i.path.length === 1 ? known : schema ? keysAt(schema, i.path.slice(0, -1)) : [];
  const hint = i.unknownKey !== undefined ? didYouMean(i.unknownKey, keys) : '';
  return `${what} '${i.path.join('.') || '(top level)'}': ${i.message}${hint}`;
}

/** A value a library caller passed, as an error message names it: text quoted, else its kind. */
export function valueShown(x: unknown): string {
  if (typeof x === 'string') return JSON.stringify(x);
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'a list';
  return typeof x === 'object' ? 'an object' : String(x);
}
