import type { Command } from 'commander';
import type { SharedFlags } from '../distributed/shared-target.js';
import { writeReport } from '../dashboard/write-report.js';
import { checkDashboardFiles } from '../dashboard/static-files.js';
import { openReader } from './open-reader.js';
import { withSharedOptions } from './shared-options.js';

export function registerReport(program: Command): void {
  withSharedOptions(program.command('report').description("a static HTML report of a crawl: the dashboard's charts and tables in one folder, readable offline"))
    .option('--db <file>', 'crawl database (default focuscrawl.db)')
    .requiredOption('--out <dir>', 'folder to write (index.html and data.json)')
    .action(async (o: SharedFlags & { db?: string; out: string }) => {
      checkDashboardFiles();
      const open = await openReader(o);
      try {
        const r = await writeReport(open, o.out);
        process.stdout.write(`wrote ${r.index} (${open.label} as of ${r.snapshotAt})\n`);
      } finally {
        await open.close();
      }
    });
}
