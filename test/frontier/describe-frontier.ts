import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BY_STRATEGY, THROUGH_REDIRECT, tooDeepReason, type Frontier } from '../../src/frontier/frontier.js';
import type { PolitenessOptions } from '../../src/frontier/host-scheduler.js';
import type { NewRequest } from '../../src/types.js';
import { urlKey } from '../../src/seen/fingerprint.js';

export const req = (url: string, priority = 0, extra: Partial<NewRequest> = {}): NewRequest => ({
  url,
  host: new URL(url).host,
  depth: 1,
  parent: null,
  anchor: '',
  priority,
  data: null,
  ...extra,
});

/** The Frontier contract, run once per backend. `make` returns a fresh, empty frontier. */
/**
 * `leasesExpire`: the backend is shared by workers, so an unrenewed lease returns its URL at
 * expiry; embedded backends hold leases in the process (they return on reopening instead).
 */
export function describeFrontier(name: string, make: (p: Partial<PolitenessOptions>) => Promise<Frontier>, opts: { leasesExpire?: boolean } = {}): void {
  const T = 1_000_000; // a fixed clock: the contract is tested without waiting

  test(`${name}: add reports duplicates, including within one batch`, async () => {
    const f = await make({});
    assert.deepEqual(await f.add([req('http://a.test/1'), req('http://a.test/2'), req('http://a.test/1')], T), [true, true, false]);
    assert.deepEqual(await f.add([req('http://a.test/2')], T), [false]);
    assert.deepEqual(await f.discard([req('http://a.test/2'), req('http://b.test/x')], 'out of scope'), [false, true]);
    assert.equal(f.settled('http://b.test/x'), true, 'discarded: settled');
    assert.equal(f.settled('http://a.test/1'), false, 'waiting: a rediscovery may still raise it');
    assert.equal(f.settled('http://c.test/'), false);
    assert.equal(f.knownSeen('http://a.test/1'), true);
    assert.equal(f.knownSeen('http://c.test/'), false);
    assert.deepEqual((await f.counts()), { waiting: 2, fetching: 0, done: 0, error: 0, discarded: 1, notFetched: 0 });
    await f.close();
  });

  test(`${name}: claim hands out the best priority first, ties in discovery order`, async () => {
    const f = await make({ perHost: 10, delayMs: 0 });
    await f.add([req('http://a.test/low', 0.1), req('http://a.test/high', 0.9), req('http://a.test/mid1', 0.5), req('http://a.test/mid2', 0.5)], T);
    const got = [];
    for (let i = 0; i < 4; i++) got.push(...(await f.claim(1, T)).map((r) => r.url));
    assert.deepEqual(got, ['http://a.test/high', 'http://a.test/mid1', 'http://a.test/mid2', 'http://a.test/low']);
    await f.close();
  });

  test(`${name}: ties keep discovery order across separate adds`, async () => {
    const f = await make({ perHost: 10, delayMs: 0 });
    const urls = ['q', 'w', 'e', 'r', 't', 'y'].map((p) => `http://a.test/${p}`);
    for (const u of urls) await f.add([req(u, 0.5)], T);
    const got = [];
    for (let i = 0; i < urls.length; i++) got.push(...(await f.claim(1, T)).map((r) => r.url));
    assert.deepEqual(got, urls);
    await f.close();
  });

  test(`${name}: a leased URL is neither waiting nor finished until completed`, async () => {
    const f = await make({ perHost: 1, delayMs: 0 });
    await f.add([req('http://a.test/1')], T);
    const [r] = await f.claim(5, T);
    assert.ok(r);
    assert.equal(await f.isFinished(), false);
    assert.deepEqual(await f.claim(5, T), []);
    assert.equal((await f.counts()).fetching, 1);
    await f.complete(r, { state: 'done' }, T);
    assert.equal(await f.isFinished(), true);
    assert.deepEqual((await f.counts()), { waiting: 0, fetching: 0, done: 1, error: 0, discarded: 0, notFetched: 0 });
    await f.close();
  });

  test(`${name}: per-host limit and delay; other hosts are served meanwhile`, async () => {
    const f = await make({ perHost: 1, delayMs: 1000 });
    await f.add([req('http://a.test/1', 0.9), req('http://a.test/2', 0.8), req('http://b.test/1', 0.1)], T);
    const first = await f.claim(10, T);
    assert.deepEqual(first.map((r) => r.url), ['http://a.test/1', 'http://b.test/1']);
    await f.complete(first[0]!, { state: 'done' }, T + 10);
    // "Nothing ready now" is not "finished": a.test waits until its delay is over.
    assert.deepEqual(await f.claim(10, T + 500), []);
    assert.equal(await f.isFinished(), false);
    assert.equal(await f.nextReadyAt(T + 500), T + 1010);
    assert.deepEqual((await f.claim(10, T + 1010)).map((r) => r.url), ['http://a.test/2']);
    await f.close();
  });

  test(`${name}: retry returns the URL with attempts + 1 and blocks its host until notBefore`, async () => {
    const f = await make({ perHost: 1, delayMs: 0 });
    await f.add([req('http://a.test/1')], T);
    const [r] = await f.claim(1, T);
    await f.retry(r!, T + 5000, T);
    assert.deepEqual(await f.claim(1, T + 4999), []);
    const [again] = await f.claim(1, T + 5000);
    assert.equal(again?.url, 'http://a.test/1');
    assert.equal(again?.attempts, 1);
    await f.close();
  });

  test(`${name}: release returns the URL with its attempts unchanged and blocks its host until notBefore`, async () => {
    const f = await make({ perHost: 1, delayMs: 0 });
    await f.add([req('http://a.test/1')], T);
    const [r] = await f.claim(1, T);
    await f.retry(r!, T, T);
    const [once] = await f.claim(1, T);
    await f.release(once!, T + 5000, T);
    assert.deepEqual((await f.counts()), { waiting: 1, fetching: 0, done: 0, error: 0, discarded: 0, notFetched: 0 });
    assert.deepEqual(await f.claim(1, T + 4999), []);
    const [again] = await f.claim(1, T + 5000);
    assert.equal(again?.url, 'http://a.test/1');
    assert.equal(again?.attempts, 1, 'the retry counted, the release did not');
    await f.close();
  });

  test(`${name}: claimHost leases all of one host's waiting URLs at once, ignoring its delay, slots and budget`, async () => {
    const f = await make({ perHost: 1, delayMs: 60_000 });
    await f.add([req('http://dead.test/1', 0.2), req('http://dead.test/2', 0.9), req('http://b.test/1')], T);
    const [first] = await f.claim(1, T);
    assert.equal(first?.url, 'http://dead.test/2');
    await f.retry(first!, T + 600_000, T);
    await f.setHostBudget(1);
    const all = await f.claimHost('dead.test', T);
    assert.deepEqual(all.map((r) => r.url).sort(), ['http://dead.test/1', 'http://dead.test/2']);
    assert.deepEqual(await f.claimHost('dead.test', T), []);
    assert.deepEqual((await f.counts()), { waiting: 1, fetching: 2, done: 0, error: 0, discarded: 0, notFetched: 0 });
    for (const r of all) await f.complete(r, { state: 'error', reason: 'host unreachable: test' }, T);
    assert.deepEqual((await f.counts()), { waiting: 1, fetching: 0, done: 0, error: 2, discarded: 0, notFetched: 2 }, 'errors that made no request are counted apart');
    assert.deepEqual((await f.claim(5, T)).map((r) => r.url), ['http://b.test/1'], 'other hosts are untouched');
    await f.close();
  });

  test(`${name}: a Crawl-delay raises the host delay`, async () => {
    const f = await make({ perHost: 1, delayMs: 100 });
    await f.setHostDelay('a.test', 3000);
    await f.add([req('http://a.test/1'), req('http://a.test/2')], T);
    const [r] = await f.claim(1, T);
    await f.complete(r!, { state: 'error', reason: 'HTTP 404' }, T);
    assert.equal(await f.nextReadyAt(T), T + 3000);
    assert.equal((await f.counts()).error, 1);
    await f.close();
  });

  test(`${name}: carried strategy state survives the frontier`, async () => {
    const f = await make({});
    await f.add([req('http://a.test/1', 1, { data: { m: 80, path: ['Home', 'Scores'] }, depth: 3, anchor: 'Scores' })], T);
    const [r] = await f.claim(1, T);
    assert.deepEqual(r?.data, { m: 80, path: ['Home', 'Scores'] });
    assert.equal(r?.depth, 3);
    assert.equal(r?.anchor, 'Scores');
    await f.close();
  });

  test(`${name}: a host budget parks a host's waiting URLs until it is raised; the crawl counts as finished meanwhile`, async () => {
    const f = await make({ perHost: 5, delayMs: 0 });
    await f.add([req('http://a.test/1', 3), req('http://a.test/2', 2), req('http://a.test/3', 1), req('http://b.test/1', 0)], T);
    await f.setHostBudget(1);
    const first = await f.claim(10, T);
    assert.deepEqual(first.map((r) => r.url), ['http://a.test/1', 'http://b.test/1']);
    for (const r of first) await f.complete(r, { state: 'done' }, T);
    assert.deepEqual(await f.claim(10, T), []);
    assert.equal(await f.isFinished(), true, 'nothing can be claimed under the budget');
    assert.equal((await f.counts()).waiting, 2);
    await f.setHostBudget(2);
    assert.equal(await f.isFinished(), false);
    assert.deepEqual((await f.claim(10, T)).map((r) => r.url), ['http://a.test/2']);
    await f.close();
  });

  test(`${name}: a host budget counts fetches: a retried or released attempt, an end without a request or a discard when claimed gives its count back`, async () => {
    const f = await make({ perHost: 5, delayMs: 0 });
    await f.add([req('http://a.test/1', 4), req('http://a.test/2', 3), req('http://a.test/3', 2), req('http://a.test/4', 1)], T);
    await f.setHostBudget(2);
    const [one, two] = await f.claim(2, T);
    assert.deepEqual([one?.url, two?.url], ['http://a.test/1', 'http://a.test/2']);
    assert.deepEqual(await f.claim(5, T), [], 'two in flight: the budget is used');
    await f.retry(one!, T, T);
    const [again] = await f.claim(5, T);
    assert.equal(again?.url, 'http://a.test/1', 'the retried attempt did not use the budget up');
    await f.release(two!, T, T);
    const [twoAgain] = await f.claim(5, T);
    assert.equal(twoAgain?.url, 'http://a.test/2', 'nor did the released one');
    await f.complete(twoAgain!, { state: 'error', reason: 'host unreachable: test (2 failures in a row)' }, T);
    const [three] = await f.claim(5, T);
    assert.equal(three?.url, 'http://a.test/3', 'an end without a request is no fetch');
    // A claimed URL that robots.txt (or a trap rule) turns away made no request either.
    await f.complete(three!, { state: 'discarded', reason: 'disallowed by robots.txt' }, T);
    const [four] = await f.claim(5, T);
    assert.equal(four?.url, 'http://a.test/4', 'a discard when claimed is no fetch');
    await f.complete(again!, { state: 'done' }, T);
    await f.complete(four!, { state: 'error', reason: 'HTTP 404' }, T);
    assert.deepEqual(await f.claim(5, T), [], 'a page done and a 404 are two fetches: the budget of 2 is used');
    assert.equal((await f.counts()).waiting, 0);
    await f.close();
  });

  test(`${name}: rescore reorders waiting URLs; null keeps a priority`, async () => {
    const f = await make({ perHost: 5, delayMs: 0 });
    await f.add([req('http://a.test/1', 3, { data: { s: 1 } }), req('http://a.test/2', 2, { data: { s: 9 } }), req('http://a.test/3', 1)], T);
    await f.rescore((r) => (r.data ? (r.data as { s: number }).s : null));
    assert.deepEqual((await f.claim(10, T)).map((r) => [r.url, r.priority]), [['http://a.test/2', 9], ['http://a.test/1', 1], ['http://a.test/3', 1]]);
    await f.close();
  });

  test(`${name}: a waiting URL found again with a better priority is raised and takes the better parent's state`, async () => {
    const f = await make({ perHost: 1, delayMs: 0 });
    await f.add([req('http://a.test/x', 0.1, { data: { m: 64 }, depth: 4, anchor: 'sidebar', parent: '0000000000000001' }), req('http://a.test/y', 0.5)], T);
    assert.deepEqual(await f.add([req('http://a.test/x', 0.9, { data: { m: 100 }, depth: 2, anchor: 'solar inverters', parent: '0000000000000007' })], T), [false]);
    // A worse rediscovery changes nothing.
    assert.deepEqual(await f.add([req('http://a.test/x', 0.2, { data: { m: 1 }, depth: 9 })], T), [false]);
    assert.equal((await f.counts()).waiting, 2, 'a raise does not add a URL');
    const [first] = await f.claim(1, T);
    assert.deepEqual([first?.url, first?.priority, first?.data, first?.depth, first?.anchor, first?.parent], ['http://a.test/x', 0.9, { m: 100 }, 2, 'solar inverters', '0000000000000007']);
    assert.equal(f.settled('http://a.test/x'), true, 'leased: settled');
    // Leased and final URLs are not raised, and are handed out once.
    assert.deepEqual(await f.add([req('http://a.test/x', 5)], T), [false]);
    await f.complete(first!, { state: 'done' }, T);
    assert.deepEqual(await f.add([req('http://a.test/x', 5)], T), [false]);
    const rest = [...(await f.claim(5, T)), ...(await f.claim(5, T))];
    assert.deepEqual(rest.map((r) => r.url), ['http://a.test/y']);
    assert.deepEqual(await f.claim(5, T), []);
    assert.deepEqual((await f.counts()), { waiting: 0, fetching: 1, done: 1, error: 0, discarded: 0, notFetched: 0 });
    await f.close();
  });

  test(`${name}: a raise takes the better parent's state but keeps the smaller depth`, async () => {
    const f = await make({ perHost: 5, delayMs: 0 });
    // Depths of one byte, two, three and five in msgpack (the Redis backend splices them).
    await f.add([req('http://a.test/x', 0.1, { depth: 2 }), req('http://a.test/y', 0.1, { depth: 300 }), req('http://a.test/z', 0.1, { depth: 5 })], T);
    await f.add([req('http://a.test/x', 0.9, { depth: 7, anchor: 'deep path', parent: '0000000000000007', data: { m: 1 } })], T);
    await f.add([req('http://a.test/y', 0.5, { depth: 200 }), req('http://a.test/z', 0.6, { depth: 130 })], T);
    await f.add([req('http://a.test/y', 0.8, { depth: 70_000 })], T);
    const got = await f.claim(5, T);
    assert.deepEqual(
      got.map((r) => [r.url, r.priority, r.depth]),
      [['http://a.test/x', 0.9, 2], ['http://a.test/y', 0.8, 200], ['http://a.test/z', 0.6, 5]],
    );
    assert.deepEqual([got[0]!.anchor, got[0]!.parent, got[0]!.data], ['deep path', '0000000000000007', { m: 1 }]);
    await f.close();
  });

  test(`${name}: a URL discarded as too deep is revived by a shorter path, once; other discards are final`, async () => {
    const f = await make({ perHost: 5, delayMs: 0 });
    const deep = 'http://a.test/deep';
    const out = 'http://b.test/out';
    assert.deepEqual(await f.discard([req(deep, 0, { depth: 6 })], tooDeepReason(5)), [true]);
    assert.deepEqual(await f.discard([req(out, 0, { depth: 2 })], 'out of scope (host)'), [true]);
    assert.deepEqual(await f.discard([req(deep, 0, { depth: 7 })], tooDeepReason(5)), [false], 'discarded once');
    // Met again where another rule discards it (a redirect target, a trap): still too deep, not final.
    assert.deepEqual(await f.discard([req(deep, 0, { depth: 2 })], 'out of scope (host)'), [false]);
    assert.equal(f.settled(deep), false, 'a shorter path may revive it');
    assert.equal(f.knownSeen(deep), false);
    assert.equal(f.settled(out), true);
    assert.deepEqual(await f.counts(), { waiting: 0, fetching: 0, done: 0, error: 0, discarded: 2, notFetched: 0 });
    assert.deepEqual(await f.add([req(deep, 0.7, { depth: 3, anchor: 'short path' }), req(out, 0.9)], T), ['revived', false], 'revived: told apart from new');
    assert.deepEqual(await f.counts(), { waiting: 1, fetching: 0, done: 0, error: 0, discarded: 1, notFetched: 0 });
    const [got] = await f.claim(5, T);
    assert.deepEqual([got?.url, got?.depth, got?.anchor, got?.priority], [deep, 3, 'short path', 0.7]);
    await f.complete(got!, { state: 'done' }, T);
    assert.deepEqual(await f.add([req(deep, 0.9, { depth: 1 })], T), [false], 'fetched: not revived again');
    assert.deepEqual(await f.discard([req(deep, 0, { depth: 9 })], tooDeepReason(5)), [false]);
    assert.deepEqual(await f.add([req(deep, 0.9, { depth: 1 })], T), [false]);
    assert.deepEqual(await f.claim(5, T), []);
    assert.deepEqual(await f.counts(), { waiting: 0, fetching: 0, done: 1, error: 0, discarded: 1, notFetched: 0 });
    await f.close();
  });

  test(`${name}: a URL a strategy discarded on one page is queued when a better page links it`, async () => {
    const f = await make({ perHost: 5, delayMs: 0 });
    const link = 'http://a.test/t';
    assert.deepEqual(await f.discard([req(link, 0, { depth: 2 })], `${BY_STRATEGY} weighted-levels`), [true]);
    assert.equal(f.settled(link), false, 'another page may score it');
    assert.equal(f.knownSeen(link), false);
    assert.deepEqual(await f.add([req(link, 0.6, { depth: 2, anchor: 'from a relevant page' })], T), ['revived']);
    const [got] = await f.claim(5, T);
    assert.deepEqual([got?.url, got?.priority, got?.anchor], [link, 0.6, 'from a relevant page']);
    await f.complete(got!, { state: 'done' }, T);
    assert.deepEqual(await f.discard([req(link, 0, { depth: 3 })], `${BY_STRATEGY} weighted-levels`), [false], 'fetched: its discard later is a duplicate');
    assert.deepEqual(await f.counts(), { waiting: 0, fetching: 0, done: 1, error: 0, discarded: 0, notFetched: 0 });
    await f.close();
  });

  test(`${name}: a redirect's target takes the place of a revivable discard, for good; other discards leave it revivable`, async () => {
    const f = await make({ perHost: 5, delayMs: 0 });
    const deep = 'http://a.test/landing';
    const redirect = `${THROUGH_REDIRECT} from http://a.test/r`;
    assert.deepEqual(await f.discard([req(deep, 0, { depth: 6 })], tooDeepReason(5)), [true]);
    assert.deepEqual(await f.discard([req(deep, 0, { depth: 2 })], 'out of scope (host)'), [false], 'still revivable');
    // A rescore forgets the priorities a shared backend's cache holds, not that a discard is revivable.
    await f.rescore(() => null);
    assert.equal(f.knownSeen(deep), false);
    // A shared backend answers repeated discards from its cache: this one must reach the record.
    assert.deepEqual(await f.discard([req(deep, 0, { depth: 1 })], redirect), ['revived']);
    assert.equal(f.settled(deep), true);
    assert.deepEqual(await f.add([req(deep, 0.9, { depth: 1 })], T), [false], 'final: no path revives it now');
    assert.deepEqual(await f.discard([req(deep, 0, { depth: 1 })], redirect), [false], 'taken once');
    assert.deepEqual(await f.discard([req('http://a.test/other', 0, { depth: 1 })], redirect), [true]);
    assert.deepEqual(await f.claim(5, T), []);
    assert.deepEqual(await f.counts(), { waiting: 0, fetching: 0, done: 0, error: 0, discarded: 2, notFetched: 0 });
    await f.close();
  });

  test(`${name}: a raise reorders the host queue and the hosts`, async () => {
    const f = await make({ perHost: 1, delayMs: 0 });
    await f.add([req('http://a.test/1', 0.3), req('http://a.test/2', 0.2), req('http://b.test/1', 0.5)], T);
    await f.add([req('http://a.test/2', 0.8)], T);
    const got = [];
    for (let i = 0; i < 3; i++) {
      const [r] = await f.claim(1, T);
      got.push([r!.url, r!.priority]);
      await f.complete(r!, { state: 'done' }, T);
    }
    assert.deepEqual(got, [['http://a.test/2', 0.8], ['http://b.test/1', 0.5], ['http://a.test/1', 0.3]]);
    assert.equal(await f.isFinished(), true);
    await f.close();
  });

  test(`${name}: a URL queued by redirects across hosts keeps their count through a claim, a retry and a raise`, async () => {
    const f = await make({ perHost: 10, delayMs: 0 });
    await f.add([req('http://a.test/hop', 1, { redirected: 3 }), req('http://a.test/link', 1)], T);
    const first = await f.claim(2, T);
    assert.deepEqual(first.map((r) => [r.url, r.redirected ?? null]), [['http://a.test/hop', 3], ['http://a.test/link', null]]);
    for (const r of first) await f.retry(r, T, T);
    // Found again as a link from a better page: the parent's state changes, not how the URL was reached.
    await f.add([req('http://a.test/hop', 5, { parent: urlKey('http://a.test/better') })], T);
    const again = await f.claim(2, T);
    assert.deepEqual(again.map((r) => [r.url, r.redirected ?? null, r.attempts]), [['http://a.test/hop', 3, 1], ['http://a.test/link', null, 1]]);
    await f.close();
  });

  test(`${name}: a service probe keeps its type, endpoint and step`, async () => {
    const f = await make({});
    const probe = { type: 'OGC API' as const, endpoint: 'http://a.test/ogcapi', step: 'conformance' };
    await f.add([req('http://a.test/ogcapi/conformance?f=json', 5, { probe })], T);
    const [r] = await f.claim(1, T);
    assert.deepEqual(r?.probe, probe);
    await f.close();
  });
  test(`${name}: every request carries its key, the URL's fingerprint, the same in every backend`, async () => {
    const f = await make({});
    await f.add([req('http://a.test/k')], T);
    const [r] = await f.claim(1, T);
    assert.equal(r?.key, urlKey('http://a.test/k'));
    assert.match(r!.key, /^[0-9a-f]{16}$/);
    await f.close();
  });

  test(`${name}: a lease renewed is kept; reap returns only expired leases, attempts unchanged`, async () => {
    const f = await make({ perHost: 2, delayMs: 0 });
    await f.add([req('http://a.test/1', 2), req('http://a.test/2', 1)], T);
    const [r1, r2] = await f.claim(2, T, 1000);
    assert.ok(r1 && r2);
    await f.renew([r1], T + 900, 1000);
    assert.equal(await f.reap(T + 999), 0, 'nothing expired yet');
    const reaped = await f.reap(T + 1500);
    if (!opts.leasesExpire) {
      assert.equal(reaped, 0, 'leases live in the process and never expire while it runs');
      assert.equal((await f.counts()).fetching, 2);
    } else {
      assert.equal(reaped, 1, 'only the lease that was not renewed');
      assert.deepEqual(await f.counts(), { waiting: 1, fetching: 1, done: 0, error: 0, discarded: 0, notFetched: 0 });
      const [again] = await f.claim(5, T + 1500);
      assert.equal(again?.url, 'http://a.test/2');
      assert.equal(again?.attempts, 0);
      assert.equal(await f.reap(T + 1901), 1, 'the renewed lease expires at its new time');
    }
    await f.close();
  });

  test(`${name}: fetched() gives the host's slot back and starts its delay while the URL stays leased; its end does not free the host again`, async () => {
    const f = await make({ perHost: 1, delayMs: 100 });
    await f.add([req('http://a.test/1', 3), req('http://a.test/2', 2), req('http://a.test/3', 1)], T);
    const [one] = await f.claim(5, T);
    assert.equal(one?.url, 'http://a.test/1');
    await f.fetched(one!, T + 10);
    await f.fetched(one!, T + 20); // twice is harmless
    assert.equal((await f.counts()).fetching, 1, 'still leased');
    assert.deepEqual(await f.claim(5, T + 109), [], 'the delay runs from fetched()');
    const [two] = await f.claim(5, T + 110);
    assert.equal(two?.url, 'http://a.test/2');
    await f.complete(one!, { state: 'done' }, T + 200);
    assert.deepEqual(await f.claim(5, T + 1000), [], 'a.test/2 holds the host: completing a.test/1 did not free it a second time');
    await f.complete(two!, { state: 'done' }, T + 1000);
    assert.deepEqual((await f.claim(5, T + 1100)).map((r) => r.url), ['http://a.test/3']);
    assert.deepEqual(await f.counts(), { waiting: 0, fetching: 1, done: 2, error: 0, discarded: 0, notFetched: 0 });
    await f.close();
  });

  test(`${name}: a retry after fetched() still holds the host until its notBefore`, async () => {
    const f = await make({ perHost: 1, delayMs: 0 });
    await f.add([req('http://a.test/1', 2), req('http://a.test/2', 1)], T);
    const [one] = await f.claim(1, T);
    await f.fetched(one!, T);
    await f.retry(one!, T + 5000, T);
    assert.deepEqual(await f.claim(5, T + 4999), []);
    const back = await f.claim(1, T + 5000);
    assert.deepEqual(back.map((r) => [r.url, r.attempts]), [['http://a.test/1', 1]]);
    await f.complete(back[0]!, { state: 'done' }, T + 5000);
    assert.deepEqual((await f.claim(5, T + 5000)).map((r) => r.url), ['http://a.test/2'], 'the slot came back once, at the end of the second lease');
    await f.close();
  });

  if (opts.leasesExpire) {
    test(`${name}: an expired lease whose slot fetched() gave back returns its URL without freeing the host again`, async () => {
      const f = await make({ perHost: 1, delayMs: 0 });
      await f.add([req('http://a.test/1', 2), req('http://a.test/2', 1)], T);
      const [one] = await f.claim(1, T, 1000);
      await f.fetched(one!, T);
      const [two] = await f.claim(1, T, 60_000);
      assert.equal(two?.url, 'http://a.test/2');
      assert.equal(await f.reap(T + 1001), 1);
      assert.deepEqual(await f.claim(5, T + 1001), [], 'a.test/2 still holds the host');
      await f.complete(two!, { state: 'done' }, T + 1001);
      assert.deepEqual((await f.claim(5, T + 1001)).map((r) => r.url), ['http://a.test/1']);
      await f.close();
    });
  }
}
