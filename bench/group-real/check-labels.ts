import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureGroupSite, labelReport } from './group-build.js';
import { GROUP_SITES } from './group-sites.js';

/**
 * Builds the group's sites (when missing) and prints the labels check of group-build.ts:
 *   npm run build && node dist/bench/group-real/check-labels.js [--rebuild]
 */
const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bench', 'group-real', 'out');
const rebuild = process.argv.includes('--rebuild');
for (const [i, s] of GROUP_SITES.entries()) {
  const built = ensureGroupSite(outDir, s, i, rebuild);
  process.stdout.write(`# ${s.id} (${s.package} ${built.version}): ${built.urls.length} pages, ${built.reachable} reachable\n`);
  for (const line of labelReport(outDir, s, i, built)) process.stdout.write(line + '\n');
}
