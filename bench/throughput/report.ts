/** What each contender process prints as its last line (JSON). */
export interface ContenderResult {
  name: string;
  pages: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

/** Measures this process from now to `finish()`, for the contender scripts. */
export function measure(name: string): { finish(pages: number): ContenderResult } {
  const t0 = performance.now();
  const u0 = process.resourceUsage();
  return {
    finish(pages) {
      const u = process.resourceUsage();
      return {
        name,
        pages,
        seconds: (performance.now() - t0) / 1000,
        cpuSeconds: (u.userCPUTime - u0.userCPUTime + u.systemCPUTime - u0.systemCPUTime) / 1e6,
        peakRssMb: u.maxRSS / 1024,
      };
    },
  };
}

export function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf('--' + name);
  if (i >= 0 && process.argv[i + 1] !== undefined) return process.argv[i + 1]!;
  if (fallback === undefined) throw new Error(`missing --${name}`);
  return fallback;
}
