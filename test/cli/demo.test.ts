import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';

test('demo on a site too small to hold a solar page says recall has nothing to count, never NaN', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-demo-'));
  const r = await runCli(['demo', '--pages', '1', '--max-pages', '5', '--db', join(dir, 'd.db')], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /ground truth: 0 of the site's 0 solar pages fetched .*recall - \(the site has none\)\)/);
  assert.doesNotMatch(r.stdout, /NaN/);
});
