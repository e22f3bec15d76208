import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { loadFile } from '../config/load-file.js';
import { optionMessage } from '../config/option-issue.js';
import { FocusCrawlError } from '../errors.js';
import { foldChinese, hasTraditional } from '../text/fold-chinese.js';
import { tokenize, type TokenizeOptions } from '../text/tokenize.js';
import type { Position } from '../text/position-terms.js';

/**
 * Weights are relative, so a cap costs nothing: 1e308 overflowed the cosine to NaN, and one
 * weight of 1e155 or more (its square is infinite) made every page score 0.
 */
export const MAX_TOPIC_WEIGHT = 1000;
/** Below this a keyword's square underflows towards 0 in the cosine (1e-320 scored every page 0). */
const MIN_KEYWORD_WEIGHT = 1e-6;

const weight = z.number().min(0).max(MAX_TOPIC_WEIGHT, `at most ${MAX_TOPIC_WEIGHT} (weights are relative: scale them down)`);

/** A CJK character with no other next to it. */
const LONE_CJK = /(?<![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}](?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])/u;

/**
 * The topic file. Its minimal form is `name:` and `keywords:`; every other field is optional
 * and documented in docs/topics.md.
 */
export const topicFileSchema = z.strictObject({
  name: z.string().min(1),
  /** Term (or phrase) -> weight > 0. A phrase's words each get its weight. */
  keywords: z
    .record(
      z.string().regex(/\S/, 'a keyword needs a word, not only spaces'),
      z
        .number()
        .min(MIN_KEYWORD_WEIGHT, `a keyword's weight is at least ${MIN_KEYWORD_WEIGHT} (weights are relative: scale them up)`)
        .max(MAX_TOPIC_WEIGHT, `a keyword's weight is at most ${MAX_TOPIC_WEIGHT} (weights are relative: scale them down)`),
    )
    .refine((k) => Object.keys(k).length > 0, 'needs at least one keyword'),
  /** Relevance at or above which a page counts as relevant in statistics. Default 0.2. */
  threshold: z.number().min(0).max(1).default(0.2),
  /** Porter-stem English words in pages and keywords. Default false. */
  stem: z.boolean().default(false),
  /** Chinese, Japanese and Korean terms: 'bigrams' (default) or 'words' (Intl.Segmenter). See tokenize.ts. */
  cjk: z.enum(['bigrams', 'words']).default('bigrams'),
  /** Weight of a term occurrence by where it occurs (method C; title/body is method B's ratio). */
  positions: z
    .strictObject({ title: weight.default(3), headings: weight.default(2), anchor: weight.default(2), body: weight.default(1), url: weight.default(1) })
    .prefault({}),
  /** Relevance levels of method B: 2 at or above `high`, 1 at or above `low`, else 0. */
  levels: z
    .strictObject({ high: z.number().min(0).max(1).default(0.68), low: z.number().min(0).max(1).default(0.01) })
    .superRefine((l, ctx) => {
      if (l.high < l.low) ctx.addIssue({ code: 'custom', path: ['high'], message: `high (${l.high}) is below low (${l.low}): level 2 starts at high, level 1 at low` });
    })
    .prefault({}),
  /** Method B's link evidence: keywords (level 2) and abbreviations (level 1) in a link's URL or anchor. */
  links: z.strictObject({ keywords: z.array(z.string().min(1)).default([]), abbreviations: z.array(z.string().min(1)).default([]) }).prefault({}),
  /** Example pages about the topic: URLs or HTML files (relative to the topic file). */
  examples: z.array(z.string().min(1)).default([]),
  /** Pages that look close but are not about the topic. */
  negatives: z.array(z.string().min(1)).default([]),
}).superRefine((t, ctx) => {
  // A keyword of stopwords or punctuation adds nothing to the topic vector; with no term at all every page scored 0.
  const options = { stem: t.stem, cjk: t.cjk };
  const empty = Object.keys(t.keywords).filter((k) => tokenize(k, options).length === 0);
  if (empty.length > 1 && empty.length === Object.keys(t.keywords).length) {
    ctx.addIssue({ code: 'custom', path: ['keywords'], message: `no keyword gives a term: ${empty.slice(0, 5).map((k) => `'${k}'`).join(', ')}${empty.length > 5 ? ', …' : ''} are stopwords or punctuation` });
  } else if (empty.length) {
    ctx.addIssue({ code: 'custom', path: ['keywords', empty[0]!], message: `keyword '${empty[0]}' gives no term (a stopword or punctuation)` });
  }
  // Pages give Chinese text as pairs of characters: a keyword's lone character is a term no page has.
  // Read as written: a word that folds into a shorter one (隨身碟 is U盤) gives pages the same terms.
  if (t.cjk === 'bigrams') {
    const lone = Object.keys(t.keywords).find((k) => LONE_CJK.test(k.normalize('NFKC')));
    if (lone !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['keywords', lone], message: `keyword '${lone}' holds a single Chinese character, which no page gives (Chinese text is read as pairs of characters): use a word of two or more (光伏, not 光), or cjk: words` });
    }
  }
});
export type TopicFile = z.output<typeof topicFileSchema>;

