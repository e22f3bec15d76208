/**
 * Characters a URL is never shown with, decoded or not: controls (a terminal runs ESC sequences),
 * whitespace (the URL must stay one word to copy), bidirectional and zero-width formatting (they
 * reorder or hide what is shown), unassigned and private-use code points, U+FFFD, and, as
 * browsers keep them escaped, characters that show as nothing (Hangul fillers, the combining
 * grapheme joiner, variation selectors) or as a slash (／ ∕ ⁄ ⧸, the overlay U+0338), with which two
 * URLs would look the same. Kept as their escapes.
 */
const UNSHOWABLE = /[\p{Cc}\p{Cf}\p{Z}\p{Cn}\p{Co}\u{FFFD}\u{2028}\u{2029}\u{115F}\u{1160}\u{3164}\u{FFA0}\u{034F}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}\u{FF0F}\u{2215}\u{2044}\u{29F8}\u{0338}]/u;

/**
 * A URL as a reader should see it in a terminal: the escapes of non-ASCII UTF-8 characters
 * decoded (/%E6%96%B0%E9%97%BB/ is shown /新闻/), as browsers show them, and nothing else: ASCII
 * escapes (%20, %2F, %25, %0A) stay, a run that is no UTF-8 (a GBK query) stays, and a decoded
 * character that is a control, a space or a formatting mark stays escaped. For output to read;
 * exports, JSON and logs keep the URL as fetched.
 */
export function displayUrl(url: string): string {
  if (!url.includes('%')) return url;
  return url.replace(/(?:%[89A-Fa-f][0-9A-Fa-f])+/g, (run) => {
    let text: string;
    try {
      text = decodeURIComponent(run);
    } catch {
      return run;
    }
    // Decoded character by character, so that one unshowable character keeps only its own escapes.
    let out = '';
    for (const ch of text) out += UNSHOWABLE.test(ch) ? encodeURIComponent(ch) : ch;
    return out;
  });
}
