/**
 * Decodes an XML document (a capabilities answer, a sitemap) as text: a UTF-16 BOM, then the XML
 * declaration's encoding, then UTF-8 (whose BOM TextDecoder drops). Sitemaps must be UTF-8 by the
 * protocol, but servers also send them in UTF-16 or Latin-1 with the declaration saying so.
 */
export function xmlText(body: Uint8Array): string {
  if (body[0] === 0xfe && body[1] === 0xff) return new TextDecoder('utf-16be').decode(body);
  if (body[0] === 0xff && body[1] === 0xfe) return new TextDecoder('utf-16le').decode(body);
  const head = new TextDecoder('latin1').decode(body.subarray(0, 200));
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
