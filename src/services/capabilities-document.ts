import { firstElementAt } from './xml-prolog.js';
import { xmlText } from '../parse/xml-text.js';
import { emptyFindings, type ServiceFindings } from './service-record.js';
import type { ProbeAnswer, Verdict } from './detector.js';
import { childText, descendants, parseXml, XmlError, type XmlElement } from './xml-tree.js';


const HTML_TAG = /^<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i;

/**
 * A body decoded and parsed once, whichever detectors read it: a .xml document that the first
 * detector rejects is judged by the others its root points to, and parsing a 20 MB document up to
 * four times took a minute.
 */
const PARSED = new WeakMap<Uint8Array, { html: boolean; root: XmlElement | XmlError }>();

function parsedAnswer(body: Uint8Array, contentType: string): { html: boolean; root: XmlElement | XmlError } {
  let p = PARSED.get(body);
  if (!p) {
    const text = xmlText(body, contentType);
    const html = startsAsHtml(text);
    let root: XmlElement | XmlError;
    try {
      root = html ? new XmlError('an HTML page') : parseXml(text);
    } catch (err) {
      if (!(err instanceof XmlError)) throw err;
      root = err;
    }
    p = { html, root };
    PARSED.set(body, p);
  }
  return p;
}

function startsAsHtml(text: string): boolean {
  const at = firstElementAt(text, false);
  return at >= 0 && HTML_TAG.test(text.slice(at, at + 20));
}

/** The status and reason of an OGC exception report (WMS ServiceExceptionReport, OWS ExceptionReport). */
export function exceptionFindings(root: XmlElement): ServiceFindings | null {
  if (root.name !== 'ServiceExceptionReport' && root.name !== 'ExceptionReport') return null;
  const first = descendants(root, 'ServiceException')[0] ?? descendants(root, 'Exception')[0];
  // Cut like the text: a 3 MB code attribute made a 3 MB reason.
  const code = (first?.attrs.code ?? first?.attrs.exceptionCode ?? null)?.slice(0, 100) ?? null;
  const text = first ? (first.text || childText(first, 'ExceptionText') || '') : '';
  const reason = `${root.name}${code ? ` ${code}` : ''}${text ? `: ${text.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`;
  return emptyFindings('exception', reason);
}

/**
 * The part every XML detector shares: HTTP errors, empty and HTML answers, parse failures and
 * exception reports are judged here; a document whose root is one of `roots` goes to `describe`,
 * which returns the findings or the reason the document is not a valid capabilities document.
 */
export function inspectXml(
  answer: ProbeAnswer,
  what: string,
  roots: readonly string[],
  describe: (root: XmlElement) => ServiceFindings | string,
): Verdict {
  const invalid = (reason: string): Verdict => ({ findings: emptyFindings('invalid', reason) });
  const httpError = answer.status >= 400 ? `HTTP ${answer.status}` : null;
  if (!answer.body || answer.body.length === 0) return invalid(httpError ?? 'empty response');
  const parsed = parsedAnswer(answer.body, answer.contentType);
  const html = parsed.html || /html/i.test(answer.contentType);
  if (html) return invalid(`an HTML page${httpError ? ` (${httpError})` : ''}, not a ${what} capabilities document`);
  // An error status says more than why its body is not XML.
  if (parsed.root instanceof XmlError) return invalid(httpError ?? `not a usable XML document: ${parsed.root.message}`);
  const root = parsed.root;
  const exception = exceptionFindings(root);
  if (exception) return { findings: exception };
  if (httpError) return invalid(httpError);
  if (!roots.includes(root.name)) return invalid(`root element <${root.name}> is not a ${what} capabilities document`);
  const described = describe(root);
  return typeof described === 'string' ? invalid(described) : { findings: described };
}

/** Keywords from a KeywordList/Keywords element (child elements, or one comma-separated text). */
export function keywordsOf(list: XmlElement | undefined): string[] {
  if (!list) return [];
  const items = list.children.filter((c) => c.name === 'Keyword' || c.name === 'keyword').map((c) => c.text);
  const raw = items.length ? items : list.text.split(/[,;]/);
  return [...new Set(raw.map((k) => k.trim()).filter(Boolean))];
}

/** A number attribute or text, or NaN. */
export function num(s: string | undefined | null): number {
  return s === undefined || s === null || s.trim() === '' ? NaN : Number(s);
}

/** [a, b, c, d] when all four are finite numbers, else null. */
export function box(a: number, b: number, c: number, d: number): [number, number, number, number] | null {
  return [a, b, c, d].every(Number.isFinite) ? [a, b, c, d] : null;
}

/**
 * A longitude/latitude box [west, south, east, north] that can be one: longitudes in -180..180,
 * latitudes in -90..90, south <= north; else null (a server's [-500, -95, 500, 300] drew a
 * polygon off the Earth). West above east is a box across the antimeridian, as ISO 19115 allows.
 */
export function lonLatBox(w: number, s: number, e: number, n: number): [number, number, number, number] | null {
  const b = box(w, s, e, n);
  return b && w >= -180 && w <= 180 && e >= -180 && e <= 180 && s >= -90 && n <= 90 && s <= n ? b : null;
}
