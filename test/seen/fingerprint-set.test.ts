import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FingerprintSet, fingerprint, fingerprintFromBigInt, fingerprintHex, fingerprintToBigInt } from '../../src/seen/index.js';

test('add returns true once per URL, has agrees, across many growths', () => {
  const s = new FingerprintSet(4);
  for (let i = 0; i < 50_000; i++) assert.equal(s.add(`http://h${i % 97}.example/p/${i}`), true);
  for (let i = 0; i < 50_000; i++) assert.equal(s.add(`http://h${i % 97}.example/p/${i}`), false);
  assert.equal(s.size, 50_000);
  assert.equal(s.has('http://h0.example/p/0'), true);
  assert.equal(s.has('http://h0.example/p/50000'), false);
});

test('fingerprints colliding in the table (same home slot) stay distinct', () => {
  const s = new FingerprintSet(16);
  // Same lo and hi*golden differ only above the mask: all land on one slot and probe onwards.
  for (let k = 0; k < 8; k++) assert.equal(s.addFingerprint(k << 20, 5), true);
  for (let k = 0; k < 8; k++) assert.equal(s.hasFingerprint(k << 20, 5), true);
  assert.equal(s.hasFingerprint(9 << 20, 5), false);
  // (0,0) is the empty marker: it is stored as (0,1).
  assert.equal(s.addFingerprint(0, 0), true);
  assert.equal(s.hasFingerprint(0, 1), true);
});

test('fingerprint round-trips through the signed 64-bit form and hex', () => {
  const fp = fingerprint('http://example.com/');
  assert.deepEqual(fingerprintFromBigInt(fingerprintToBigInt(fp)), fp);
  assert.match(fingerprintHex(fp), /^[0-9a-f]{16}$/);
  assert.notDeepEqual(fingerprint('http://example.com/a'), fingerprint('http://example.com/b'));
});
