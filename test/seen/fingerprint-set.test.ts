import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FingerprintSet, fingerprint, fingerprintFromBigInt, fingerprintHex, fingerprintKey, fingerprintToBigInt } from '../../src/seen/index.js';

test('add returns true once per URL, has agrees, across many segment growths', () => {
  const s = new FingerprintSet();
  for (let i = 0; i < 200_000; i++) assert.equal(s.add(`http://h${i % 97}.example/p/${i}`), true);
  for (let i = 0; i < 200_000; i += 7) assert.equal(s.add(`http://h${i % 97}.example/p/${i}`), false);
  assert.equal(s.size, 200_000);
  assert.equal(s.has('http://h0.example/p/0'), true);
  assert.equal(s.has('http://h0.example/p/200000'), false);
  assert.ok(s.byteLength / s.size < 12.5, `bytes per URL ${s.byteLength / s.size}`);
});

test('fingerprints with the same home slot probe onwards and stay distinct, including wrap-around', () => {
  const s = new FingerprintSet();
  // Same segment (top byte 0x12) and lo = 0xffffffff: home slot is the segment's last slot.
  for (let k = 0; k < 20; k++) assert.equal(s.addFingerprint(0x12000000 + k, 0xffffffff), true);
  for (let k = 0; k < 20; k++) assert.equal(s.hasFingerprint(0x12000000 + k, 0xffffffff), true);
  assert.equal(s.hasFingerprint(0x12000000 + 20, 0xffffffff), false);
  assert.equal(s.addFingerprint(0x12000005, 0xffffffff), false);
  // (0,0) is the empty marker: it is stored as (0,1).
  assert.equal(s.addFingerprint(0, 0), true);
  assert.equal(s.hasFingerprint(0, 1), true);
});

test('delete keeps every other fingerprint findable: random runs against a model, dense runs across the wrap-around', () => {
  const s = new FingerprintSet();
  const model = new Set<string>();
  let x = 12345;
  const rnd = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  // Few segments and crowded lo values, so runs are long and wrap around the table's end.
  const fp = () => ({ hi: (0x07000000 + (rnd() % 4)) >>> 0, lo: (0xfffff000 + (rnd() % 4096)) >>> 0 });
  for (let step = 0; step < 40_000; step++) {
    const { hi, lo } = fp();
    const k = `${hi}:${lo}`;
    if (rnd() % 3 === 0) assert.equal(s.deleteFingerprint(hi, lo), model.delete(k), `delete ${k}`);
    else assert.equal(s.addFingerprint(hi, lo), !model.has(k) && !!model.add(k), `add ${k}`);
  }
  assert.equal(s.size, model.size);
  for (const k of model) {
    const [hi, lo] = k.split(':').map(Number);
    assert.equal(s.hasFingerprint(hi!, lo!), true, `kept ${k}`);
  }
  assert.equal(s.delete('http://never.added/'), false);
  assert.equal(s.add('http://a.test/x'), true);
  assert.equal(s.delete('http://a.test/x'), true);
  assert.equal(s.has('http://a.test/x'), false);
  assert.equal(s.add('http://a.test/x'), true, 'a deleted URL is new again');
});

test('fingerprint forms: signed 64-bit, hex, 53-bit key', () => {
  const fp = fingerprint('http://example.com/');
  assert.deepEqual(fingerprintFromBigInt(fingerprintToBigInt(fp)), fp);
  assert.match(fingerprintHex(fp), /^[0-9a-f]{16}$/);
  assert.notDeepEqual(fingerprint('http://example.com/a'), fingerprint('http://example.com/b'));
  const key = fingerprintKey('http://example.com/');
  assert.ok(Number.isSafeInteger(key));
  assert.equal(key, fp.hi * 2 ** 21 + (fp.lo >>> 11));
});

test('a URL object is refused with the way to pass it: it hashed as the empty string, so a second URL object counted as seen', () => {
  const seen = new FingerprintSet();
  assert.equal(seen.add('https://example.org/a'), true);
  assert.throws(() => seen.add(new URL('https://example.org/b') as never), new TypeError('a URL to fingerprint is a string, not a URL object (pass url.href)'));
  assert.throws(() => seen.has(42 as never), new TypeError('a URL to fingerprint is a string, not number'));
  assert.equal(seen.add(new URL('https://example.org/b').href), true);
  assert.equal(seen.size, 2);
});
