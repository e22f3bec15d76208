/**
 * Errors with a stable `code` so callers (and the CLI's exit codes) can branch on them
 * without parsing messages.
 */
export type FocusCrawlErrorCode =
  | 'USAGE' // bad flag or option value: CLI exit code 2
  | 'CONFIG' // invalid config or topic file: exit code 2
  | 'IO' // unreadable or unwritable file: exit code 2
  | 'FETCH' // a fetch failed for a reason recorded on the URL
  | 'STORE'; // the repository is unusable (wrong schema, locked)

export class FocusCrawlError extends Error {
  readonly code: FocusCrawlErrorCode;
  constructor(code: FocusCrawlErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FocusCrawlError';
    this.code = code;
  }
}

/** Errors the CLI reports as one line with exit code 2. */
export function isUserError(err: unknown): err is FocusCrawlError {
  return err instanceof FocusCrawlError && (err.code === 'USAGE' || err.code === 'CONFIG' || err.code === 'IO');
}

/**
 * A failure of the crawl's own storage (Redis, PostgreSQL, the database file), as opposed to a
 * fault of the URL being processed: the URL must not be recorded as failed for it (its lease
 * expires and it is fetched again), and the run stops.
 */
export function isBackendFailure(err: unknown): boolean {
  if (err instanceof FocusCrawlError) return err.code === 'STORE';
  const e = err as { name?: string; message?: string } | null;
  // ReplyError: a command Redis refused (OOM under maxmemory, a read-only replica), which the URL did not cause.
  return e?.name === 'MaxRetriesPerRequestError' || e?.name === 'ReplyError' || /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|Connection terminated/.test(e?.message ?? '');
}

/**
 * A reason as the crawl log keeps it: one line (OpenSSL and other libraries put newlines in their
 * messages), at most about 500 characters, so that `status` and exports print one line a URL. A
 * longer one keeps its start and its end, where the cause usually is ("redirect to <a long URL>
 * not followed: out of scope").
 */
export function reasonLine(reason: string): string {
  const line = reason.replace(/\s+/g, ' ').trim();
  return line.length > 500 ? `${line.slice(0, 250)}…${line.slice(-250)}` : line;
}

/** An unexpected error in one line: its name and message, and where it was thrown (the first frame). */
export function internalErrorLine(err: unknown): string {
  if (!(err instanceof Error)) return reasonLine(String(err));
  const frame = /\n\s+at (.+)/.exec(err.stack ?? '')?.[1];
  return reasonLine(`${err.name}: ${err.message}${frame ? ` (at ${frame})` : ''}`);
}

/** What a file system error means, in words (with the code, which users search for): "no such file (ENOENT)". */
const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EMFILE: 'too many open files',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

export function fileError(err: unknown, op: 'read' | 'write' = 'read'): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  // Writing, what is missing is the folder the file goes in.
  if (code === 'ENOENT' && op === 'write') return `its folder does not exist (${code})`;
  if (code && FILE_ERRORS[code]) return `${FILE_ERRORS[code]} (${code})`;
  return code ?? (err as Error | null)?.message ?? String(err);
}
