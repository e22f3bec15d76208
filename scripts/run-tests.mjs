#!/usr/bin/env node
// `npm test` after the build: Node's test runner over dist/test/*/*.test.js, with the temporary
// folders the tests make (databases, servers' files, browser profiles) inside one folder that is
// removed afterwards, so that repeated runs do not fill /tmp; and without proxy variables, since
// every test talks to 127.0.0.x.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-test-'));
// Tests running programs as another user (PostgreSQL refuses root) need to reach their folders.
chmodSync(root, 0o755);
const env = { ...process.env, TMPDIR: root };
for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) delete env[name];
const files = readdirSync('dist/test', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(join('dist/test', d.name)).filter((f) => f.endsWith('.test.js')).map((f) => join('dist/test', d.name, f)))
  .sort();
const child = spawn(process.execPath, ['--test', '--test-concurrency=2', '--test-force-exit', '--test-timeout=300000', ...files, ...process.argv.slice(2)], { env, stdio: 'inherit' });
const cleanUp = () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
// Ctrl-C reaches the runner too (same process group); the folder goes when it has stopped.
process.on('SIGINT', () => {});
child.on('exit', (code, signal) => {
  cleanUp();
  process.exit(code ?? (signal ? 1 : 0));
});
