import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { decompress } from '../../src/fetch/decompress.js';

const page = '<p>hello</p>'.repeat(100);
const text = (b: Uint8Array | null) => Buffer.from(b!).toString();

test('what browsers accept: bytes after a gzip member, an empty body, codings applied in turn', () => {
  assert.equal(text(decompress(Buffer.concat([gzipSync(page), Buffer.from('garbage-bytes!')]), 'gzip', 1 << 20)), page);
  const named = gzipSync(page);
  named[3] = 8; // FNAME set: a file name follows the 10-byte header
  const withName = Buffer.concat([named.subarray(0, 10), Buffer.from('page.html\0'), named.subarray(10), Buffer.from('junk')]);
  assert.equal(text(decompress(withName, 'gzip', 1 << 20)), page);
  assert.equal(decompress(Buffer.alloc(0), 'gzip', 1 << 20)!.length, 0);
  assert.equal(text(decompress(gzipSync(gzipSync(page)), 'gzip, gzip', 1 << 20)), page);
  assert.equal(text(decompress(gzipSync(brotliCompressSync(page)), 'br, gzip', 1 << 20)), page);
  assert.equal(text(decompress(gzipSync(page), 'gzip, identity', 1 << 20)), page);
});

test('what stays an error: a corrupt or unknown coding, a bomb in any layer', () => {
  assert.throws(() => decompress(Buffer.from('not gzip at all, not even close'), 'gzip', 1 << 20));
  assert.equal(decompress(gzipSync(page), 'gzip, foo', 1 << 20), null);
  assert.throws(() => decompress(gzipSync(gzipSync(Buffer.alloc(1 << 22))), 'gzip, gzip', 1 << 20), RangeError);
});
