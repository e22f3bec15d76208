import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FingerprintValues } from '../../src/seen/fingerprint-values.js';
import { fingerprintKey } from '../../src/seen/fingerprint.js';

test('FingerprintValues keeps a number per fingerprint key through growth, as a Map does', () => {
  const v = new FingerprintValues();
  const m = new Map<number, number>();
  for (let i = 0; i < 200_000; i++) {
    const k = fingerprintKey(`http://h${i % 97}.test/p/${i}`);
    const x = (i % 1000) / 1000 + 1e-12 * i;
    v.set(k, x);
    m.set(k, x);
    if (i % 3 === 0) {
      v.set(k, x / 2); // overwritten
      m.set(k, x / 2);
    }
  }
  assert.equal(v.size, m.size);
  for (const [k, x] of m) assert.equal(v.get(k), x);
  assert.equal(v.get(fingerprintKey('http://never.test/')), undefined);
  v.set(0, 0.5);
  assert.equal(v.get(0), 0.5, 'the key 0 is a key like another');
});
