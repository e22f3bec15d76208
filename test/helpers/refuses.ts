import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FocusCrawlError } from '../../src/errors.js';

/** Asserts `fn` throws a FocusCrawlError for the user (exit code 2) whose one-line message matches. */
export function refuses(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof FocusCrawlError, `a FocusCrawlError, not ${String(err)}`);
    assert.ok(['CONFIG', 'IO', 'USAGE'].includes(err.code), err.code);
    assert.ok(!err.message.includes('\n'), `one line: ${err.message}`);
    assert.match(err.message, message);
    return true;
  });
}

/** Writes `text` to `name` in `dir` and returns its path. */
export function writtenFile(dir: string, name: string, text: string | Buffer): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}
