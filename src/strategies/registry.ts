import { z } from 'zod';
import { FocusCrawlError } from '../errors.js';
import { didYouMean, keysAt, optionIssue } from '../config/option-issue.js';
import type { Topic } from '../relevance/topic.js';
import { AdaptiveStrategy, adaptiveOptions } from './adaptive.js';
import { BestFirstStrategy } from './best-first.js';
import { BfsStrategy } from './bfs.js';
import { InheritRecoverStrategy, inheritRecoverOptions } from './inherit-recover.js';
import { LearnedStrategy, learnedOptions } from './learned.js';
import { TwoStepStrategy, twoStepOptions } from './two-step.js';
import { SharkStrategy, sharkOptions } from './shark.js';
import { ThresholdStrategy } from './threshold.js';
import type { Strategy } from './strategy.js';
import { WeightedLevelsStrategy, weightedLevelsOptions } from './weighted-levels.js';

type Options = Record<string, number>;

interface Entry {
  needsTopic: boolean;
  options: z.ZodType<object>;
  create(topic: Topic | null, options: Options): Strategy;
  summary: string;
}

const none = z.strictObject({});

const STRATEGIES: Record<string, Entry> = {
  bfs: { needsTopic: false, options: none, create: (t) => new BfsStrategy(t), summary: 'breadth-first baseline' },
  'best-first': { needsTopic: true, options: none, create: (t) => new BestFirstStrategy(t!), summary: "links get their parent page's relevance" },
  shark: { needsTopic: true, options: sharkOptions, create: (t, o) => new SharkStrategy(t!, o), summary: 'shark-search: inherited score with decay, anchor and anchor context' },
  'inherit-recover': { needsTopic: true, options: inheritRecoverOptions, create: (t, o) => new InheritRecoverStrategy(t!, o), summary: 'method A: relevance message value with decay and recovery' },
  'weighted-levels': { needsTopic: true, options: weightedLevelsOptions, create: (t, o) => new WeightedLevelsStrategy(t!, o), summary: 'method B: lambda-weighted link and page levels, priority 0 discarded' },
  'two-step': { needsTopic: true, options: twoStepOptions, create: (t, o) => new TwoStepStrategy(t!, o), summary: 'method C: score from the page and its out-link pages (known ones and a look-ahead), raised as more are fetched, with the noise rules' },
  threshold: { needsTopic: true, options: none, create: (t) => new ThresholdStrategy(t!), summary: "the thesis's topical crawler: links of pages below the topic threshold are discarded" },
  adaptive: { needsTopic: true, options: adaptiveOptions, create: (t, o) => new AdaptiveStrategy(t!, o), summary: 'the default with a topic: anchor, context, parent and inherited relevance, navigation discounted, learned as it goes' },
  learned: { needsTopic: true, options: learnedOptions, create: (t, o) => new LearnedStrategy(t!, o), summary: 'online logistic-regression link classifier with host exploration' },
};

export const strategyNames = (): string[] => Object.keys(STRATEGIES);

export { defaultStrategyName } from './default-strategy.js';

/** Builds a strategy; `options` are its parameters (defaults are the sources'), checked by name. */
export function createStrategy(name: string, topic: Topic | null, options: Options = {}): Strategy {
  const entry = STRATEGIES[name];
  if (!entry) throw new FocusCrawlError('CONFIG', `unknown strategy '${name}'${didYouMean(name, strategyNames()) || ` (known: ${strategyNames().join(', ')})`}`);
  if (entry.needsTopic && !topic) throw new FocusCrawlError('CONFIG', `strategy '${name}' needs a topic: pass --topic FILE`);
  const problem = strategyOptionProblem(name, options);
  if (problem) throw new FocusCrawlError('CONFIG', `strategy '${name}' option '${problem.option}': ${problem.message}`);
  return entry.create(topic, options);
}

/** What is wrong with a known strategy's options, or null: the option named, and why. */
export function strategyOptionProblem(name: string, options: Options): { option: string; message: string } | null {
  const entry = STRATEGIES[name];
  if (!entry) return null;
  const parsed = entry.options.safeParse(options);
  if (parsed.success) return null;
  // As a config field is named: "unknown (did you mean 'decay'?)", "must be at most 1".
  const i = optionIssue(parsed.error);
  const known = keysAt(entry.options, []);
  const hint = i.unknownKey !== undefined ? didYouMean(i.unknownKey, known) || (known.length ? ` (${name} takes ${known.join(', ')})` : ` (${name} takes none)`) : '';
  return { option: i.path.join('.'), message: `${i.message}${hint}` };
}
