import { LineCounter, parseDocument, isMap, isNode, isScalar } from 'yaml';
import type { z } from 'zod';
import { FocusCrawlError } from '../errors.js';
import { readBounded } from './read-bounded.js';
import { didYouMean, keysAt, optionIssue } from './option-issue.js';

/**
 * Reads a YAML or JSON file (JSON is YAML) and validates it against a zod schema.
 * Every error names the file, the line and the field: `topic.yaml:4: keywords.map: expected number`.
 */
/** `held`, when given, hears the top-level keys the file itself holds (the schema's output has its defaults too). */
export function loadFile<S extends z.ZodType>(file: string, schema: S, what: string, maxBytes = MAX_FILE_BYTES, flagsOnly: Readonly<Record<string, string>> = {}, held?: (keys: string[]) => void): z.output<S> {
  // Read as YAML, a TOML or INI file fails on its first line with words about YAML, or parses as
  // one string; its extension says what it is.
  const other = /\.(toml|ini|cfg|conf|properties|xml)$/i.exec(file)?.[1];
  if (other) throw new FocusCrawlError('CONFIG', `${file}: a ${what} file is YAML (.yaml, .yml) or JSON (.json); .${other.toLowerCase()} files are not read`);
  const read = readBounded(file, maxBytes, what);
  // The YAML parser's time grows with the square of a map's keys (a 10 MB topic did not load in a minute).
  if ('tooLarge' in read) throw new FocusCrawlError('CONFIG', `${file}: ${what} file of ${read.tooLarge} bytes, more than the ${maxBytes} read`);
  const bytes = read.bytes;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new FocusCrawlError('CONFIG', `${file}: ${what} file in UTF-16; save it as UTF-8`);
  }
  // A binary file or a legacy encoding (GBK, Latin-1) said so, not quoted back as garbage in a YAML error.
  if (bytes.includes(0)) throw new FocusCrawlError('CONFIG', `${file}: not a ${what} file (it holds binary data); a ${what} file is YAML or JSON text`);
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new FocusCrawlError('CONFIG', `${file}: ${what} file is not UTF-8 (saved as GBK, Big5 or Latin-1?); save it as UTF-8`);
  }
  // A byte order mark is no content: YAML skips it, JSON.parse would stop at it.
  const text = decoded.replace(/^\uFEFF/, '');
  try {
    return parseFile(file, text, schema, what, flagsOnly, held);
  } catch (err) {
    // Nesting deep enough to overflow the parser's stack is no file a person wrote.
    if (err instanceof RangeError) throw new FocusCrawlError('CONFIG', `${file}: ${what} file nested too deeply to read`);
    throw err;
  }
}

/** A config or topic file's largest size: either is a few KB (a long seed list belongs in --seeds-file). */
export const MAX_FILE_BYTES = 1 << 20;

