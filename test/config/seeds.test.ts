import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSeedsFile, seedProblem } from '../../src/config/seeds.js';
import { FocusCrawlError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'fc-seeds-'));

function refuses(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => err instanceof FocusCrawlError && !err.message.includes('\n') && message.test(err.message));
}

test('a seed with a line break says so, not that it has a space', () => {
  assert.match(seedProblem('http://a.example/\nhttp://b.example/')!, /has a line break in it/);
  assert.match(seedProblem('http://a.example/x y')!, /has a space in it/);
  assert.match(seedProblem('mailto:x@y.z')!, /is not an http\(s\) URL/);
  assert.equal(seedProblem('http://a.example/x%20y'), null);
});

test('a seeds file in UTF-16 is named as such, with or without its byte order mark', () => {
  const text = 'http://a.example/\nhttp://b.example/\n';
  writeFileSync(join(dir, 'bom16.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
  refuses(() => readSeedsFile(join(dir, 'bom16.txt')), /bom16\.txt: seeds file in UTF-16; save it as UTF-8/);
  writeFileSync(join(dir, 'le16.txt'), Buffer.from(text, 'utf16le'));
  refuses(() => readSeedsFile(join(dir, 'le16.txt')), /le16\.txt: seeds file in UTF-16; save it as UTF-8/);
  writeFileSync(join(dir, 'bom8.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
  assert.deepEqual(readSeedsFile(join(dir, 'bom8.txt')), ['http://a.example/', 'http://b.example/']);
  writeFileSync(join(dir, 'latin1.txt'), Buffer.from('http://a.example/\nhttp://b.example/caf\xe9\n', 'latin1'));
  refuses(() => readSeedsFile(join(dir, 'latin1.txt')), /latin1\.txt:2: bytes that are not UTF-8 text; save the seeds file as UTF-8/);
});

test('a seeds file is read within its limit: devices refused, a larger file refused by its size', () => {
  refuses(() => readSeedsFile('/dev/zero'), /cannot read seeds file \/dev\/zero: not a regular file \(a device\)/);
  writeFileSync(join(dir, 'big.txt'), '');
  truncateSync(join(dir, 'big.txt'), 200 * 1024 * 1024);
  refuses(() => readSeedsFile(join(dir, 'big.txt')), /big\.txt: seeds file of 209715200 bytes, more than the 104857600 read \(100 MB\)/);
  // 100,000 seeds (about 5 MB) are well within it.
  const many = Array.from({ length: 100_000 }, (_x, i) => `http://example.org/section/page-${i}.html?from=seeds-file`).join('\n');
  writeFileSync(join(dir, 'many.txt'), many);
  assert.equal(readSeedsFile(join(dir, 'many.txt')).length, 100_000);
});
