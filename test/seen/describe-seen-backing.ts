import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprint } from '../../src/seen/fingerprint.js';
import type { SeenBacking } from '../../src/seen/layered-seen-set.js';

/** The SeenBacking contract, run once per backing. `make` returns a fresh, empty set; `close` releases it. */
export function describeSeenBacking(name: string, make: () => Promise<{ set: SeenBacking; close: () => Promise<void> }>): void {
  const fps = (...urls: string[]) => urls.map(fingerprint);

  test(`${name}: add reports new fingerprints, repeats in one batch and later batches are not new`, async () => {
    const { set, close } = await make();
    try {
      assert.deepEqual(await set.addMany(fps('http://a.test/1', 'http://a.test/2', 'http://a.test/1')), [true, true, false]);
      assert.deepEqual(await set.addMany(fps('http://a.test/2', 'http://a.test/3')), [false, true]);
      assert.equal(await set.size(), 3);
    } finally {
      await close();
    }
  });

  test(`${name}: has agrees with add at once and never forgets`, async () => {
    const { set, close } = await make();
    try {
      assert.deepEqual(await set.hasMany(fps('http://a.test/x', 'http://b.test/y')), [false, false]);
      await set.addMany(fps('http://a.test/x'));
      assert.deepEqual(await set.hasMany(fps('http://a.test/x', 'http://b.test/y')), [true, false]);
      assert.deepEqual(await set.hasMany([]), []);
      assert.deepEqual(await set.addMany([]), []);
    } finally {
      await close();
    }
  });

  test(`${name}: 20,000 fingerprints added in batches are all members, none lost`, async () => {
    const { set, close } = await make();
    try {
      const all = Array.from({ length: 20_000 }, (_, i) => fingerprint(`http://h${i % 97}.test/p/${i}`));
      for (let i = 0; i < all.length; i += 1000) {
        const fresh = await set.addMany(all.slice(i, i + 1000));
        assert.ok(fresh.every(Boolean), `batch at ${i} all new`);
      }
      assert.equal(await set.size(), 20_000);
      const again = await set.hasMany(all);
      assert.equal(again.filter(Boolean).length, 20_000);
      assert.ok((await set.addMany(all.slice(0, 500))).every((x) => !x));
    } finally {
      await close();
    }
  });
}
