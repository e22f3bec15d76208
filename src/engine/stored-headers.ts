/**
 * A page's headers as stored: without Set-Cookie, whose values are often a session's key (the
 * crawl sends cookies back from memory, cookie-jars.ts, and keeps none). A WARC recording keeps
 * them, as an archive of what was received.
 */
export function storedHeaders(headers: Record<string, string>): Record<string, string> {
  if (!('set-cookie' in headers)) return headers;
  const { 'set-cookie': _dropped, ...rest } = headers;
  return rest;
}
