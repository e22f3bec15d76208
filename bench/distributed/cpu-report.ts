import { readdirSync, writeSync } from 'node:fs';
import { procCpuMs } from './proc-cpu.js';

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
  const mainMs = procCpuMs(`/proc/self/task/${process.pid}/stat`);
  // Not Linux: no main-thread figure.
  if (mainMs !== null) writeSync(2, `MAIN-THREAD-MS ${mainMs} INVOLUNTARY ${process.resourceUsage().involuntaryContextSwitches}\n`);
  // The threads still alive besides the main one: V8's garbage-collector helpers and libuv's pool
  // (Node names none of them). Threads that ended before (SQLite's writer) are the remainder.
  let others = 0;
  try {
    for (const tid of readdirSync('/proc/self/task')) if (Number(tid) !== process.pid) others += procCpuMs(`/proc/self/task/${tid}/stat`) ?? 0;
    writeSync(2, `OTHER-THREADS-MS ${others}\n`);
  } catch {
    // Not Linux.
  }
});
