import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commonErrors, foldedErrorPattern } from '../../src/store/crawl-reader.js';

test('common errors fold the URLs in their texts; a folded text is a LIKE pattern with its own % and _ escaped', () => {
  const rows = [
    { error: 'HTTP 404', n: 2 },
    { error: 'redirect to http://a.test/x_1 not followed: out of scope', n: 1 },
    { error: 'redirect to https://b.test/100%25 not followed: out of scope', n: 1 },
    { error: 'redirect to http://c.test/ not followed: out of scope', n: 1 },
  ];
  assert.deepEqual(commonErrors(rows, 5), [{ error: 'redirect to … not followed: out of scope', n: 3 }, { error: 'HTTP 404', n: 2 }]);
  assert.equal(foldedErrorPattern('redirect to … not followed: out of scope'), 'redirect to % not followed: out of scope');
  assert.equal(foldedErrorPattern('50% done_ at …'), '50\\% done\\_ at %');
  assert.equal(foldedErrorPattern('HTTP 404'), null);
});
