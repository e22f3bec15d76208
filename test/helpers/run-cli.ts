import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../../bin/focuscrawl.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI to the end (or until `kill` says so) and collects its output. */
export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; onStart?: (child: ChildProcess) => void } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(opts.env ? { env: opts.env } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    opts.onStart?.(child);
  });
}

/**
 * Waits until `done()` holds while `run` (a runCli in progress) is still going: if the process
 * ends first, fails at once with its output, rather than polling until the test's timeout.
 */
export async function untilWhileRunning(done: () => boolean | Promise<boolean>, run: Promise<CliResult>, what: string, everyMs = 100): Promise<void> {
  let ended: CliResult | null = null;
  void run.then((r) => (ended = r), () => {});
  for (;;) {
    if (await done()) return;
    const over = ended as CliResult | null;
    if (over) throw new Error(`${what}: the process ended (exit ${over.code ?? over.signal}) first:\n${over.stdout}${over.stderr}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
