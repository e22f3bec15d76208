import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

/**
 * `--pin`: Redis, PostgreSQL and the bench driver (with its web server) on the first core, every
 * crawler process on the others. Issue 14's workers run on machines of their own, apart from Redis
 * and PostgreSQL; on one 2-core VM the services otherwise take their CPU from the crawler under
 * test, and the embedded crawler, which has no services, is not charged for that. Pinned, each
 * crawler (embedded or worker) gets the same cores, and the services' cost shows in their own
 * columns. Linux only (taskset, from util-linux), and Redis and PostgreSQL must run on this
 * machine; root or the services' owner, since it sets their affinity.
 */
export interface CpuPinning {
  /** The command and arguments that run `node ...args` on the crawler's cores. */
  spawnArgs(node: string, args: string[]): [string, string[]];
  /** What the figures were measured under, for the table's heading. */
  readonly label: string;
  /** Sets every pinned process back to all cores (where Redis and PostgreSQL run by default). */
  restore(): void;
}

function pids(name: string): number[] {
  try {
    return execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function setAffinity(pid: number, cpuList: string): void {
  // -a: every thread (Redis's background threads, the driver's libuv pool).
  execFileSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
}

export function pinServices(): CpuPinning {
  const n = cpus().length;
  if (process.platform !== 'linux') throw new Error('--pin needs Linux (taskset)');
  if (n < 2) throw new Error(`--pin needs at least 2 cores; this machine has ${n}`);
  const services = [...pids('redis-server'), ...pids('postgres')];
  if (!pids('redis-server').length || !pids('postgres').length) {
    throw new Error('--pin needs Redis (redis-server) and PostgreSQL (postgres) running on this machine');
  }
  const all = `0-${n - 1}`;
  const crawler = n === 2 ? '1' : `1-${n - 1}`;
  const pinned = [...services, process.pid];
  try {
    // New PostgreSQL backends fork from the postmaster and inherit its affinity.
    for (const pid of pinned) setAffinity(pid, '0');
  } catch (err) {
    for (const pid of pinned) {
      try { setAffinity(pid, all); } catch { /* a process that ended */ }
    }
    throw new Error(`--pin could not set CPU affinity (taskset): ${(err as Error).message.split('\n')[0]}`);
  }
  const restore = () => {
    for (const pid of [...pids('redis-server'), ...pids('postgres'), process.pid]) {
      try { setAffinity(pid, all); } catch { /* a process that ended */ }
    }
  };
  process.once('SIGINT', () => {
    restore();
    process.exit(130);
  });
  return {
    label: `pinned: Redis, PostgreSQL, the web server and this driver on core 0, each crawler on core${n === 2 ? '' : 's'} ${crawler}`,
    spawnArgs: (node, args) => ['taskset', ['-c', crawler, node, ...args]],
    restore,
  };
}

/** Without `--pin`: node as it is, on every core. */
export const UNPINNED: CpuPinning = {
  label: 'unpinned: Redis, PostgreSQL, the web server and the crawlers share every core',
  spawnArgs: (node, args) => [node, args],
  restore() {},
};

/** pinServices, or one line and exit 2 when it cannot pin (not Linux, one core, a service elsewhere, no permission). */
export function pinOrExit(): CpuPinning {
  try {
    return pinServices();
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    process.exit(2);
  }
}
