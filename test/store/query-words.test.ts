import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ftsQuery } from '../../src/store/sqlite-store.js';
import { pgTextQuery } from '../../src/store/pg-text-query.js';

test('a search looks each word up once, and refuses a query of more than 64 different words on both backends', () => {
  const repeated = Array(4000).fill('solar Solar').join(' ');
  assert.equal(ftsQuery(repeated), '"solar"');
  assert.equal(pgTextQuery(repeated), pgTextQuery('solar'));
  const many = Array.from({ length: 65 }, (_, i) => `w${i}`).join(' ');
  assert.throws(() => ftsQuery(many), /has 65 different words; at most 64 are looked for/);
  assert.throws(() => pgTextQuery(many), /has 65 different words; at most 64/);
  assert.equal(ftsQuery(Array.from({ length: 64 }, (_, i) => `w${i}`).join(' ')).split(' ').length, 64);
});
