import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// CommonJS only; WHATWG's sniffing algorithm: BOM, then transport label, then <meta> prescan.
const sniff = require('html-encoding-sniffer') as (
  bytes: Uint8Array,
  opts: { transportLayerEncodingLabel?: string; defaultEncoding?: string },
) => string;

const NO_DECLARATION = 'x-focuscrawl-undeclared';

/** The charset parameter of a Content-Type header value, if any. */
export function charsetOf(contentType: string): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return m?.[1];
}

const utf8Fatal = new TextDecoder('utf-8', { fatal: true });

/**
 * Chooses the encoding of an HTML body: BOM, then the HTTP charset, then the <meta> prescan of the
 * first 1024 bytes; with none of these, valid UTF-8 is taken as UTF-8 and anything else as GB18030
 * when it decodes cleanly (a superset of GBK: the Chinese pages the sources crawled), else windows-1252.
 */
export function detectEncoding(bytes: Uint8Array, contentType: string): string {
  const label = charsetOf(contentType);
  let enc: string;
  try {
    enc = sniff(bytes, { transportLayerEncodingLabel: label, defaultEncoding: NO_DECLARATION });
  } catch {
    enc = NO_DECLARATION;
  }
  if (enc === NO_DECLARATION || !isSupported(enc)) {
    try {
      utf8Fatal.decode(bytes);
      return 'UTF-8';
    } catch {
      return guessLegacy(bytes);
    }
  }
  // A page labelled GB2312 or GBK is decoded with the superset, as browsers do.
  return enc;
}

function isSupported(enc: string): boolean {
  try {
    new TextDecoder(enc);
    return true;
  } catch {
    return false;
  }
}

function guessLegacy(bytes: Uint8Array): string {
  for (const candidate of ['gb18030', 'big5']) {
    try {
      new TextDecoder(candidate, { fatal: true }).decode(bytes);
      return candidate === 'gb18030' ? 'GB18030' : 'Big5';
    } catch {
      /* try the next */
    }
  }
  return 'windows-1252';
}

/** Decodes an HTML body to a string with the detected encoding. Returns the encoding used too. */
export function decodeHtml(bytes: Uint8Array, contentType: string): { html: string; encoding: string } {
  const encoding = detectEncoding(bytes, contentType);
  return { html: new TextDecoder(encoding).decode(bytes), encoding };
}
