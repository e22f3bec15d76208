import { writeSync } from 'node:fs';

/**
 * Loaded with `node --import` into a crawler process by bench/distributed/cpu-per-page.ts: prints
 * the process's CPU time (every thread, SQLite's writer thread included) as its last stderr line,
 * however it exits. CPU time, unlike wall time, is barely moved by other work on a shared machine.
 */
process.on('exit', () => {
  const u = process.cpuUsage();
  writeSync(2, `\nCPU-USAGE-US ${u.user} ${u.system}\n`);
});
