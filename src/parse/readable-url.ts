/**
 * A URL as a browser's address bar shows it: its UTF-8 percent escapes decoded (decodeURI, which
 * keeps the escapes of reserved characters such as %2F). A URL whose escapes are no UTF-8 (a
 * GBK page's query) is returned as it is.
 */
export function readableUrl(url: string): string {
  if (!url.includes('%')) return url;
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}
