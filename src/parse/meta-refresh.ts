/**
 * The URL of a `<meta http-equiv="refresh">` content, as browsers read it: a delay, `;` or `,`,
 * optionally `url=`, then the URL, quoted or not ("0; url=next.html", "0;URL='next.html'",
 * "0; next.html"). Null for a refresh of the page itself ("30") or an empty URL.
 */
export function metaRefreshUrl(content: string): string | null {
  const m = /^\s*[\d.]+\s*[;,]\s*(?:url\s*=\s*)?([\s\S]*)$/i.exec(content);
  let v = m?.[1]?.trim() ?? '';
  const q = v[0];
  if (q === '"' || q === "'") {
    const end = v.indexOf(q, 1);
    v = v.slice(1, end < 0 ? undefined : end).trim();
  }
  return v && !/^url\s*=/i.test(v) ? v : null;
}
