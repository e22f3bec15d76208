import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClockCache, LruCache, RandomCache, StaticCache, simulate, simulateMin, type FingerprintCache } from '../../src/seen/index.js';

const A = 1, B = 2, C = 3, D = 4;
const hits = (c: FingerprintCache, trace: number[]) => trace.map((k) => (c.access(k) ? 'h' : 'm')).join('');

test('LRU evicts the least recently used key', () => {
  const c = new LruCache(2);
  // A B A C: C evicts B (A was used more recently); then B misses and evicts A.
  assert.equal(hits(c, [A, B, A, C, A, B, C]), 'mmhmhmm');
});

test('CLOCK gives marked keys a second chance, in hand order', () => {
  const c = new ClockCache(2);
  // A B A: A marked. C: the hand clears A's mark, moves on, evicts unmarked B; hand past C's slot.
  // B: the hand is at A (now unmarked): A is evicted. A: evicts C, the next unmarked slot.
  assert.equal(hits(c, [A, B, A, C, B, A]), 'mmhmmm');
  assert.equal(c.has(A) && c.has(B) && !c.has(C), true);
});

test('CLOCK differs from LRU when every key is marked', () => {
  // After A B B A both keys are marked. LRU evicts B, the least recent, for C; CLOCK's hand clears
  // both marks and evicts A, the slot it stops at. So the last A hits under LRU and misses under CLOCK.
  const trace = [A, B, B, A, C, A];
  assert.equal(hits(new LruCache(2), trace), 'mmhhmh');
  assert.equal(hits(new ClockCache(2), trace), 'mmhhmm');
});

test('CLOCK answers as a plain CLOCK over a Map on long traces with colliding keys and constant eviction', () => {
  // The reference: the same sweep with a Map for the key -> slot index. Keys share their low 32
  // bits in pairs and cluster, so the typed index's probe runs collide and its deletions shift entries.
  class MapClock {
    keys: number[] = []; marks: number[] = []; slot = new Map<number, number>(); hand = 0;
    constructor(readonly cap: number) {}
    access(k: number): boolean {
      const s = this.slot.get(k);
      if (s !== undefined) { this.marks[s] = 1; return true; }
      let v: number;
      if (this.keys.length < this.cap) v = this.keys.length;
      else {
        while (this.marks[this.hand]) { this.marks[this.hand] = 0; this.hand = (this.hand + 1) % this.cap; }
        v = this.hand; this.slot.delete(this.keys[v]!); this.hand = (v + 1) % this.cap;
      }
      this.keys[v] = k; this.marks[v] = 0; this.slot.set(k, v);
      return false;
    }
  }
  let seed = 7;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  for (const cap of [1, 3, 17, 200]) {
    const ours = new ClockCache(cap), ref = new MapClock(cap);
    let out = '', want = '';
    for (let i = 0; i < 20000; i++) {
      const base = Math.floor(rnd() * cap * 3);
      const k = rnd() < 0.5 ? base : base + 2 ** 32 * (1 + (base % 5));
      out += ours.access(k) ? 'h' : 'm';
      want += ref.access(k) ? 'h' : 'm';
    }
    assert.equal(out, want, `capacity ${cap}`);
    assert.ok(out.includes('h') && out.includes('m'));
    for (const k of ref.slot.keys()) assert.equal(ours.slotOf(k), ref.slot.get(k));
  }
});

test('random replacement is seeded and keeps the cache full', () => {
  const a = new RandomCache(3, 7);
  const b = new RandomCache(3, 7);
  const trace = [A, B, C, D, A, B, C, D, A, B];
  assert.equal(hits(a, trace), hits(b, trace));
  assert.equal(a.size, 3);
});

test('the static cache holds the most frequent keys of its training prefix, and never changes', () => {
  const c = new StaticCache(2, [A, B, A, C, A, B, D]);
  assert.equal(hits(c, [C, A, B, C, D]), 'mhhmm');
  assert.equal(c.size, 2);
});

/** The fewest misses any admit-every-miss policy can have: try every eviction choice. */
function bruteForceMin(trace: number[], cap: number): number {
  const best = (i: number, cache: number[]): number => {
    if (i === trace.length) return 0;
    const k = trace[i]!;
    if (cache.includes(k)) return best(i + 1, cache);
    if (cache.length < cap) return 1 + best(i + 1, [...cache, k]);
    return 1 + Math.min(...cache.map((_v, j) => best(i + 1, [...cache.slice(0, j), ...cache.slice(j + 1), k])));
  };
  return best(0, []);
}

test("Belady's MIN equals brute force on many small traces, and no policy beats it", () => {
  let state = 12345;
  const rand = (n: number) => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) % n);
  for (let t = 0; t < 200; t++) {
    const trace = Array.from({ length: 6 + rand(7) }, () => 1 + rand(5));
    const cap = 1 + rand(3);
    const min = simulateMin(trace, cap);
    assert.equal(min, bruteForceMin(trace, cap), `trace ${trace.join(',')} cap ${cap}`);
    for (const p of ['clock', 'lru', 'random'] as const) assert.ok(simulate(trace, p, cap).misses >= min);
  }
});

test('the infinite cache misses each distinct key once; miss rates are shares of the trace', () => {
  const r = simulate([A, B, A, C, B, A], 'infinite', 1);
  assert.deepEqual([r.misses, r.accesses], [3, 6]);
  assert.equal(r.missRate, 0.5);
});

test('what a JavaScript caller may pass by mistake is refused, not counted wrong', () => {
  // A fractional capacity made CLOCK write past its slots; a string key (the URL itself) was a miss every time.
  for (const make of [(n: number) => new ClockCache(n), (n: number) => new LruCache(n), (n: number) => new RandomCache(n), (n: number) => new StaticCache(n, [])]) {
    for (const bad of [0, 1.5, NaN]) assert.throws(() => make(bad), new RangeError(`cache capacity must be a whole number, at least 1 (got ${bad})`));
  }
  const clock = new ClockCache(4);
  assert.throws(() => clock.access('https://example.org/a' as never), new TypeError('cache keys are numbers, fingerprintKey(url), not string'));
  assert.equal(clock.size, 0);
  assert.throws(() => new (StaticCache as unknown as new (n: number) => StaticCache)(4), /^TypeError: StaticCache\(capacity, training\): training is the key sequence/);
});
