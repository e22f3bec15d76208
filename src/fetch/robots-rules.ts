/**
 * The Allow and Disallow rules of one robots.txt group, matched in time linear in the path.
 *
 * robots-parser matches a pattern as google/robotstxt does, keeping every length the pattern can
 * have matched so far: after a `*` that is every position of the path, so one rule costs
 * pattern × path steps, and a hostile 500 KiB file of 20,000 wildcard rules took about a second
 * per URL, on the crawl's one thread. Here a pattern is its literal pieces between `*`s, found in
 * order with indexOf: the earliest place of each piece leaves the most room for the rest, so the
 * verdict is the same (a test compares the two on random patterns), and a rule costs one pass.
 */

interface Rule {
  allow: boolean;
  /** The pieces between `*`s; the first is anchored at the path's start. */
  pieces: string[];
  /** The pattern ended in `$`: the last piece must end the path. */
  anchoredEnd: boolean;
}

/** The shape robots-parser 3 keeps its rules in (read, never written). */
interface ParserRule {
  pattern: unknown;
  allow: unknown;
}

export class RobotsRules {
  /** Longest pattern first, Allow before Disallow on a tie: the first rule that matches decides (RFC 9309 2.2.2). */
  readonly #rules: Rule[];

  private constructor(rules: Rule[]) {
    this.#rules = rules;
  }

  /**
   * The group robots-parser chose for `agent` (its own group, else `*`), or null when the parser's
   * rules are not in the shape this reads (another version): the caller then asks the parser.
   */
  static of(robot: object, agent: string): RobotsRules | null {
    const all = (robot as { _rules?: unknown })._rules;
    if (typeof all !== 'object' || all === null) return null;
    const byAgent = all as Record<string, unknown>;
    const group = byAgent[productToken(agent)] ?? byAgent['*'] ?? [];
    if (!Array.isArray(group)) return null;
    const parsed: { rule: Rule; length: number; order: number }[] = [];
    for (const [order, entry] of (group as ParserRule[]).entries()) {
      if (typeof entry?.pattern !== 'string' || typeof entry.allow !== 'boolean') return null;
      parsed.push({ rule: compile(entry.pattern, entry.allow), length: entry.pattern.length, order });
    }
    parsed.sort((a, b) => b.length - a.length || Number(b.rule.allow) - Number(a.rule.allow) || a.order - b.order);
    return new RobotsRules(parsed.map((p) => p.rule));
  }

  /** Whether `path` (the URL's path and query, escapes upper-cased) may be fetched. */
  allows(path: string): boolean {
    for (const rule of this.#rules) if (matches(rule, path)) return rule.allow;
    return true;
  }
}

/** The path robots-parser matches: path and query, with percent-escapes upper-cased. */
export function robotsPathOf(url: URL): string {
  const path = url.pathname + url.search;
  return path.includes('%') ? path.replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase()) : path;
}

/** robots-parser's reading of a User-agent value: lower case, no `/version`. */
function productToken(agent: string): string {
  const lower = agent.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash >= 0 ? lower.slice(0, slash) : lower).trim();
}

function compile(pattern: string, allow: boolean): Rule {
  // Only a final `$` anchors; one elsewhere is a literal character, as in robots-parser.
  const anchoredEnd = pattern.endsWith('$');
  const body = anchoredEnd ? pattern.slice(0, -1) : pattern;
  return { allow, pieces: body.split('*'), anchoredEnd };
}

function matches(rule: Rule, path: string): boolean {
  const { pieces } = rule;
  const first = pieces[0]!;
  if (!path.startsWith(first)) return false;
  const last = pieces.length - 1;
  if (last === 0) return !rule.anchoredEnd || path.length === first.length;
  let at = first.length;
  for (let i = 1; i < last; i++) {
    const piece = pieces[i]!;
    if (piece === '') continue;
    const found = path.indexOf(piece, at);
    if (found < 0) return false;
    at = found + piece.length;
  }
  const tail = pieces[last]!;
  if (rule.anchoredEnd) return path.length - tail.length >= at && path.endsWith(tail);
  return tail === '' || path.indexOf(tail, at) >= 0;
}
