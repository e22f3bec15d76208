import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';

/**
 * A Redis of a test's own (Debian's redis-server, no persistence) on `port`, answering when this
 * resolves; `args` add settings (`--requirepass`, ...). Killing it disturbs no other test.
 */
export async function startRedis(port: number, args: string[] = []): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', mkdtempSync(`${tmpdir()}/fc-redis-`), ...args], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(true)); // the port is taken: Redis listens
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(false)));
    });
    if (up) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error('redis-server did not start (apt-get install redis-server)');
}
