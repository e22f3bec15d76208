import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';

/**
 * Whether the Redis of process `pid` answers on `port`: INFO names its process_id. One that asks
 * for a password (its own --requirepass) cannot be asked, and counts when it says so.
 */
function answers(port: number, pid: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once('error', () => done(false));
    s.once('connect', () => s.write('INFO server\r\n'));
    s.on('data', (d) => {
      reply += d;
      if (/^-(?:NOAUTH|WRONGPASS)/.test(reply)) return done(true);
      if (reply.startsWith('-')) return done(false);
      const m = /process_id:(\d+)/.exec(reply);
      if (m) done(Number(m[1]) === pid);
    });
  });
}

/**
 * A Redis of a test's own (Debian's redis-server, no persistence) on `port`, answering when this
 * resolves; `args` add settings (`--requirepass`, ...). Killing it disturbs no other test. Ready
 * when this child answers on the port: a port another process took in the meantime (freePort
 * frees the port it found) is an error here, not a foreign server the test talks to.
 */
export async function startRedis(port: number, args: string[] = []): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', mkdtempSync(`${tmpdir()}/fc-redis-`), ...args], { stdio: 'ignore' });
  for (let i = 0; i < 100 && child.exitCode === null; i++) {
    if ((await answers(port, child.pid!)) && child.exitCode === null) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start on port ${port} (${child.exitCode === null ? 'no answer' : `it exited with ${child.exitCode}: the port may have been taken`}; apt-get install redis-server)`);
}
