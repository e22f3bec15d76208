import assert from 'node:assert/strict';
import { runCli } from './run-cli.js';

/**
 * Runs the CLI with bad input and asserts the project's rule for it: exit code 2 and one line on
 * stderr matching `message`. Returns that line.
 */
export async function cliFails(args: string[], message: RegExp, cwd?: string): Promise<string> {
  const r = await runCli(args, cwd ? { cwd } : {});
  assert.equal(r.code, 2, `exit code of ${args.join(' ')}: ${r.stderr}`);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line: ${r.stderr}`);
  assert.match(lines[0]!, message);
  return lines[0]!;
}
