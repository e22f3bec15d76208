import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from 'commander';
import { regex } from '../../src/cli/crawl-option-parsers.js';

test('--allow/--deny: a pattern V8 compiles only when it first runs is compiled when given', () => {
  // new RegExp() accepted it; every URL of the crawl then failed with "Regular expression too large".
  const huge = 'a'.repeat(500_000);
  assert.throws(() => regex(huge), (err: unknown) => err instanceof InvalidArgumentError && err.message === 'not a valid regular expression: Regular expression too large');
  assert.throws(() => regex('('), /not a valid regular expression: Unterminated group/);
  assert.deepEqual(regex('^https://a/', ['x']), ['x', '^https://a/']);
});