function parseFile<S extends z.ZodType>(file: string, text: string, schema: S, what: string, flagsOnly: Readonly<Record<string, string>>, held?: (keys: string[]) => void): z.output<S> {
  const lines = new LineCounter();
  // JSON is YAML, but YAML forgives what JSON does not (a trailing comma): a .json file is held to JSON.
  if (/\.json$/i.test(file)) checkJson(file, text);
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    // The parser reports its own stack overflow as a syntax error at the first line.
    if (/Maximum call stack size exceeded/.test(e.message)) throw new RangeError(e.message);
    // A .json file was held to JSON above, but JSON.parse lets a later key win; YAML's words would puzzle.
    if (e.code === 'DUPLICATE_KEY' && /\.json$/i.test(file)) {
      const key = /^"((?:[^"\\]|\\.)*)"/.exec(text.slice(e.pos[0]))?.[1];
      throw new FocusCrawlError('CONFIG', `${file}:${lines.linePos(e.pos[0]).line}: invalid JSON: duplicate key${key !== undefined ? ` '${key}'` : ''}`);
    }
    // The parser's words name its own API ("please use YAML.parseAllDocuments()").
    if (e.code === 'MULTIPLE_DOCS') throw new FocusCrawlError('CONFIG', `${file}:${lines.linePos(e.pos[0]).line}: a second YAML document starts here ('---'); a ${what} file is one document`);
    throw new FocusCrawlError('CONFIG', `${file}:${lines.linePos(errorOffset(text, e.pos[0])).line}: invalid YAML: ${e.message.split('\n')[0]}`);
  }
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (err) {
    // Aliases of aliases expand exponentially ("billion laughs"): the parser stops at its alias budget.
    if (err instanceof ReferenceError && /alias/i.test(err.message)) {
      throw new FocusCrawlError('CONFIG', `${file}: too many YAML aliases (a few anchors repeated over and over: their expansion would exhaust memory)`);
    }
    throw err;
  }
  // A file of one word or a list parses as YAML too: it holds no `key: value` lines at all.
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data))) {
    throw new FocusCrawlError('CONFIG', `${file}: a ${what} file holds \`key: value\` lines (YAML) or one JSON object; this one is ${Array.isArray(data) ? 'a list' : `the single value '${String(data).slice(0, 40)}'`}`);
  }
  held?.(Object.keys(data ?? {}));
  const parsed = schema.safeParse(data ?? {});
  if (!parsed.success) {
    // An unknown key first: `keyword:` for `keywords:` also leaves `keywords` missing, and the
    // unknown key is what explains it.
    const issue = parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0]!;
    // An inline topic's fault is named inside it, not as the union's "Invalid input".
    const found = issue.code === 'unrecognized_keys' ? { path: issue.path.map(String), message: issue.message } : optionIssue(parsed.error);
    const { path } = found;
    let { message } = found;
    // An unknown key is reported at its own line, not at the line of the map holding it.
    const keys = (issue as { keys?: string[] }).keys;
    // `maxPage`, or `max-pages` for maxPages: the top level's keys are the schema's.
    const shape = (schema as { shape?: Record<string, unknown> }).shape;
    const camel = (k: string) => k.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    const flag = issue.code === 'unrecognized_keys' && path.length === 0 ? keys?.find((k) => Object.hasOwn(flagsOnly, camel(k))) : undefined;
    // The unknown key is the field named, as one inside an inline topic is (optionIssue).
    const unknownKey = issue.code === 'unrecognized_keys' && keys?.length ? (flag ?? keys[0]!) : undefined;
    if (flag !== undefined) message = `given on the command line only (${flagsOnly[camel(flag)]}), not in a ${what} file`;
    else if (unknownKey !== undefined) {
      message = 'unknown';
      if (path.length === 0 && shape) message += didYouMean(camel(unknownKey), Object.keys(shape));
      else if (path.length > 0) message += didYouMean(unknownKey, keysAt(schema, path));
      const others = keys!.filter((k) => k !== unknownKey);
      if (others.length) message += `; also unknown: ${others.slice(0, 5).join(', ')}${others.length > 5 ? ', …' : ''}`;
    }
    const linePath = unknownKey !== undefined ? [...path, unknownKey] : path;
    let line: number | null = null;
    // An unknown key's own line (here, or inside an inline topic): its value may start on the next one.
    const unknown = issue.code === 'unrecognized_keys' && keys?.length ? linePath : 'unknownKey' in found && found.unknownKey !== undefined ? path : null;
    if (unknown?.length) {
      const parent = unknown.slice(0, -1);
      const map = parent.length ? doc.getIn(parent, true) : doc.contents;
      const pair = isMap(map) ? map.items.find((p) => isScalar(p.key) && String(p.key.value) === unknown[unknown.length - 1]) : undefined;
      const key = pair?.key;
      if (isNode(key) && key.range) line = lines.linePos(key.range[0]).line;
    }
    // Else the deepest node that exists on the path gives the line.
    for (let n = linePath.length; n >= 0 && line === null; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(linePath.slice(0, n), true);
      if (isNode(node) && node.range) line = lines.linePos(node.range[0]).line;
    }
    const where = line !== null ? `${file}:${line}` : file;
    const field = unknownKey !== undefined ? linePath.join('.') : path.length ? path.join('.') : '(top level)';
    throw new FocusCrawlError('CONFIG', `${where}: ${what} field '${field}': ${message}`);
  }
  return parsed.data;
}

/**
 * Where to report a parse error: the parser reports an unclosed bracket or quote at the end of
 * the input, which after the final newline is a line past the last one; the last character
 * before it is where the reader should look.
 */
function errorOffset(text: string, pos: number): number {
  if (pos < text.trimEnd().length) return pos;
  return Math.max(0, text.trimEnd().length - 1);
}

/**
 * Where `char` first stands outside a JSON string: V8 names an unexpected token ('#' of a YAML
 * comment) without its position, and the first one outside strings is the one it stopped at.
 */
function firstOutsideStrings(text: string, char: string): number {
  const strings = /"(?:[^"\\]|\\.)*"/g;
  let from = 0;
  for (let m = strings.exec(text); ; m = strings.exec(text)) {
    const end = m ? m.index : text.length;
    const at = text.indexOf(char, from);
    if (at >= 0 && at < end) return at;
    if (!m) return errorOffset(text, text.length);
    from = m.index + m[0].length;
  }
}

/** Throws a CONFIG error naming the line of the first JSON syntax error, trailing commas included. */
function checkJson(file: string, text: string): void {
  const fail = (at: number, what: string): never => {
    throw new FocusCrawlError('CONFIG', `${file}:${text.slice(0, at).split('\n').length}: invalid JSON: ${what}`);
  };
  // Outside strings, a comma followed only by white space and a closing bracket.
  const trailing = /"(?:[^"\\]|\\.)*"|(,)\s*[}\]]/g;
  for (let m = trailing.exec(text); m; m = trailing.exec(text)) if (m[1]) fail(m.index, 'trailing comma');
  try {
    JSON.parse(text);
  } catch (err) {
    const msg = (err as Error).message;
    const at = /at position (\d+)/.exec(msg);
    // V8 quotes the whole input in some messages: keep the description only.
    const what = msg.replace(/, ".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
    const token = /^Unexpected token '(.)'/su.exec(msg);
    fail(at ? errorOffset(text, Number(at[1])) : token ? firstOutsideStrings(text, token[1]!) : errorOffset(text, text.length), what);
  }
}
