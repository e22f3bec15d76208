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
  return e?.name === 'MaxRetriesPerRequestError' || /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|Connection terminated/.test(e?.message ?? '');
}
