import { readFileSync } from 'node:fs';

/**
 * The heaviest functions of a `node --cpu-prof` profile by self time, and self time by source
 * (our files, each package, Node internals), so two profiles (a worker, the embedded crawler) can
 * be compared where a flame graph cannot be read side by side.
 *
 *   node dist/bench/distributed/profile-top.js FILE.cpuprofile [--top 40]
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, ...rest] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top FILE.cpuprofile [--top N]');
const top = Number(rest[rest.indexOf('--top') + 1] ?? 40) || 40;
const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

function source(url: string): string {
  if (!url) return '(native, gc, idle)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  if (url.startsWith('node:')) return 'node internals';
  const d = /dist\/(.*)$/.exec(url);
  return d ? d[1]! : url;
}

const fns = new Map<string, number>();
const sources = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  const f = n.callFrame;
  const name = `${f.functionName || '(anonymous)'} ${source(f.url)}:${f.lineNumber + 1}`;
  fns.set(name, (fns.get(name) ?? 0) + us);
  const s = f.functionName === '(idle)' ? '(idle)' : f.functionName === '(garbage collector)' ? '(gc)' : f.functionName === '(program)' ? '(program)' : source(f.url);
  sources.set(s, (sources.get(s) ?? 0) + us);
}
const pct = (us: number) => ((100 * us) / total).toFixed(1).padStart(5) + '%';
const ms = (us: number) => (us / 1000).toFixed(0).padStart(7) + ' ms';
process.stdout.write(`${file}: ${(total / 1000).toFixed(0)} ms sampled\n\nby source\n`);
for (const [s, us] of [...sources].sort((a, b) => b[1] - a[1]).slice(0, 30)) process.stdout.write(`${ms(us)} ${pct(us)}  ${s}\n`);
process.stdout.write('\nby function (self)\n');
for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${ms(us)} ${pct(us)}  ${f}\n`);
