import type { Command } from 'commander';
import type { SharedFlags } from '../distributed/shared-target.js';
import { dashboardToken, isLoopback } from '../dashboard/access.js';
import type { startDashboard } from '../dashboard/dashboard-server.js';
import { checkDashboardFiles } from '../dashboard/static-files.js';
import { loadTruth } from '../dashboard/truth-file.js';
import { openReader, redisProblem } from './open-reader.js';
import { tcpPort } from './option-parsers.js';
import { withSharedOptions } from './shared-options.js';

export function registerServe(program: Command): void {
  withSharedOptions(program.command('serve').description('a live web dashboard over a running or finished crawl (docs/dashboard.md)'))
    .option('--db <file>', 'crawl database (default focuscrawl.db)')
    .option('--port <n>', 'port (default 8470; 0 picks a free one)', tcpPort(true), 8470)
    .option('--host <address>', 'address to bind (default 127.0.0.1; any non-loopback address requires a token)', '127.0.0.1')
    .option('--token <token>', 'require this token of every request (generated and printed when bound off loopback)')
    .option('--truth <file>', 'ground truth for a recall curve: the relevant pages, one URL a line')
    .action(async (o: SharedFlags & { db?: string; port: number; host: string; token?: string; truth?: string }) => {
      // Checked before anything is opened: bad flags and a missing build fail with nothing started.
      const token = dashboardToken(o.host, o.token);
      const truth = o.truth !== undefined ? loadTruth(o.truth) : null;
      checkDashboardFiles();
      const open = await openReader(o, { live: true });
      const problem = redisProblem(open);
      if (problem) process.stderr.write(`focuscrawl: ${problem}\n`);
      let dash: Awaited<ReturnType<typeof startDashboard>>;
      try {
        dash = await (await import('../dashboard/dashboard-server.js')).startDashboard(open, { host: o.host, port: o.port, token, truth });
      } catch (err) {
        await open.close();
        throw err;
      }
      const why = token !== null && !isLoopback(o.host) && o.token === undefined ? ' (a new token: pass --token to keep one across restarts)' : '';
      process.stdout.write(`focuscrawl: dashboard of ${open.label} at ${dash.url}${why}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await dash.close();
      await open.close();
    });
}
