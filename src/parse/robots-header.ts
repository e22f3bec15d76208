/** What a page's X-Robots-Tag header asks of this crawler. */
export interface RobotsHeader {
  noindex: boolean;
  nofollow: boolean;
}

/** Directives that carry a value after a colon, so that "name:" before them is not a user agent. */
const VALUED = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);
/**
 * A user agent's product token: what may stand before a scoping colon. The date of
 * unavailable_after holds commas and colons ("Sunday, 01-Sep-24 10:00:00 UTC"), and its pieces
 * are no crawler's name.
 */
const AGENT = /^[a-z][a-z0-9._-]*$/;

/**
 * Reads X-Robots-Tag, the header form of `<meta name="robots">` (Google's and Bing's syntax):
 * comma-separated directives, each header optionally led by a user agent and a colon
 * ("otherbot: noindex, nofollow"), which then scopes the directives after it in that header.
 * The fetcher joins several X-Robots-Tag headers with a newline (http-fetcher.ts), so a scope
 * ends with its header. Only `noindex`, `nofollow` and `none` change what a crawler does; the
 * rest (snippets, previews, unavailable_after) concern search results.
 */
export function robotsHeader(value: string | undefined, agent: string): RobotsHeader {
  const out: RobotsHeader = { noindex: false, nofollow: false };
  if (!value) return out;
  const me = agent.toLowerCase();
  for (const line of value.split('\n')) {
    let scope: string | null = null;
    for (let token of line.split(',')) {
      token = token.trim().toLowerCase();
      const colon = token.indexOf(':');
      const name = colon > 0 ? token.slice(0, colon).trim() : '';
      if (AGENT.test(name) && !VALUED.has(name)) {
        scope = name;
        token = token.slice(colon + 1).trim();
      }
      if (scope !== null && scope !== me) continue;
      if (token === 'noindex' || token === 'none') out.noindex = true;
      if (token === 'nofollow' || token === 'none') out.nofollow = true;
    }
  }
  return out;
}
