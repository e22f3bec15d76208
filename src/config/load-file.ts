import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, isNode } from 'yaml';
import type { z } from 'zod';
import { FocusCrawlError } from '../errors.js';

/**
 * Reads a YAML or JSON file (JSON is YAML) and validates it against a zod schema.
 * Every error names the file, the line and the field: `topic.yaml:4: keywords.map: expected number`.
 */
export function loadFile<S extends z.ZodType>(file: string, schema: S, what: string): z.output<S> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new FocusCrawlError('IO', `cannot read ${what} file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const line = e.linePos?.[0]?.line ?? lines.linePos(e.pos[0]).line;
    throw new FocusCrawlError('CONFIG', `${file}:${line}: invalid YAML: ${e.message.split('\n')[0]}`);
  }
  const data: unknown = doc.toJS();
  const parsed = schema.safeParse(data ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String);
    // An unknown key is reported at its own line, not at the line of the map holding it.
    const keys = (issue as { keys?: string[] }).keys;
    const linePath = issue.code === 'unrecognized_keys' && keys?.length ? [...path, keys[0]!] : path;
    let line: number | null = null;
    // The deepest node that exists on the path gives the line.
    for (let n = linePath.length; n >= 0 && line === null; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(linePath.slice(0, n), true);
      if (isNode(node) && node.range) line = lines.linePos(node.range[0]).line;
    }
    const where = line !== null ? `${file}:${line}` : file;
    const field = path.length ? path.join('.') : '(top level)';
    throw new FocusCrawlError('CONFIG', `${where}: ${what} field '${field}': ${issue.message}`);
  }
  return parsed.data;
}
