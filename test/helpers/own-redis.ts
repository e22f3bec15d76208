import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';

/** Whether a Redis answers PING on `port` (+PONG, or an error asking for the password). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once('error', () => done(false));
    s.once('connect', () => s.write('PING\r\n'));
    s.on('data', (d) => {
      reply += d;
      if (reply.includes('\r\n')) done(/^(?:\+PONG|-NOAUTH|-WRONGPASS)/.test(reply));
    });
  });
}

/**
 * A Redis of a test's own (Debian's redis-server, no persistence) on `port`, answering when this
 * resolves; `args` add settings (`--requirepass`, ...). Killing it disturbs no other test. Ready
 * when it answers PING and this child still runs: a port another process took in the meantime
 * (freePort frees the port it found) is an error here, not a foreign server the test talks to.
 */
export async function startRedis(port: number, args: string[] = []): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', mkdtempSync(`${tmpdir()}/fc-redis-`), ...args], { stdio: 'ignore' });
  for (let i = 0; i < 100 && child.exitCode === null; i++) {
    if ((await answersPing(port)) && child.exitCode === null) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start on port ${port} (${child.exitCode === null ? 'no answer' : `it exited with ${child.exitCode}: the port may have been taken`}; apt-get install redis-server)`);
}
