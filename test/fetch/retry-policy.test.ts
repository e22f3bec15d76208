import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTransientStatus, parseRetryAfter, retryDelay } from '../../src/fetch/retry-policy.js';

const policy = { maxRetries: 2, baseDelayMs: 1000, maxRetryAfterMs: 60_000 };

test('backoff doubles until the retries run out', () => {
  assert.equal(retryDelay(policy, 1), 1000);
  assert.equal(retryDelay(policy, 2), 2000);
  assert.equal(retryDelay(policy, 3), null);
});

test('Retry-After wins, unless it is longer than the cap', () => {
  assert.equal(retryDelay(policy, 1, 5000), 5000);
  assert.equal(retryDelay(policy, 1, 120_000), null);
  assert.equal(parseRetryAfter('7'), 7000);
  assert.equal(parseRetryAfter(new Date(10_000 + 3000).toUTCString(), 10_000), 3000);
  assert.equal(parseRetryAfter('soon'), undefined);
});

test('transient statuses', () => {
  for (const s of [408, 429, 500, 502, 503, 504]) assert.equal(isTransientStatus(s), true, String(s));
  for (const s of [200, 301, 400, 403, 404, 410, 501]) assert.equal(isTransientStatus(s), false, String(s));
});
