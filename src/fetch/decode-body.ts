import { createRequire } from 'node:module';
import iconv from 'iconv-lite';

const require = createRequire(import.meta.url);
// CommonJS only; WHATWG's sniffing algorithm: BOM, then transport label, then <meta> prescan.
const sniff = require('html-encoding-sniffer') as (
  bytes: Uint8Array,
  opts: { transportLayerEncodingLabel?: string; defaultEncoding?: string },
) => string;

const NO_DECLARATION = 'x-focuscrawl-undeclared';
const chardet = require('chardet') as { analyse(bytes: Uint8Array): { name: string; confidence: number }[] };

/**
 * chardet's guesses never taken for an undeclared page: the bytes are not valid UTF-8 (or the
 * guess would not be asked), and UTF-16/32 without a BOM is a guess about binary junk.
 */
const NOT_LEGACY = /^(UTF-8|UTF-16|UTF-32)/i;
/** Below this chardet confidence (0-100) its guess is not trusted. */
const MIN_CONFIDENCE = 30;

/** The charset parameter of a Content-Type header value, if any. */
export function charsetOf(contentType: string): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return m?.[1];
}

const utf8Fatal = new TextDecoder('utf-8', { fatal: true });

/**
 * Multi-byte characters in valid UTF-8 above which a page declared in a legacy encoding is taken
 * to be UTF-8. Text really in GBK is valid UTF-8 by accident with odds of about 1 in 5 per
 * character (measured over Chinese text: 1e-2 for 3 characters, 5e-6 for 8); windows-1252 text
 * much less often. Short texts need the replacement-character test instead.
 */
const PLAUSIBLE_UTF8 = 8;

/** The encoding chosen, and the one the page declared when that was overruled. */
interface Choice {
  encoding: string;
  declared?: string;
}

/**
 * Chooses the encoding of an HTML body: BOM, then the HTTP charset, then the <meta> prescan of the
 * first 1024 bytes. A <meta> (with no HTTP charset) that names a legacy encoding for bytes that
 * are valid UTF-8 is overruled when decoding as declared gives replacement characters, or when
 * the UTF-8 has so many multi-byte characters that the legacy reading is implausible (a UTF-8
 * page under a copied GBK template, say). With no declaration, valid UTF-8 is UTF-8; anything
 * else goes to chardet's statistical detection (GB18030 vs Big5 vs the Japanese and Korean
 * encodings), and to windows-1252 when chardet is unsure.
 */
function chooseEncoding(bytes: Uint8Array, contentType: string): Choice {
  const label = charsetOf(contentType);
  let enc: string;
  try {
    enc = sniff(bytes, { transportLayerEncodingLabel: label, defaultEncoding: NO_DECLARATION });
  } catch {
    enc = NO_DECLARATION;
  }
  // The sniffer knows only the encodings iconv-lite has; TextDecoder has more (ISO-2022-JP,
  // x-mac-cyrillic), and a declaration of one of those is still a declaration.
  if (enc === NO_DECLARATION) enc = whatwgName(label) ?? whatwgName(metaCharset(bytes, PRESCAN_BYTES)) ?? NO_DECLARATION;
  if (enc === NO_DECLARATION || !isSupported(enc)) {
    try {
      utf8Fatal.decode(bytes);
      return { encoding: 'UTF-8' };
    } catch {
      // Not UTF-8 and nothing declared early: browsers go on looking for a <meta> in the head (a
      // page with 100 KB of scripts first was stored as windows-1252), then guess.
      return { encoding: whatwgName(metaCharset(bytes, LATE_META_BYTES)) ?? guessLegacy(bytes) };
    }
  }
  const fromMeta = enc !== 'UTF-8' && !hasBom(bytes) && !(label !== undefined && isSupported(label));
  if (fromMeta) {
    const multibyte = utf8Multibyte(bytes);
    if (multibyte > 0 && (multibyte >= PLAUSIBLE_UTF8 || decoderFor(enc).decode(bytes).includes('\uFFFD'))) {
      return { encoding: 'UTF-8', declared: enc };
    }
  }
  return { encoding: enc };
}

/** The encoding an HTML body is decoded with (see chooseEncoding). */
export function detectEncoding(bytes: Uint8Array, contentType: string): string {
  return chooseEncoding(bytes, contentType).encoding;
}

function hasBom(b: Uint8Array): boolean {
  return (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) || (b[0] === 0xfe && b[1] === 0xff) || (b[0] === 0xff && b[1] === 0xfe);
}

/** Multi-byte characters in `bytes` if they are valid UTF-8, else -1. */
function utf8Multibyte(bytes: Uint8Array): number {
  let leads = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0xc0) leads++;
  if (leads === 0) return 0;
  try {
    utf8Fatal.decode(bytes);
    return leads;
  } catch {
    return -1;
  }
}

