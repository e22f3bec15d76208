import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostHealth, madeNoRequest, trackHealth } from '../../src/fetch/host-health.js';
import { FetchError, type Fetcher } from '../../src/fetch/fetcher.js';
import type { FetchResult } from '../../src/types.js';

const T = 1_000_000;
const opts = { maxFailures: 3, downMs: 300_000, maxDownMs: 1_000_000, backoffBaseMs: 1000, maxBackoffMs: 60_000 };
const REFUSED = 'connection refused [ECONNREFUSED 127.0.0.2:9]';

test('three different URLs failing without an answer make a host unreachable for downMs', () => {
  const h = new HostHealth(opts);
  h.failed('d.test', 'http://d.test/1', REFUSED, false, T);
  h.failed('d.test', 'http://d.test/2', REFUSED, false, T + 10);
  assert.equal(h.unreachable('d.test', T + 10), null);
  h.failed('d.test', 'http://d.test/3', REFUSED, false, T + 20);
  assert.deepEqual(h.unreachable('d.test', T + 20), { until: T + 20 + 300_000, reason: `host unreachable: ${REFUSED} (3 failures in a row)` });
  assert.deepEqual(h.unreachableHosts(T + 20).map((d) => d.host), ['d.test']);
  assert.equal(h.retryAt('d.test', T + 20), T + 300_020);
  assert.equal(h.unreachable('other.test', T + 20), null);
});

test('retries of one hanging URL alone never mark its host; robots.txt counts every time', () => {
  const h = new HostHealth(opts);
  for (let i = 0; i < 5; i++) h.failed('a.test', 'http://a.test/hang', 'UND_ERR_HEADERS_TIMEOUT', false, T + i);
  assert.equal(h.unreachable('a.test', T + 5), null);
  for (let i = 0; i < 3; i++) h.failed('r.test', 'http://r.test/robots.txt', REFUSED, false, T + i);
  assert.ok(h.unreachable('r.test', T + 3));
});

test('once a second URL fails silently too, retries count: two hanging URLs and one retry mark the host', () => {
  const h = new HostHealth(opts);
  h.failed('s.test', 'http://s.test/wms', 'UND_ERR_HEADERS_TIMEOUT', false, T);
  h.failed('s.test', 'http://s.test/wfs', 'UND_ERR_HEADERS_TIMEOUT', false, T);
  assert.equal(h.unreachable('s.test', T), null);
  h.failed('s.test', 'http://s.test/wms', 'UND_ERR_HEADERS_TIMEOUT', false, T + 17_000);
  assert.deepEqual(h.unreachable('s.test', T + 17_000), { until: T + 17_000 + 300_000, reason: 'host unreachable: UND_ERR_HEADERS_TIMEOUT (3 failures in a row)' });
  // One URL's retries, then a first failure of another, with no answer between them.
  const g = new HostHealth(opts);
  for (let i = 0; i < 3; i++) g.failed('g.test', 'http://g.test/hang', 'UND_ERR_HEADERS_TIMEOUT', false, T + i);
  assert.equal(g.unreachable('g.test', T + 3), null);
  g.failed('g.test', 'http://g.test/other', 'UND_ERR_HEADERS_TIMEOUT', false, T + 4);
  assert.ok(g.unreachable('g.test', T + 4));
  // An answer between them starts the count again.
  const a = new HostHealth(opts);
  a.failed('a.test', 'http://a.test/1', REFUSED, false, T);
  a.failed('a.test', 'http://a.test/2', REFUSED, false, T);
  a.answered('a.test', T);
  a.failed('a.test', 'http://a.test/1', REFUSED, false, T + 1);
  a.failed('a.test', 'http://a.test/1', REFUSED, false, T + 2);
  assert.equal(a.unreachable('a.test', T + 2), null);
});

test('a host that has served a page needs three different URLs failing in a row: two hanging pages and their retries leave it alive', () => {
  const h = new HostHealth(opts);
  h.answered('live.test', T, false); // robots.txt alone is no page
  h.answered('live.test', T);
  for (let i = 0; i < 3; i++) {
    h.failed('live.test', 'http://live.test/hang1', 'UND_ERR_HEADERS_TIMEOUT', false, T + i * 17_000);
    h.failed('live.test', 'http://live.test/hang2', 'UND_ERR_HEADERS_TIMEOUT', false, T + i * 17_000);
  }
  assert.equal(h.unreachable('live.test', T + 60_000), null);
  // A third URL failing too: the host is down after all.
  h.failed('live.test', 'http://live.test/3', REFUSED, false, T + 61_000);
  assert.deepEqual(h.unreachable('live.test', T + 61_000), { until: T + 61_000 + 300_000, reason: `host unreachable: ${REFUSED} (7 failures in a row)` });
  // Its robots.txt still counts every time.
  const r = new HostHealth(opts);
  r.answered('r.test', T);
  for (let i = 0; i < 2; i++) r.failed('r.test', 'http://r.test/robots.txt', REFUSED, false, T + i);
  assert.ok(r.unreachable('r.test', T + 2));
});

