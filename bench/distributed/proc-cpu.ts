import { readFileSync } from 'node:fs';

/**
 * CPU time (utime + stime, ms) of a process or thread from its /proc stat file, e.g.
 * `/proc/<pid>/stat` or `/proc/<pid>/task/<tid>/stat`; null where /proc cannot tell (not Linux,
 * the process is gone). Linux counts clock ticks of 1/100 s (CLK_TCK 100).
 */
export function procCpuMs(statFile: string): number | null {
  try {
    const stat = readFileSync(statFile, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}
