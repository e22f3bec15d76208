import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { topicFileSchema } from '../../src/relevance/topic.js';

const doc = fileURLToPath(new URL('../../../docs/topics.md', import.meta.url));

test('every topic example in docs/topics.md is a valid topic file', () => {
  const blocks = [...readFileSync(doc, 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
  assert.ok(blocks.length >= 3);
  for (const b of blocks) {
    const r = topicFileSchema.safeParse(parse(b));
    assert.ok(r.success, `${b.split('\n')[0]}: ${r.success ? '' : r.error.message}`);
  }
  assert.ok(blocks.some((b) => b.includes('地图服务')), 'a complete Chinese example is there');
});
