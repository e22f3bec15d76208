import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packBytes, unpackBytes } from '../../src/strategies/packed-bytes.js';
import { LinkFrequency } from '../../src/strategies/link-frequency.js';

test('snapshot arrays are stored deflated, and older plain ones still restore', () => {
  const a = new Uint32Array(1 << 16);
  a[7] = 3;
  a[60000] = 9;
  const packed = packBytes(a);
  assert.ok(packed.length < 2000, `a mostly empty 256 KB array packs small: ${packed.length} characters`);
  const back = unpackBytes(packed, a.byteLength)!;
  assert.deepEqual(new Uint32Array(back.buffer.slice(back.byteOffset, back.byteOffset + back.byteLength)), a);
  const plain = Buffer.from(a.buffer).toString('base64');
  assert.ok(unpackBytes(plain, a.byteLength)!.equals(Buffer.from(a.buffer)), 'a snapshot from before packing');
  assert.equal(unpackBytes(packed, a.byteLength - 4), null, 'another size is refused, not half-loaded');
  assert.equal(unpackBytes('~not deflate', a.byteLength), null);
});

test("a link-frequency sketch's snapshot is small while it is sparse and restores the same ratios", () => {
  const f = new LinkFrequency();
  for (let p = 0; p < 5; p++) {
    f.page('a.test');
    f.link('a.test', 'http://a.test/menu');
    f.link('a.test', `http://a.test/body${p}`);
  }
  const snap = f.snapshot();
  assert.ok(JSON.stringify(snap).length < 20_000, `five pages, not 2 MB: ${JSON.stringify(snap).length}`);
  const g = new LinkFrequency();
  g.restore(JSON.parse(JSON.stringify(snap)));
  for (const u of ['http://a.test/menu', 'http://a.test/body3', 'http://a.test/never']) assert.equal(g.ratio('a.test', u), f.ratio('a.test', u), u);
});
