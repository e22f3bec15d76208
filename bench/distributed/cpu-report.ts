import { readFileSync, writeSync } from 'node:fs';

/**
 * Loaded with `node --import` into a crawler process by bench/distributed/cpu-per-page.ts: prints
 * the process's CPU time (every thread, SQLite's writer thread included) as its last stderr lines,
 * however it exits, with its main thread's CPU and its involuntary context switches (how often
 * other work on the machine took the CPU from it). CPU time, unlike wall time, is barely moved by
 * other work on a shared machine.
 */
process.on('exit', () => {
  const u = process.cpuUsage();
  writeSync(2, `\nCPU-USAGE-US ${u.user} ${u.system}\n`);
  try {
    // utime and stime of the main thread (its task id is the pid), in clock ticks of 10 ms.
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    writeSync(2, `MAIN-THREAD-MS ${(Number(f[11]) + Number(f[12])) * 10} INVOLUNTARY ${process.resourceUsage().involuntaryContextSwitches}\n`);
  } catch {
    /* not Linux: no main-thread figure */
  }
});
