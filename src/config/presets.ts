import { fileURLToPath } from 'node:url';
import type { CrawlConfigInput } from './crawl-config.js';

/** The bundled topic of the wms preset: method B's page terms, link keywords and abbreviations. */
export const WMS_TOPIC = fileURLToPath(new URL('../../../topics/wms.yaml', import.meta.url));

/**
 * What each preset sets when the user has not: `wms` is the geospatial service crawler of
 * method B with the source's settings (its topic, weighted-levels, depth limit 5, 5 requests in
 * flight for the source's 5 threads) and every OGC detector on. The per-host limit (--per-host,
 * 2) is the crawler's politeness, which the source does not discuss; it is left as it is.
 */
const PRESETS: Record<'wms', Partial<CrawlConfigInput>> = {
  wms: { topic: WMS_TOPIC, strategy: 'weighted-levels', detect: ['all'], maxDepth: 5, concurrency: 5 },
};

/** Fills the settings a preset provides and the input leaves unset. */
export function applyPreset(input: CrawlConfigInput): CrawlConfigInput {
  if (!input.preset) return input;
  const out: CrawlConfigInput = { ...input };
  for (const [k, v] of Object.entries(PRESETS[input.preset])) {
    const key = k as keyof CrawlConfigInput;
    const cur = out[key];
    if (cur === undefined || cur === null || (Array.isArray(cur) && cur.length === 0)) (out as Record<string, unknown>)[key] = v;
  }
  return out;
}