/**
 * The decoder of an encoding. A page labelled GB2312 or GBK is decoded with the superset, as
 * browsers do (WHATWG's GBK decoder is GB18030's): Node's strict GBK decoder drops four-byte
 * characters such as 䶮. Big5 is WHATWG's Big5, which is Big5-HKSCS: Node's decoder drops Hong
 * Kong's characters (嘅 咗 喺 邨), iconv-lite's big5hkscs keeps them.
 */
function decoderFor(encoding: string): { decode(bytes: Uint8Array): string } {
  if (/^big5$/i.test(encoding)) return { decode: (bytes) => iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'big5hkscs') };
  return new TextDecoder(/^gbk$/i.test(encoding) ? 'gb18030' : encoding);
}

/** TextDecoder's name for an encoding label, or null when it has none. */
function whatwgName(label: string | undefined): string | null {
  if (!label) return null;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

/**
 * The charset a <meta> in the first `limit` bytes declares, before <body>, loosely read: where
 * the sniffer found none (it drops the encodings iconv-lite lacks, and stops at 1024 bytes).
 */
function metaCharset(bytes: Uint8Array, limit: number): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, limit)).toString('latin1');
  const body = head.search(/<body[\s>]/i);
  // The tag's length is bounded: unbounded, each "<meta" without a ">" scanned the rest of the
  // 256 KB, quadratic in hostile bytes (13 s for "<meta " repeated).
  return /<meta[^>]{1,1024}?charset\s*=\s*["']?([\w.:-]+)/i.exec(body < 0 ? head : head.slice(0, body))?.[1];
}

/** WHATWG's prescan length. */
const PRESCAN_BYTES = 1024;
/** How far into a page without an early declaration a <meta> is looked for. */
const LATE_META_BYTES = 256 * 1024;

function isSupported(enc: string): boolean {
  try {
    new TextDecoder(enc);
    return true;
  } catch {
    return false;
  }
}

function guessLegacy(bytes: Uint8Array): string {
  for (const c of chardet.analyse(bytes)) {
    if (c.confidence < MIN_CONFIDENCE) break;
    const name = NOT_LEGACY.test(c.name) ? null : whatwgName(c.name);
    if (name) return name === 'gbk' ? 'GB18030' : name;
  }
  // chardet is unsure (short texts): double-byte Chinese shows as high bytes in pairs, Latin-1 as
  // lone high bytes between ASCII letters. GB18030 is the encoding of most undeclared Chinese pages.
  return pairedHighBytes(bytes) >= 0.9 && decodesAs(bytes, 'gb18030') ? 'GB18030' : 'windows-1252';
}

/** Share of bytes >= 0x80 that are part of a run of at least two such bytes. */
function pairedHighBytes(bytes: Uint8Array): number {
  let high = 0;
  let paired = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! < 0x80) continue;
    high++;
    if ((i > 0 && bytes[i - 1]! >= 0x80) || (i + 1 < bytes.length && bytes[i + 1]! >= 0x80)) paired++;
  }
  return high ? paired / high : 0;
}

function decodesAs(bytes: Uint8Array, encoding: string): boolean {
  try {
    new TextDecoder(encoding, { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a UTF-8 reading is broken throughout (a legacy page under a UTF-8 label), not in a stray
 * byte (a UTF-8 page with one bad sequence): a quarter or more of its non-ASCII characters are
 * replacement characters.
 */
function mostlyBroken(html: string): boolean {
  let nonAscii = 0;
  let replaced = 0;
  for (let i = 0; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (c < 0x80) continue;
    nonAscii++;
    if (c === 0xfffd) replaced++;
  }
  return replaced * 4 >= nonAscii;
}

/**
 * Decodes an HTML body to a string with the detected encoding. Returns the encoding used too,
 * recorded with the page: 'UTF-8 (declared GBK)' when a mislabelled <meta> was overruled.
 */
export function decodeHtml(bytes: Uint8Array, contentType: string): { html: string; encoding: string } {
  const c = chooseEncoding(bytes, contentType);
  const html = decoderFor(c.encoding).decode(bytes);
  // A server that labels every page UTF-8 (its default) while the page is GBK and says so in its
  // <meta>: the label loses where its reading breaks the bytes and the <meta>'s reading does not.
  // Looked at only when the UTF-8 reading has a replacement character: no cost on other pages.
  if (c.encoding === 'UTF-8' && !c.declared && html.includes('\uFFFD') && !hasBom(bytes) && mostlyBroken(html)) {
    const meta = whatwgName(metaCharset(bytes, PRESCAN_BYTES));
    if (meta && meta !== 'utf-8' && isSupported(meta)) {
      const legacy = decoderFor(meta).decode(bytes);
      const name = meta === 'gbk' ? 'GBK' : meta === 'big5' ? 'Big5' : meta;
      if (!legacy.includes('\uFFFD')) return { html: legacy, encoding: `${name} (declared UTF-8)` };
    }
  }
  return { html, encoding: c.declared ? `${c.encoding} (declared ${c.declared})` : c.encoding };
}
