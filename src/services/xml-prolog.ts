/**
 * Where a document's first element starts: after whitespace, processing instructions (the XML
 * declaration among them), comments and, with `doctype`, a DOCTYPE with its internal subset.
 * A scan with indexOf, linear in the text: the regular expressions it replaces backtracked
 * exponentially on a run of comments or processing instructions (40 of them held a crawl for
 * minutes). -1 when the text ends first.
 */
export function firstElementAt(text: string, doctype: boolean): number {
  let at = 0;
  for (;;) {
    while (at < text.length && isSpace(text.charCodeAt(at))) at++;
    if (text.startsWith('<?', at)) at = after(text, '?>', at + 2);
    else if (text.startsWith('<!--', at)) at = after(text, '-->', at + 4);
    else if (doctype && text.slice(at, at + 9).toUpperCase() === '<!DOCTYPE') at = afterDoctype(text, at + 9);
    else return at < text.length ? at : -1;
    if (at < 0) return -1;
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff;
}

function after(text: string, end: string, from: number): number {
  const i = text.indexOf(end, from);
  return i < 0 ? -1 : i + end.length;
}

/** The end of a DOCTYPE: its '>', past an internal subset in brackets. */
function afterDoctype(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '>') return i + 1;
    if (c === '[') {
      const close = text.indexOf(']', i + 1);
      if (close < 0) return -1;
      i = close;
    }
  }
  return -1;
}
