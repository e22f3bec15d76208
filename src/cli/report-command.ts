import { basename } from 'node:path';
import { FocusCrawlError } from '../errors.js';
import type { Command } from 'commander';
import type { SharedFlags } from '../distributed/shared-target.js';
import { checkDashboardFiles } from '../dashboard/static-files.js';
import { loadTruth } from '../dashboard/truth-file.js';
import { openReader, redisProblem } from './open-reader.js';
import { withSharedOptions } from './shared-options.js';

export function registerReport(program: Command): void {
  withSharedOptions(program.command('report').description("a static HTML report of a crawl: the dashboard's charts and tables in one folder, readable offline"))
    .option('--db <file>', 'crawl database (default focuscrawl.db)')
    .requiredOption('--out <dir>', 'folder to write (index.html and data.json)')
    .option('--truth <file>', 'ground truth for a recall curve: the relevant pages, one URL a line')
    .option('--force', 'write into a folder whose index.html is no focuscrawl report, or to a folder named like a file (x.html)')
    .action(async (o: SharedFlags & { db?: string; out: string; truth?: string; force?: boolean }) => {
      if (!o.out.trim()) throw new FocusCrawlError('USAGE', '--out is empty: name the folder to write the report to');
      const truth = o.truth !== undefined ? loadTruth(o.truth) : null;
      checkDashboardFiles();
      const open = await openReader(o, { live: true });
      const problem = redisProblem(open);
      if (problem) process.stderr.write(`focuscrawl: ${problem}\n`);
      try {
        const { writeReport } = await import('../dashboard/write-report.js');
        // The file's name, as serve shows it: a report is shared, and the path tells of the machine.
        const label = open.label.startsWith("crawl '") ? open.label : basename(open.label);
        const r = await writeReport({ reader: open.reader, label, runningNow: () => open.runningNow(), liveness: () => open.liveness(), truth }, o.out, { force: o.force === true });
        process.stdout.write(`wrote ${r.index} (${open.label} as of ${r.snapshotAt})\n`);
      } finally {
        await open.close();
      }
    });
}
