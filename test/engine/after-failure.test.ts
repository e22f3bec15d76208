import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterFailure, hostsToEnd } from '../../src/engine/after-failure.js';
import { FetchError } from '../../src/fetch/fetcher.js';
import { HostHealth } from '../../src/fetch/host-health.js';
import type { CrawlRequest } from '../../src/types.js';

const T = 1_000_000;
const retry = { maxRetries: 2, baseDelayMs: 1000, maxRetryAfterMs: 60_000 };
const req = (attempts: number, host = 'a.test'): CrawlRequest => ({ key: '0000000000000001', id: 1, url: `http://${host}/p`, host, depth: 1, parent: null, anchor: '', priority: 0, data: null, attempts });
const refused = new FetchError('http://a.test/p', 'ECONNREFUSED', { transient: true, network: 'no-answer' });
const health = () => new HostHealth({ maxFailures: 3, downMs: 300_000, backoffBaseMs: 1000 });

test('a stopped crawl releases the URL at once; an unreachable host holds it until its pause ends', () => {
  assert.deepEqual(afterFailure(req(1), refused, T, { stopped: true, health: null, retry }), { step: 'release', notBefore: T });
  const h = health();
  for (const p of ['/1', '/2', '/3']) h.failed('a.test', `http://a.test${p}`, 'ECONNREFUSED', false, T);
  assert.deepEqual(afterFailure(req(2), refused, T, { stopped: false, health: h, retry }), { step: 'release', notBefore: T + 300_000 });
});

test('retries wait for the later of the URL\'s backoff and the host\'s', () => {
  assert.deepEqual(afterFailure(req(0), refused, T, { stopped: false, health: null, retry }), { step: 'retry', notBefore: T + 1000 });
  assert.deepEqual(afterFailure(req(1), refused, T, { stopped: false, health: null, retry }), { step: 'retry', notBefore: T + 2000 });
  const h = health();
  // Four failures of the host in a row, each after the last one's backoff (two answered, so it
  // is not unreachable): its backoff is 8 s from the last.
  const at = T - 7000;
  h.failed('a.test', 'http://a.test/1', 'slow', true, at);
  h.failed('a.test', 'http://a.test/2', 'slow', true, at + 1000);
  h.failed('a.test', 'http://a.test/3', 'ECONNREFUSED', false, at + 3000);
  h.failed('a.test', 'http://a.test/4', 'ECONNREFUSED', false, T);
  assert.deepEqual(afterFailure(req(0), refused, T, { stopped: false, health: h, retry }), { step: 'retry', notBefore: T + 8000 });
  const retryAfter = new FetchError('x', 'HTTP 503', { transient: true, status: 503, retryAfterMs: 30_000 });
  assert.deepEqual(afterFailure(req(0, 'b.test'), retryAfter, T, { stopped: false, health: h, retry }), { step: 'retry', notBefore: T + 30_000 });
});

test('out of attempts, or not worth another: an error with the reason', () => {
  assert.deepEqual(afterFailure(req(2), refused, T, { stopped: false, health: null, retry }), { step: 'error', reason: 'ECONNREFUSED (after 3 attempts)' });
  const loop = new FetchError('x', 'redirect loop at http://a.test/p', { transient: false, status: 301 });
  assert.deepEqual(afterFailure(req(0), loop, T, { stopped: false, health: null, retry }), { step: 'error', reason: 'redirect loop at http://a.test/p' });
  // A Retry-After past what a retry waits: the URL fails at once and says why (the host is paused apart from it).
  const hour = new FetchError('x', 'HTTP 429', { transient: true, status: 429, retryAfterMs: 3_600_000 });
  assert.deepEqual(afterFailure(req(0), hour, T, { stopped: false, health: null, retry }), { step: 'error', reason: 'HTTP 429 (Retry-After 3600 s, longer than the 60 s a retry waits)' });
  assert.deepEqual(afterFailure(req(2), hour, T, { stopped: false, health: null, retry }), { step: 'error', reason: 'HTTP 429 (after 3 attempts)' }, 'out of retries: that is the reason');
});

test('hostsToEnd: only when no other host can be contacted before the unreachable hosts\' pause ends', () => {
  const h = health();
  assert.deepEqual(hostsToEnd(h, null, T), [], 'no host is unreachable');
  for (const p of ['/1', '/2', '/3']) h.failed('d.test', `http://d.test${p}`, 'ECONNREFUSED', false, T);
  const reason = 'host unreachable: ECONNREFUSED (3 failures in a row)';
  assert.deepEqual(hostsToEnd(h, T + 1000, T), [], 'a live host is ready in a second: the dead host\'s URLs wait');
  assert.deepEqual(hostsToEnd(h, null, T).map((d) => [d.host, d.reason]), [['d.test', reason]], 'nothing else can ever be ready');
  assert.deepEqual(hostsToEnd(h, T + 300_000, T).map((d) => d.host), ['d.test'], 'the next thing to happen is the dead host\'s trial');
  assert.deepEqual(hostsToEnd(h, null, T + 300_000), [], 'its pause is over: a trial, not an end');
});
