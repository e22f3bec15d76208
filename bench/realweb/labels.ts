import type { BuiltSite } from './built-site.js';
import type { LabelRule } from './manifest.js';

/**
 * The target pages of a topic (indices into the built site), from the original tree's layout
 * alone: a folder, or a chapter with every chunk whose <link rel="up"> chain leads to it.
 */
export function labelTargets(site: BuiltSite, rule: LabelRule): Set<number> {
  const out = new Set<number>();
  if (rule.kind === 'under') {
    site.originals.forEach((p, i) => {
      if (rule.dirs.some((d) => p.startsWith(d))) out.add(i);
    });
    return out;
  }
  const chapter = site.originals.indexOf(rule.page);
  if (chapter < 0) return out;
  site.up.forEach((_u, i) => {
    // Walk up the chain (bounded: a broken tree could hold a cycle).
    for (let v = i, hops = 0; v >= 0 && hops < 20; v = site.up[v]!, hops++) {
      if (v === chapter) {
        out.add(i);
        break;
      }
    }
  });
  return out;
}