test("an unreachable host's reason keeps the failures that marked it when a failed body restarts the count", () => {
  const h = new HostHealth(opts);
  for (const u of ['1', '2', '3']) h.failed('d.test', `http://d.test/${u}`, REFUSED, false, T);
  h.failed('d.test', 'http://d.test/4', 'connection closed mid-body', true, T + 10);
  assert.equal(h.unreachable('d.test', T + 10)?.reason, `host unreachable: ${REFUSED} (3 failures in a row)`);
});

test('an answer forgets the failures; a failed body resets the count but still backs the host off', () => {
  const h = new HostHealth(opts);
  h.failed('a.test', 'http://a.test/1', REFUSED, false, T);
  h.failed('a.test', 'http://a.test/2', REFUSED, false, T);
  h.answered('a.test', T);
  h.failed('a.test', 'http://a.test/3', REFUSED, false, T);
  assert.equal(h.unreachable('a.test', T), null);
  assert.equal(h.retryAt('a.test', T), T + 1000, 'first failure in a row: 1 s');
  // Each failure after the last one's backoff is a strike more: 1, 2, 4, 8 s.
  h.failed('a.test', 'http://a.test/4', 'transfer slower than 500 bytes/s', true, T + 1000);
  h.failed('a.test', 'http://a.test/5', REFUSED, false, T + 3000);
  h.failed('a.test', 'http://a.test/6', REFUSED, false, T + 7000);
  assert.equal(h.unreachable('a.test', T + 7000), null, 'the slow body was an answer: two silent failures since');
  assert.equal(h.retryAt('a.test', T + 7000), T + 7000 + 8000, 'fourth failure in a row: 8 s');
  let at = T + 15_000;
  for (let i = 7; i < 20; i++, at += 60_000) h.failed('a.test', `http://a.test/${i}`, 'slow', true, at);
  assert.equal(h.retryAt('a.test', at - 60_000), at - 60_000 + 60_000, 'capped');
  h.answered('a.test', at);
  assert.equal(h.retryAt('a.test', at), 0);
});

test('failures of requests in flight together are one strike: four pages failing at once back their host off 1 s, not 8', () => {
  const h = new HostHealth(opts);
  for (let i = 0; i < 4; i++) h.failed('b.test', `http://b.test/${i}`, 'connection closed mid-body', true, T + i * 10);
  assert.equal(h.retryAt('b.test', T + 30), T + 30 + 1000);
  // The next ones, started after that backoff, are the next strike.
  for (let i = 4; i < 8; i++) h.failed('b.test', `http://b.test/${i}`, 'connection closed mid-body', true, T + 2000 + i);
  assert.equal(h.retryAt('b.test', T + 2007), T + 2007 + 2000);
  // 503s answered together alike.
  const t = new HostHealth(opts);
  for (let i = 0; i < 4; i++) t.throttled('t.test', T + i, undefined);
  assert.equal(t.heldUntil('t.test', T + 3), T + 3 + 1000);
});

test('after its pause a host gets a trial: one more failure marks it for twice as long, up to maxDownMs', () => {
  const h = new HostHealth(opts);
  for (const u of ['1', '2', '3']) h.failed('d.test', `http://d.test/${u}`, REFUSED, false, T);
  const end1 = T + 300_000;
  h.failed('d.test', 'http://d.test/4', REFUSED, false, T + 1000);
  assert.equal(h.unreachable('d.test', T + 1000)?.until, end1, 'a straggler does not extend the pause');
  assert.equal(h.unreachable('d.test', end1), null, 'the pause is over: the next request is a trial');
  h.failed('d.test', 'http://d.test/5', REFUSED, false, end1 + 5);
  assert.equal(h.unreachable('d.test', end1 + 5)?.until, end1 + 5 + 600_000);
  h.failed('d.test', 'http://d.test/6', REFUSED, false, end1 + 700_000);
  assert.equal(h.unreachable('d.test', end1 + 700_000)?.until, end1 + 700_000 + 1_000_000, 'capped at maxDownMs');
});

