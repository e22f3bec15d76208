import iconv from 'iconv-lite';

/**
 * A link's query written in the page's own encoding, as a browser requests it (WHATWG URL: the
 * query of a relative URL is percent-encoded in the document's encoding, the path always in
 * UTF-8). On a GBK page `/search?q=中文` is `?q=%D6%D0%CE%C4`; encoded as UTF-8 it asks the
 * server for other bytes than its own links do. Characters the encoding lacks become `&#N;`, as
 * browsers send them. Pages in UTF-8 or UTF-16 (whose links browsers encode as UTF-8), and links
 * whose query is ASCII, are returned unchanged.
 */
/** An encoding whose pages' links browsers do not encode as UTF-8 (all but UTF-8 and UTF-16). */
export const isLegacyEncoding = (encoding: string): boolean => !/^utf-?(8|16)/i.test(encoding);

/** iconv-lite's codec for an encoding: WHATWG's Big5 is Big5-HKSCS (Hong Kong's characters, 嘅 咗 邨). */
export const iconvName = (encoding: string): string => (/^big5$/i.test(encoding) ? 'big5hkscs' : encoding);

export function queryInPageEncoding(href: string, encoding: string): string {
  encoding = iconvName(encoding);
  const q = href.indexOf('?');
  if (q < 0 || !isLegacyEncoding(encoding) || !/[^\x00-\x7f]/.test(href.slice(q))) return href;
  if (!iconv.encodingExists(encoding)) return href;
  const hash = href.indexOf('#', q);
  const query = hash < 0 ? href.slice(q + 1) : href.slice(q + 1, hash);
  let out = '';
  for (const ch of query) {
    if (ch.charCodeAt(0) < 0x80) {
      out += ch;
      continue;
    }
    const bytes = iconv.encode(ch, encoding);
    // iconv-lite writes '?' for a character the encoding lacks.
    const fits = !(bytes.length === 1 && bytes[0] === 0x3f);
    const raw = fits ? bytes : Buffer.from(`&#${ch.codePointAt(0)};`, 'latin1');
    for (const b of raw) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return href.slice(0, q + 1) + out + (hash < 0 ? '' : href.slice(hash));
}
