import { box, lonLatBox, keywordsOf } from './capabilities-document.js';
import { child, childrenNamed, childText, path, type XmlElement } from './xml-tree.js';

/**
 * OWS Common (OGC 06-121), shared by WMTS, WFS 1.1/2.0, WCS 1.1/2.0 and CSW: the service
 * identification and provider sections and the WGS 84 bounding box.
 */
export interface OwsIdentification {
  title: string | null;
  abstract: string | null;
  keywords: string[];
  serviceType: string | null;
  versions: string[];
  provider: string | null;
}

export function owsIdentification(root: XmlElement): OwsIdentification | null {
  const id = child(root, 'ServiceIdentification');
  if (!id) return null;
  const keywords = childrenNamed(id, 'Keywords').flatMap((k) => keywordsOf(k));
  return {
    title: childText(id, 'Title'),
    abstract: childText(id, 'Abstract'),
    keywords: [...new Set(keywords)],
    serviceType: childText(id, 'ServiceType'),
    versions: childrenNamed(id, 'ServiceTypeVersion').map((v) => v.text).filter(Boolean),
    provider: childText(path(root, 'ServiceProvider'), 'ProviderName'),
  };
}

/** ows:WGS84BoundingBox: LowerCorner "lon lat", UpperCorner "lon lat" -> [west, south, east, north]. */
export function wgs84Box(el: XmlElement | undefined): [number, number, number, number] | null {
  const b = el && child(el, 'WGS84BoundingBox');
  if (!b) return null;
  const lo = (childText(b, 'LowerCorner') ?? '').trim().split(/\s+/).map(Number);
  const hi = (childText(b, 'UpperCorner') ?? '').trim().split(/\s+/).map(Number);
  return lonLatBox(lo[0]!, lo[1]!, hi[0]!, hi[1]!);
}

/** ows:BoundingBox elements with their crs attribute. */
export function owsBoxes(el: XmlElement): { crs: string; bbox: [number, number, number, number] }[] {
  const out: { crs: string; bbox: [number, number, number, number] }[] = [];
  for (const b of childrenNamed(el, 'BoundingBox')) {
    const lo = (childText(b, 'LowerCorner') ?? '').trim().split(/\s+/).map(Number);
    const hi = (childText(b, 'UpperCorner') ?? '').trim().split(/\s+/).map(Number);
    const bb = box(lo[0]!, lo[1]!, hi[0]!, hi[1]!);
    if (bb) out.push({ crs: b.attrs.crs ?? '', bbox: bb });
  }
  return out;
}