test('errors that made no request are known by their reason', () => {
  assert.equal(madeNoRequest(`host unreachable: ${REFUSED} (3 failures in a row)`), true);
  assert.equal(madeNoRequest('robots.txt unreachable (HTTP 503) (after 3 attempts)'), true);
  assert.equal(madeNoRequest('connection refused [ECONNREFUSED 127.0.0.2:9] (after 3 attempts)'), false);
  assert.equal(madeNoRequest('HTTP 404'), false);
});

test('trackHealth: answers, failures without an answer, failed bodies; an aborted request says nothing', async () => {
  const outcomes = new Map<string, () => FetchResult>([
    ['http://a.test/ok', () => ({ url: '', finalUrl: '', status: 503, headers: {}, redirects: [], contentType: '', body: null, bytes: 0, fetchMs: 0 })],
    ['http://a.test/refused', () => { throw new FetchError('x', REFUSED, { transient: true, network: 'no-answer' }); }],
    // A minute's Retry-After: longer than any stall of the machine between the requests below.
    ['http://a.test/503', () => { throw new FetchError('x', 'HTTP 503', { transient: true, status: 503, retryAfterMs: 60_000 }); }],
    ['http://a.test/404', () => { throw new FetchError('x', 'HTTP 404', { transient: false, status: 404 }); }],
  ]);
  const inner: Fetcher = { fetch: async (url) => outcomes.get(url)!(), close: async () => {} };
  const h = new HostHealth(opts);
  const f = trackHealth(inner, h);
  await assert.rejects(f.fetch('http://a.test/refused'));
  assert.ok(h.retryAt('a.test', T) > 0);
  await assert.rejects(f.fetch('http://a.test/404'));
  assert.equal(h.retryAt('a.test', T), 0, 'an HTTP error is an answer');
  await assert.rejects(f.fetch('http://a.test/refused', { signal: AbortSignal.abort() }));
  assert.equal(h.retryAt('a.test', T), 0, 'aborted by the caller: not recorded');
  await f.fetch('http://a.test/ok');
  assert.equal(h.retryAt('a.test', T), 0);
  const held = new HostHealth(opts);
  const g = trackHealth(inner, held);
  const asked = Date.now();
  await assert.rejects(g.fetch('http://a.test/503'));
  assert.ok(held.heldUntil('a.test', asked) !== null, 'a 503 asks the host to be left alone a while');
  await g.fetch('http://a.test/ok');
  assert.ok(held.heldUntil('a.test', asked) !== null, 'another request\'s answer in the meantime does not end the pause');
});

test('429 and 503 pause the whole host: for the Retry-After up to maxBackoffMs, else a backoff that doubles while they go on', () => {
  const h = new HostHealth(opts);
  h.throttled('a.test', T, 5_000);
  assert.equal(h.heldUntil('a.test', T), T + 5_000);
  assert.equal(h.heldUntil('a.test', T + 5_000), null, 'over once the time asked for has passed');
  h.throttled('a.test', T, 3_600_000);
  assert.equal(h.heldUntil('a.test', T + 1), T + 60_000, 'an hour asked for is a minute at a time');
  const b = new HostHealth(opts);
  const pauses = [0, 1, 2, 3].map((i) => {
    const at = T + i * 100_000;
    b.throttled('b.test', at, undefined);
    return b.heldUntil('b.test', at)! - at;
  });
  assert.deepEqual(pauses, [1000, 2000, 4000, 8000], 'no Retry-After: the backoff of the answers in a row');
  assert.equal(b.unreachable('b.test', T + 400_000), null, 'an answering host is never unreachable');
  b.answered('b.test', T + 300_000);
  assert.equal(b.heldUntil('b.test', T + 300_000), T + 308_000, 'an answer keeps the pause asked for');
  assert.equal(b.size, 1);
  assert.equal(b.heldUntil('b.test', T + 400_000), null);
  b.throttled('b.test', T + 400_000, undefined);
  assert.equal(b.heldUntil('b.test', T + 400_000), T + 401_000, 'but forgets the strikes: the backoff starts again');
  // pausedUntil: whichever holds the host, a pause asked for or an unreachable period, the later.
  assert.equal(b.pausedUntil('b.test', T + 400_000), T + 401_000);
  for (const p of ['/1', '/2', '/3']) b.failed('b.test', `http://b.test${p}`, 'ECONNREFUSED', false, T + 400_000);
  assert.equal(b.pausedUntil('b.test', T + 400_500), T + 700_000);
  assert.equal(b.pausedUntil('b.test', T + 800_000), null);
  // An answer once the pause is over forgets the host: a crawl of many hosts keeps none of those that once asked for one.
  b.answered('b.test', T + 800_000);
  assert.equal(b.size, 0);
});
