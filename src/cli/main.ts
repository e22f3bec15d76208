import { Command, CommanderError, Help } from 'commander';
import { isUserError } from '../errors.js';
import { isCorruptionError } from '../store/db-integrity.js';

const program = new Command('focuscrawl')
  .description('a focused web crawler: find the pages about one topic while fetching few others')
  .version('0.1.0')
  .exitOverride()
  // Commander quotes the argument it refused: one with a line break ('X: a\r\nY: b') made two
  // lines, now shown escaped; its own "(Did you mean …?)" goes on the same line.
  .configureOutput({ outputError: (str, write) => write(str.startsWith('error:') ? `focuscrawl: ${oneLine(str.replace(/\n$/, '').replace(/\n\(Did you mean/g, ' (Did you mean'))}\n` : str) })
  // Our descriptions say their defaults in words ("default 8470; 0 picks a free one"): commander's
  // own "(default: 8470)" after them would say it twice.
  .configureHelp({
    optionDescription(this: Help, option) {
      const own = Help.prototype.optionDescription.call(this, option);
      return /\(default\b[^)]*\)/.test(option.description) ? own.replace(/ \(default: [^)]*\)$/, '') : own;
    },
  });

/**
 * Every command in help's order, loaded when used: a command's module brings its libraries (the
 * HTML parser, undici, SQLite, zod, yaml...). `--version` then loads none; most commands share
 * much of the same stack, so they gain less (bench/RESULTS.md, CLI start-up).
 */
const COMMANDS: [string, () => Promise<(program: Command) => void>][] = [
  ['crawl', async () => (await import('./crawl-command.js')).registerCrawl],
  ['worker', async () => (await import('./worker-command.js')).registerWorker],
  ['resume', async () => (await import('./resume-command.js')).registerResume],
  ['rebuild', async () => (await import('./rebuild-command.js')).registerRebuild],
  ['drop', async () => (await import('./drop-command.js')).registerDrop],
  ['status', async () => (await import('./status-command.js')).registerStatus],
  ['search', async () => (await import('./search-command.js')).registerSearch],
  ['export', async () => (await import('./export-command.js')).registerExport],
  ['services', async () => (await import('./services-command.js')).registerServices],
  ['serve', async () => (await import('./serve-command.js')).registerServe],
  ['report', async () => (await import('./report-command.js')).registerReport],
  ['group', async () => (await import('./group-command.js')).registerGroup],
  ['demo', async () => (await import('./demo-command.js')).registerDemo],
  ['score', async () => (await import('./score-command.js')).registerScore],
  ['topic', async () => (await import('./topic-command.js')).registerTopic],
  ['bench', async () => (await import('./bench-command.js')).registerBench],
];

// The program's own options are -V and -h, so the first word that is no option names the command.
// Help, an unknown command (commander's "did you mean") and no command at all need every one.
const args = process.argv.slice(2);
const at = args.findIndex((a) => !a.startsWith('-'));
const named = at < 0 ? undefined : args[at];
const before = at < 0 ? args : args.slice(0, at);
// `focuscrawl -h crawl` is the program's help, which lists every command.
const programHelp = before.some((a) => a === '-h' || a === '--help');
const versionOnly = named === undefined && !programHelp && args.some((a) => a === '-V' || a === '--version');
const used = versionOnly || programHelp ? [] : COMMANDS.filter(([name]) => name === named);
for (const [, load] of used.length || versionOnly ? used : COMMANDS) (await load())(program);
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
