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
