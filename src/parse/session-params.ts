/**
 * Session ids in URLs. A server that cannot set a cookie (and a crawler keeps none) writes the
 * session into every link it serves, so each page links to the whole site again under a new name
 * and the seen test never recognises a page twice. normalizeUrl removes them from every URL, seeds
 * included, so that one page has one URL.
 *
 * Only names that carry nothing but a session are removed whatever their value. Two short names
 * are also common as real parameters, so they go only with a value shaped like a session token:
 * `sid` (phpBB: 32 hex digits; elsewhere a story or site id such as `sid=123`) and `s` (vBulletin:
 * 32 hex digits; WordPress: the search words).
 */

/** Query or path parameter names (lower case) that only ever hold a session id. */
const SESSION_NAMES = new Set([
  'jsessionid', // Java servlets (also as a ;jsessionid= path parameter)
  'phpsessid', // PHP
  'sessionid',
  'session_id',
  'sessid',
  'cfid', // ColdFusion, always paired with cftoken
  'cftoken',
  'zenid', // Zen Cart
  'oscsid', // osCommerce
]);

/** A value that looks generated: 16 or more letters and digits, with at least one of each. */
const TOKEN = /^(?=[^a-z]*[a-z])(?=\D*\d)[a-z0-9]{16,}$/i;
const HEX32 = /^[0-9a-f]{32}$/i;

/**
 * A cheap test for "may hold a session id", on a normalised URL or a link as written; false means
 * stripSessionIds would return it unchanged. The fast path of link resolution uses it to send
 * such links through normalizeUrl.
 */
export const SESSION_HINT = /[;?&](?:jsessionid|phpsessid|sessionid|session_id|sessid|cfid|cftoken|zenid|oscsid|aspsessionid[a-z]*|sid|s)=|\/\([a-z]\(/i;

/** True for a `name=value` query pair that is a session id. */
export function isSessionParam(pair: string): boolean {
  const eq = pair.indexOf('=');
  const name = (eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
  const value = eq < 0 ? '' : pair.slice(eq + 1);
  if (SESSION_NAMES.has(name)) return true;
  // ASP classic: ASPSESSIONID followed by 8 letters that change with the server process.
  if (name.startsWith('aspsessionid')) return true;
  if (name === 'sid') return TOKEN.test(value) || HEX32.test(value);
  if (name === 's') return HEX32.test(value);
  return false;
}

// `;jsessionid=...` and friends as path parameters (Tomcat writes them before the query).
const PATH_PARAM = /;(?:jsessionid|phpsessid|sessionid|session_id|sessid)=[^;/?]*/gi;
// ASP.NET cookieless sessions: a whole path segment such as /(S(lit3py55t21z5v55vlm25s55))/.
const ASPNET_SEGMENT = /\/\((?:[A-Z]\([^()/]*\))+\)(?=\/)/g;

/**
 * Removes session ids from a normalised absolute URL (no fragment): path parameters, ASP.NET
 * cookieless segments and query pairs, keeping the order of everything else.
 */
export function stripSessionIds(url: string): string {
  if (!SESSION_HINT.test(url)) return url;
  const q = url.indexOf('?');
  let head = q < 0 ? url : url.slice(0, q);
  let query = q < 0 ? '' : url.slice(q + 1);
  head = head.replace(PATH_PARAM, '').replace(ASPNET_SEGMENT, '');
  if (query) query = query.split('&').filter((p) => !isSessionParam(p)).join('&');
  return query ? `${head}?${query}` : head;
}
