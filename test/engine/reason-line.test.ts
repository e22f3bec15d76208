import { test } from 'node:test';
import assert from 'node:assert/strict';
import { internalErrorLine, reasonLine } from '../../src/errors.js';

test('a reason kept in the crawl log is one line of at most 500 characters', () => {
  const ssl = 'robots.txt unreachable (ERR_SSL_WRONG_VERSION_NUMBER: 809C:error:0A00010B:SSL routines::wrong version number:ssl3_record.c:350:\n) (after 3 attempts)';
  assert.equal(reasonLine(ssl), 'robots.txt unreachable (ERR_SSL_WRONG_VERSION_NUMBER: 809C:error:0A00010B:SSL routines::wrong version number:ssl3_record.c:350: ) (after 3 attempts)');
  assert.equal(reasonLine('a'.repeat(300) + 'b'.repeat(300)), `${'a'.repeat(250)}…${'b'.repeat(250)}`, 'the start and the end are kept');
});

test('an internal error is named with its message and the frame that threw, on one line', () => {
  const err = new RangeError('Maximum call stack size exceeded');
  err.stack = 'RangeError: Maximum call stack size exceeded\n    at #sitemapLinks (file:///x/adaptive.js:226:29)\n    at scoreLinks (file:///x/adaptive.js:100:1)';
  assert.equal(internalErrorLine(err), 'RangeError: Maximum call stack size exceeded (at #sitemapLinks (file:///x/adaptive.js:226:29))');
  assert.equal(internalErrorLine('plain\nstring'), 'plain string');
});
