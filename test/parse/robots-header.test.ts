import { test } from 'node:test';
import assert from 'node:assert/strict';
import { robotsHeader } from '../../src/parse/robots-header.js';

const read = (v: string | undefined) => robotsHeader(v, 'focuscrawl');

test('X-Robots-Tag: noindex, nofollow and none, for every crawler or for this one by name', () => {
  assert.deepEqual(read(undefined), { noindex: false, nofollow: false });
  assert.deepEqual(read('noindex'), { noindex: true, nofollow: false });
  assert.deepEqual(read('NoFollow'), { noindex: false, nofollow: true });
  assert.deepEqual(read('none'), { noindex: true, nofollow: true });
  assert.deepEqual(read(' noindex ,  nofollow '), { noindex: true, nofollow: true });
  assert.deepEqual(read('FocusCrawl: noindex'), { noindex: true, nofollow: false });
  assert.deepEqual(read('all'), { noindex: false, nofollow: false });
  assert.deepEqual(read('noarchive, nosnippet, max-snippet: 20'), { noindex: false, nofollow: false });
});

test('X-Robots-Tag: another crawler\'s directives are not ours; a scope ends with its header', () => {
  assert.deepEqual(read('googlebot: noindex, nofollow'), { noindex: false, nofollow: false });
  assert.deepEqual(read('otherbot: none\nnofollow'), { noindex: false, nofollow: true });
  assert.deepEqual(read('googlebot: noindex\nfocuscrawl: nofollow'), { noindex: false, nofollow: true });
  // unavailable_after carries a date with colons: not a user agent, and it does not scope what follows.
  assert.deepEqual(read('unavailable_after: 25 Jun 2010 15:00:00 PST, noindex'), { noindex: true, nofollow: false });
  assert.deepEqual(read('max-image-preview: large, nofollow'), { noindex: false, nofollow: true });
  // RFC 850 dates hold a comma, so a piece of the date ("01-Sep-24 10:00:00 UTC") has a colon of its own.
  assert.deepEqual(read('unavailable_after: Sunday, 01-Sep-24 10:00:00 UTC, noindex'), { noindex: true, nofollow: false });
  assert.deepEqual(read('unavailable_after: Sunday, 01-Sep-24 10:00:00 UTC\nnone'), { noindex: true, nofollow: true });
});
