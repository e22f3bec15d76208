/**
 * A URL as a browser's address bar shows it: its UTF-8 percent escapes decoded (decodeURI, which
 * keeps the escapes of reserved characters such as %2F). Each run of escapes is decoded on its
 * own, so a run that is no UTF-8 (a GBK page's query) stays as it is while the UTF-8 path before
 * it is decoded.
 */
export function readableUrl(url: string): string {
  if (!url.includes('%')) return url;
  return url.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURI(run);
    } catch {
      return run;
    }
  });
}
