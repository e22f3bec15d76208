import { charsetOf } from '../fetch/decode-body.js';

/**
 * Decodes an XML document (a capabilities answer, a sitemap) as text: a BOM, then the
 * charset of the HTTP Content-Type, which RFC 7303 puts before the document's own declaration,
 * then the XML declaration's encoding, then UTF-8. A label no
 * decoder knows is passed over. Sitemaps must be UTF-8 by the protocol, but servers also send
 * them in UTF-16 or Latin-1 with the header or the declaration saying so.
 */
export function xmlText(body: Uint8Array, contentType = ''): string {
  if (body[0] === 0xfe && body[1] === 0xff) return new TextDecoder('utf-16be').decode(body);
  if (body[0] === 0xff && body[1] === 0xfe) return new TextDecoder('utf-16le').decode(body);
  // A UTF-8 BOM too is before the header's charset (RFC 7303 3.3): servers label UTF-8 files ISO-8859-1.
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return new TextDecoder('utf-8').decode(body);
  const head = new TextDecoder('latin1').decode(body.subarray(0, 200));
  // A declaration read as ASCII cannot be in UTF-16: one that says so (with no BOM) is wrong about its bytes.
  const named = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  const declared = named && /^utf-?16/i.test(named) ? undefined : named;
  for (const label of [charsetOf(contentType), declared]) {
    if (label === undefined) continue;
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      // Not a label TextDecoder knows: the next source says what the bytes are.
    }
  }
  return new TextDecoder('utf-8').decode(body);
}
