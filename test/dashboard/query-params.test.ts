import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeStrict, strictQuery } from '../../src/dashboard/query-params.js';

test('a query string decodes strictly: + is a space, the first value wins, a bad escape is named', () => {
  assert.deepEqual([...strictQuery('?q=solar+%C3%A9nergie&limit=5&q=other&flag')], [['q', 'solar énergie'], ['limit', '5'], ['flag', '']]);
  assert.equal(strictQuery('?q=a%2Bb').get('q'), 'a+b');
  assert.throws(() => strictQuery('?q=%zz'), /query parameter 'q' has a malformed percent-escape '%zz'/);
  assert.throws(() => strictQuery('?q=%E4'), /'%E4'/);
  assert.throws(() => strictQuery('?q=ok&limit=%'), /query parameter 'limit' has a malformed percent-escape '%'/);
  assert.throws(() => strictQuery('?%FF=1'), /a query parameter name has a malformed percent-escape '%FF'/);
  assert.throws(() => decodeStrict('/a/%E0%A4%A', 'the path'), /the path has a malformed percent-escape '%A'/);
  assert.equal(decodeStrict('/caf%C3%A9', 'the path'), '/café');
});
