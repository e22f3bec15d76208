/**
 * Which ended URLs made a request (the page budgets count those), by their error reason, as code
 * and as SQL. In a file of its own, without the fetcher: status, search and export read it.
 */

/** How a refusal of a private address ends its reason (address-policy.ts writes it). */
export const PRIVATE_ADDRESS_HINT = '(pass --allow-private to fetch it)';

/** Errors that end a URL without a request of its own: not fetches, so not in the page budget. */
export const UNREACHABLE_PREFIX = 'host unreachable: ';
export const ROBOTS_UNREACHABLE_PREFIX = 'robots.txt unreachable';

export function madeNoRequest(reason: string): boolean {
  return reason.startsWith(UNREACHABLE_PREFIX) || reason.startsWith(ROBOTS_UNREACHABLE_PREFIX) || refusedAsPrivate(reason);
}

/** Refused before connecting: the URL's own host is private (a redirect to one came after a request). */
const refusedAsPrivate = (reason: string): boolean => reason.endsWith(PRIVATE_ADDRESS_HINT) && !reason.startsWith('redirect to ');

/** madeNoRequest as an SQL condition on the `urls` table's columns (SQLite and PostgreSQL alike); `t`: the table's alias in the query. */
export function madeNoRequestSql(t = ''): string {
  const reason = t ? `${t}.reason` : 'reason';
  return `(${reason} LIKE '${UNREACHABLE_PREFIX}%' OR ${reason} LIKE '${ROBOTS_UNREACHABLE_PREFIX}%' OR (${reason} LIKE '%${PRIVATE_ADDRESS_HINT}' AND ${reason} NOT LIKE 'redirect to %'))`;
}

/**
 * A fetch, as the page budgets count it, as an SQL condition on the `urls` table: done, or an
 * error after a request (state 2, or 3 and not madeNoRequest).
 */
export function fetchedSql(t = ''): string {
  const state = t ? `${t}.state` : 'state';
  return `(${state} = 2 OR (${state} = 3 AND NOT ${madeNoRequestSql(t)}))`;
}
