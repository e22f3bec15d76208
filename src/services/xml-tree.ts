import { SaxesParser } from 'saxes';

/** An element of a parsed document, reduced to what capabilities parsing needs. */
export interface XmlElement {
  /** Local name, without prefix. */
  name: string;
  /** Namespace URI ('' when none). */
  ns: string;
  /** Attributes by local name (xmlns declarations left out). */
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text, trimmed. */
  text: string;
}

export interface XmlLimits {
  /** Characters of input accepted. */
  maxChars: number;
  /** Element nesting depth accepted. */
  maxDepth: number;
  /** Elements accepted in all. */
  maxElements: number;
}

/** Real capabilities documents nest about 10 deep; large servers list tens of thousands of layers. */
export const DEFAULT_XML_LIMITS: XmlLimits = { maxChars: 20 * 1024 * 1024, maxDepth: 64, maxElements: 500_000 };

/** Attributes on one element: capabilities documents have a handful. */
export const MAX_ATTRIBUTES = 1000;

export class XmlError extends Error {
  override readonly name = 'XmlError';
}

/**
 * Parses XML into an element tree without ever resolving a DTD or an entity: saxes reads the
 * DOCTYPE as text and does nothing with it, so an external entity (XXE) or an entity expansion
 * bomb ends as "undefined entity", an error. Only the five predefined entities and character
 * references are expanded. Size, depth and element count are limited.
 */
export function parseXml(text: string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlElement {
  if (text.length > limits.maxChars) throw new XmlError(`document of ${text.length} characters exceeds the limit of ${limits.maxChars}`);
  const parser = new SaxesParser({ xmlns: true });
  const stack: { el: XmlElement; text: string[] }[] = [];
  let root: XmlElement | null = null;
  let elements = 0;
  parser.on('error', (err) => {
    const msg = /undefined entity/.test(err.message) ? `${err.message} (entities declared in a DTD are never expanded)` : err.message;
    throw new XmlError(`not well-formed XML: ${msg}`);
  });
  // saxes gathers a tag's attributes before 'opentag': counted as they come, so 2 million of
  // them on one element (1.3 GB) are refused early.
  let attributes = 0;
  parser.on('attribute', () => {
    if (++attributes > MAX_ATTRIBUTES) throw new XmlError(`an element with more than ${MAX_ATTRIBUTES} attributes`);
  });
  parser.on('opentag', (tag) => {
    attributes = 0;
    if (++elements > limits.maxElements) throw new XmlError(`more than ${limits.maxElements} elements`);
    if (stack.length >= limits.maxDepth) throw new XmlError(`elements nested deeper than ${limits.maxDepth}`);
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) {
      if (a.prefix === 'xmlns' || a.name === 'xmlns') continue;
      attrs[a.local] = a.value;
    }
    const el: XmlElement = { name: tag.local, ns: tag.uri ?? '', attrs, children: [], text: '' };
    if (stack.length) stack[stack.length - 1]!.el.children.push(el);
    else root = el;
    stack.push({ el, text: [] });
  });
  const onText = (t: string) => {
    if (stack.length) stack[stack.length - 1]!.text.push(t);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const top = stack.pop()!;
    top.el.text = top.text.join('').trim();
  });
  parser.write(text).close();
  if (!root) throw new XmlError('no root element');
  return root;
}

export function child(el: XmlElement, name: string): XmlElement | undefined {
  return el.children.find((c) => c.name === name);
}

export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

/** Text of the first child named `name`, or null when absent or empty. */
export function childText(el: XmlElement | undefined, name: string): string | null {
  const c = el && child(el, name);
  return c && c.text ? c.text : null;
}

/** The element at a path of child names, e.g. path(root, 'Service', 'Title'). */
export function path(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let cur = el;
  for (const n of names) cur = cur && child(cur, n);
  return cur;
}

/** Every descendant named `name`, depth first. */
export function descendants(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}
