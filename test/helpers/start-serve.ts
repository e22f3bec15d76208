import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './run-cli.js';

export interface ServeProcess {
  child: ChildProcess;
  /** The address serve printed (with ?token= when it requires one). */
  url: string;
  stop(): Promise<void>;
}

/** Starts the real `focuscrawl serve` and waits for the line that names its address. */
export function startServe(args: string[]): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const stop = () => new Promise<void>((r) => {
      if (child.exitCode !== null) return r();
      child.once('close', () => r());
      child.kill('SIGTERM');
    });
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /dashboard of .* at (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, stop });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('close', (code) => reject(new Error(`serve exited (${code}) before it listened: ${err}${out}`)));
  });
}
