import { Command, CommanderError, Help } from 'commander';
import { isUserError } from '../errors.js';
import { isCorruptionError } from '../store/db-integrity.js';
import { registerCrawl } from './crawl-command.js';
import { registerDemo } from './demo-command.js';
import { registerExport } from './export-command.js';
import { registerResume } from './resume-command.js';
import { registerSearch } from './search-command.js';
import { registerStatus } from './status-command.js';
import { registerScore } from './score-command.js';
import { registerTopic } from './topic-command.js';
import { registerBench } from './bench-command.js';
import { registerServices } from './services-command.js';
import { registerGroup } from './group-command.js';
import { registerWorker } from './worker-command.js';
import { registerRebuild } from './rebuild-command.js';
import { registerDrop } from './drop-command.js';
import { registerServe } from './serve-command.js';
import { registerReport } from './report-command.js';

const program = new Command('focuscrawl')
  .description('a focused web crawler: find the pages about one topic while fetching few others')
  .version('0.1.0')
  .exitOverride()
  .configureOutput({ outputError: (str, write) => write(str.startsWith('error:') ? 'focuscrawl: ' + str : str) })
  // Our descriptions say their defaults in words ("default 8470; 0 picks a free one"): commander's
  // own "(default: 8470)" after them would say it twice.
  .configureHelp({
    optionDescription(this: Help, option) {
      const own = Help.prototype.optionDescription.call(this, option);
      return /\(default [^)]*\)/.test(option.description) ? own.replace(/ \(default: [^)]*\)$/, '') : own;
    },
  });

registerCrawl(program);
registerWorker(program);
registerResume(program);
registerRebuild(program);
registerDrop(program);
registerStatus(program);
registerSearch(program);
registerExport(program);
registerServices(program);
registerServe(program);
registerReport(program);
registerGroup(program);
registerDemo(program);
registerScore(program);
registerTopic(program);
registerBench(program);
const overrideAll = (c: Command) => c.commands.forEach((sub) => (sub.exitOverride(), overrideAll(sub)));
overrideAll(program);

// `focuscrawl export ... | head` closes the pipe early: that is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  // A full disk or /dev/full behind a redirection: a thrown error here would print a stack trace.
  process.stderr.write(`focuscrawl: cannot write standard output: ${err.message}\n`);
  process.exit(2);
});

/**
 * Errors of the machine rather than of focuscrawl (a read-only file or file system, a full disk):
 * said in one line with exit 2, like bad input, since the user can act on them.
 */
function environmentError(err: unknown): string | null {
  const e = err as { code?: unknown; message?: string; path?: string } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (/^SQLITE_(READONLY|CANTOPEN|FULL|PERM|IOERR)/.test(code)) return `the crawl database cannot be written: ${e!.message} (${code})`;
  if (['ENOSPC', 'EROFS', 'EACCES', 'EPERM', 'EDQUOT', 'EIO'].includes(code)) return e!.message ?? code;
  return null;
}

/**
 * A user error as one printable line: a message quoting a line of a binary file would otherwise
 * write its control bytes (an escape sequence to the terminal) and its newlines.
 */
function oneLine(message: string): string {
  const printable = message.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return printable.length > 1000 ? `${printable.slice(0, 1000)}…` : printable;
}

try {
  if (process.argv.length <= 2) {
    // No command is a usage error, not a success: scripts must not take it for a crawl.
    program.outputHelp({ error: true });
    process.exitCode = 2;
  } else {
    await program.parseAsync(process.argv);
  }
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? 0 : 2;
  } else if (isUserError(err) || (err as { code?: string })?.code === 'STORE') {
    process.stderr.write(`focuscrawl: ${oneLine((err as Error).message)}\n`);
    process.exitCode = 2;
  } else if (environmentError(err) !== null) {
    process.stderr.write(`focuscrawl: ${oneLine(environmentError(err)!)}\n`);
    process.exitCode = 2;
  } else if (isCorruptionError(err)) {
    // Damage the open-time check could not see (it appeared since, or in a page it skips).
    process.stderr.write(`focuscrawl: the crawl database is damaged (${(err as Error).message}): restore it from a backup, or crawl again into a new --db\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`focuscrawl: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
}