/**
 * A topic file's keywords that read as the same terms (case, width, traditional and simplified
 * characters fold together, as in pages): the vector keeps one weight, so the other was dropped
 * in silence. Checked on files, not on the topics stored with crawls, which resume as they were.
 */
const topicFileOnDisk = topicFileSchema.superRefine((t, ctx) => {
  const options = { stem: t.stem, cjk: t.cjk };
  const seen = new Map<string, string>();
  for (const k of Object.keys(t.keywords)) {
    const terms = tokenize(k, options).join(' ');
    const first = terms ? seen.get(terms) : undefined;
    if (first !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['keywords', k], message: `keyword '${k}' gives the same terms as '${first}' (keywords are read as pages are: case, width and traditional or simplified characters fold together): give it once` });
      return;
    }
    if (terms) seen.set(terms, k);
  }
});

export type TopicFileInput = z.input<typeof topicFileSchema>;

/** A topic ready for scoring. */
export interface Topic {
  name: string;
  /** The topic vector T: term -> weight. */
  vector: ReadonlyMap<string, number>;
  threshold: number;
  tokenizeOptions: TokenizeOptions;
  positions: Record<Position, number>;
  levels: { high: number; low: number };
  /** Link keywords and abbreviations, as single lower-case words or phrases. */
  linkKeywords: string[];
  linkAbbreviations: string[];
  /**
   * Keywords that join words into one identifier ("sphinx.ext", "cmake_policy", "git-config", "python/c api"),
   * lower-cased: in such an identifier a word that is also the site's name is part of a name the
   * user asked for, not the site's name (see AdaptiveStrategy's site-term discount).
   */
  compounds: string[];
  /** Example and negative page references, resolved against the topic file's folder. */
  examples: string[];
  negatives: string[];
}


/**
 * Two words joined by '.', '_', '-', ':' or '/' with no space ("sphinx.ext", "std::sync",
 * "mod_ssl", "Python/C API"), letters on both sides: "python 3.12" and "x86-64" are a name and
 * a version, and on docs.python.org "Python 3.12" is in every title.
 */
const COMPOUND = /\p{L}[._:/-]+\p{L}/u;

function resolveRef(ref: string, base: string | null): string {
  return /^https?:\/\//i.test(ref) || base === null ? ref : resolve(base, ref);
}

/**
 * Why `topic` is a compiled Topic (loadTopic, topicFromFile) where a topic file's form is wanted,
 * or null. The compiled form cannot be stored with a crawl, and checked as a file it was only
 * "topic.keywords: is missing".
 */
export function compiledTopicProblem(topic: unknown): string | null {
  if (typeof topic !== 'object' || topic === null || !((topic as { vector?: unknown }).vector instanceof Map)) return null;
  return "is a compiled Topic (loadTopic, topicFromFile): give the topic file's form, loadTopicFile(FILE) or { name, keywords }";
}

/** Compiles a topic file (already validated, or an input object that is validated here: a fault is a CONFIG error naming the field). */
export function topicFromFile(input: TopicFileInput, baseDir: string | null = null): Topic {
  const compiled = compiledTopicProblem(input);
  if (compiled) throw new FocusCrawlError('CONFIG', `topic ${compiled}`);
  const parsed = topicFileSchema.safeParse(input);
  if (!parsed.success) throw new FocusCrawlError('CONFIG', optionMessage('topic field', parsed.error, Object.keys(topicFileSchema.shape), topicFileSchema));
  const t = parsed.data;
  const tokenizeOptions = { stem: t.stem, cjk: t.cjk };
  const vector = new Map<string, number>();
  // A topic written in traditional Chinese: each keyword is read so, those made of characters
  // both scripts share (伺服器) included.
  const traditional = hasTraditional(Object.keys(t.keywords).join(' '));
  for (const [term, w] of Object.entries(t.keywords)) {
    for (const word of tokenize(term, { ...tokenizeOptions, traditional })) vector.set(word, Math.max(vector.get(word) ?? 0, w));
  }
  const lower = (xs: string[]) => xs.map((x) => foldChinese(x.normalize('NFKC').toLowerCase().trim()));
  return {
    name: t.name,
    vector,
    threshold: t.threshold,
    tokenizeOptions,
    positions: t.positions,
    levels: t.levels,
    linkKeywords: lower(t.links.keywords),
    linkAbbreviations: lower(t.links.abbreviations),
    compounds: lower(Object.keys(t.keywords)).filter((k) => COMPOUND.test(k)),
    examples: t.examples.map((r) => resolveRef(r, baseDir)),
    negatives: t.negatives.map((r) => resolveRef(r, baseDir)),
  };
}

/** A topic file's largest size: hand-written ones are a few KB, learned ones a few hundred keywords. */
export const MAX_TOPIC_BYTES = 256 * 1024;

export function loadTopicFile(file: string): TopicFile {
  const t = loadFile(file, topicFileOnDisk, 'topic', MAX_TOPIC_BYTES);
  // Example files are stored resolved, so a topic copied into a crawl database keeps working.
  const base = dirname(resolve(file));
  return { ...t, examples: t.examples.map((r) => resolveRef(r, base)), negatives: t.negatives.map((r) => resolveRef(r, base)) };
}

export function loadTopic(file: string): Topic {
  return topicFromFile(loadTopicFile(file));
}
