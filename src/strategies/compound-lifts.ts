import type { Topic } from '../relevance/topic.js';
import { topicTerms } from '../relevance/vsm-scorer.js';
import { tokenize } from '../text/tokenize.js';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A topic's compound keywords ("sphinx.ext", "cmake_policy") on one host whose site name is one
 * of their words. adaptive reads the site's name at a fifth of its weight (SiteTerms), but in
 * "sphinx.ext.todo" on Sphinx's own site "sphinx" is part of the identifier the user asked for:
 * there each of the compound's site-name words counts at its full weight, `extra` (full minus
 * discounted weight) more than elsewhere. A compound counts where the text writes it as a whole
 * word ("mysphinx.ext" is not it, "sphinx.ext.todo" is), each written span once, the longest
 * compound first ("sphinx.ext.autodoc" is not also a "sphinx.ext").
 */
export class CompoundLifts {
  readonly #pattern: RegExp;
  /** Lower-cased compound -> the extra weight its occurrence adds to the dot product. */
  readonly #extra: Map<string, number>;

  private constructor(extra: Map<string, number>) {
    this.#extra = extra;
    const alternatives = [...extra.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.#pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  }

  /** The lifts of `topic` on a host with these site terms, each kept at `siteTerm` of its weight; null when none applies. */
  static forHost(topic: Topic, site: ReadonlySet<string>, siteTerm: number): CompoundLifts | null {
    if (!topic.compounds.length || !site.size || siteTerm >= 1) return null;
    const { names, weights } = topicTerms(topic);
    const weightOf = new Map(names.map((t, i) => [t, weights[i]!]));
    const extra = new Map<string, number>();
    for (const c of topic.compounds) {
      const words = new Set(tokenize(c, topic.tokenizeOptions).filter((t) => site.has(t)));
      let e = 0;
      for (const t of words) e += (weightOf.get(t) ?? 0) * (1 - siteTerm);
      if (e > 0) extra.set(c, e);
    }
    return extra.size ? new CompoundLifts(extra) : null;
  }

  /** What the compounds written in `text` add to its dot product with the discounted topic. */
  extraIn(text: string): number {
    if (!text) return 0;
    let sum = 0;
    for (const m of text.matchAll(this.#pattern)) sum += this.#extra.get(m[0].toLowerCase()) ?? 0;
    return sum;
  }
}
