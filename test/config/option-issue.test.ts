import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { keysAt, optionMessage } from '../../src/config/option-issue.js';

const schema = z
  .object({
    threshold: z.number().min(0).max(1),
    maxPages: z.number().int().positive(),
    scope: z.enum(['host', 'domain', 'any']),
    name: z.string().min(1),
    words: z.array(z.string()).max(2),
    positions: z.object({ title: z.number(), body: z.number() }).strict().optional(),
    topic: z.union([z.string(), z.object({ name: z.string(), keywords: z.record(z.string(), z.number()) }).strict()]).nullable().default(null),
  })
  .strict();
const ok = { threshold: 0.5, maxPages: 10, scope: 'host', name: 'x', words: [] };
const message = (v: Record<string, unknown>) => {
  const r = schema.safeParse({ ...ok, ...v });
  assert.ok(!r.success);
  return optionMessage('field', r.error, Object.keys(schema.shape), schema);
};

test('bounds, choices and nested unknown keys are said in words a config file\'s reader uses', () => {
  assert.equal(message({ threshold: 2 }), "field 'threshold': must be at most 1");
  assert.equal(message({ threshold: -1 }), "field 'threshold': must be at least 0");
  assert.equal(message({ maxPages: 0 }), "field 'maxPages': must be above 0");
  assert.equal(message({ scope: 'planet' }), "field 'scope': must be one of 'host', 'domain', 'any'");
  assert.equal(message({ name: '' }), "field 'name': must not be empty");
  assert.equal(message({ words: ['a', 'b', 'c'] }), "field 'words': must have at most 2 items");
  assert.equal(message({ positions: { titel: 1, body: 1 } }), "field 'positions.titel': unknown (did you mean 'title'?)");
  assert.equal(message({ maxPage: 1 }), "field 'maxPage': unknown (did you mean 'maxPages'?)");
});

test('keysAt walks optional maps and unions, and says nothing where no map is', () => {
  assert.deepEqual(keysAt(schema, ['positions']), ['title', 'body']);
  assert.deepEqual(keysAt(schema, []), ['threshold', 'maxPages', 'scope', 'name', 'words', 'positions', 'topic']);
  assert.deepEqual(keysAt(schema, ['topic']), ['name', 'keywords'], 'through a nullable default union, to its map');
  assert.deepEqual(keysAt(schema, ['threshold']), []);
  assert.deepEqual(keysAt(schema, ['nothing', 'here']), []);
});
