import { FocusCrawlError } from '../errors.js';

/** How much of a bad escape an error shows: enough to find it, not a pasted page. */
const SHOWN = 24;

/**
 * The escape that makes `raw` undecodable: a `%` not followed by two hex digits, or a run of
 * `%XX` escapes that is not UTF-8 (`%E4` alone). Null when `raw` decodes.
 */
function badEscape(raw: string): string | null {
  const lone = /%(?![0-9A-Fa-f]{2})[^&]{0,2}/.exec(raw);
  if (lone) return lone[0];
  for (const run of raw.match(/(?:%[0-9A-Fa-f]{2})+/g) ?? []) {
    try {
      decodeURIComponent(run);
    } catch {
      return run.length > SHOWN ? `${run.slice(0, SHOWN)}…` : run;
    }
  }
  return null;
}

/** `raw` percent-decoded, or a USAGE error (the server's 400) naming `what` and the bad escape. */
export function decodeStrict(raw: string, what: string): string {
  const bad = badEscape(raw);
  if (bad !== null) throw new FocusCrawlError('USAGE', `${what} has a malformed percent-escape '${bad}' (UTF-8 bytes as %XX expected)`);
  return decodeURIComponent(raw);
}

/**
 * A request's query string, decoded strictly. URLSearchParams keeps `%zz` as it is and turns a
 * broken UTF-8 escape into U+FFFD, so a search for either ran quietly on text nobody typed; here
 * either is a USAGE error (the server's 400) naming the parameter and the escape. First value of
 * each name wins; `+` is a space, as forms send it.
 */
export function strictQuery(search: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const [rawName, rawValue] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    const name = decodeStrict(rawName.replaceAll('+', ' '), 'a query parameter name');
    const value = decodeStrict(rawValue.replaceAll('+', ' '), `query parameter '${name}'`);
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}
