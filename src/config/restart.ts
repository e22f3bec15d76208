import { normalizeUrl } from '../parse/normalize-url.js';
import { applyPreset } from './presets.js';
import { defaultStrategyName } from '../strategies/registry.js';
import type { CrawlConfigInput } from './crawl-config.js';

/**
 * Options compared when a crawl starts again: not the seeds (joined, below), the topic (its own
 * rules: topic-change.ts), the database (the same by definition), what is never stored (proxy,
 * headers), nor what a crawl fixes at its creation (seenBucketBits).
 */
const NOT_COMPARED = new Set(['seeds', 'topic', 'db', 'proxy', 'headers', 'seenBucketBits']);

/** The longest value a note shows whole. */
const SHOWN = 60;

function shown(v: unknown): string {
  let s: string;
  if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) s = 'none';
  else if (Array.isArray(v)) s = v.map(String).join(',');
  else if (typeof v === 'object') s = Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}=${String(x)}`).join(',') || 'none';
  else s = String(v);
  return s.length > SHOWN ? `${s.slice(0, SHOWN - 1)}…` : s;
}

/**
 * The seeds of a crawl started again: the stored ones, then those given now that are new (compared
 * as normalised URLs). The stored seeds stay: they decide the crawl's scope (their hosts) and the
 * private addresses it may fetch, which the URLs they led to still need.
 */
export function joinedSeeds(stored: readonly string[], given: readonly string[]): string[] {
  const key = (s: string) => normalizeUrl(s) ?? s;
  const known = new Set(stored.map(key));
  const out = [...stored];
  for (const s of given) {
    if (known.has(key(s))) continue;
    known.add(key(s));
    out.push(s);
  }
  return out;
}

/**
 * The one note for a crawl started again on its database or name: the options that differ from
 * its last start, old → new (the new ones replace them; an option not given takes its default,
 * which is said), and the seeds added to the stored ones. Null when nothing changed.
 * `previous`: the stored config; `next`: the config about to be stored; `input`: what the user gave.
 */
export function restartNote(label: string, previous: Record<string, unknown>, next: Record<string, unknown>, input: CrawlConfigInput): string | null {
  const given = applyPreset(input) as Record<string, unknown>;
  const changes: string[] = [];
  for (const [k, now] of Object.entries(next)) {
    // A key an older focuscrawl did not store: the crawl ran with that version's default, not a choice to report.
    if (NOT_COMPARED.has(k) || !(k in previous)) continue;
    const before = previous[k];
    if (JSON.stringify(before ?? null) === JSON.stringify(now ?? null)) continue;
    // A strategy left unnamed is the default for the crawl's topic, which is what it ran.
    const show = (v: unknown, config: Record<string, unknown>) => (k === 'strategy' && v == null ? `${defaultStrategyName(config.topic != null)} (the default)` : shown(v));
    const was = show(before, previous);
    const is = show(now, next);
    // Named or left to the default, the same strategy runs.
    if (was.replace(' (the default)', '') === is.replace(' (the default)', '')) continue;
    changes.push(`${k} ${was} → ${is}${given[k] === undefined && !(k === 'strategy' && now == null) ? ' (not given: the default)' : ''}`);
  }
  const options = changes.length;
  const storedSeeds = Array.isArray(previous.seeds) ? previous.seeds.length : 0;
  const seeds = Array.isArray(next.seeds) ? next.seeds.length : 0;
  if (seeds > storedSeeds) changes.push(`seeds ${storedSeeds} → ${seeds} (${seeds - storedSeeds} added to the seed list; the stored ones are kept)`);
  if (!changes.length) return null;
  return `${label} starts again with options changed since its last start (old → new): ${changes.join(', ')}${options ? '; focuscrawl resume continues a crawl with its own options' : ''}`;
}
