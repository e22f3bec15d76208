import { FocusCrawlError } from '../errors.js';
import type { Topic } from '../relevance/topic.js';
import { BestFirstStrategy } from './best-first.js';
import { BfsStrategy } from './bfs.js';
import type { Strategy } from './strategy.js';

interface Entry {
  needsTopic: boolean;
  create(topic: Topic | null): Strategy;
  summary: string;
}

const STRATEGIES: Record<string, Entry> = {
  bfs: { needsTopic: false, create: (t) => new BfsStrategy(t), summary: 'breadth-first baseline' },
  'best-first': { needsTopic: true, create: (t) => new BestFirstStrategy(t!), summary: "links get their parent page's relevance" },
};

export const strategyNames = (): string[] => Object.keys(STRATEGIES);

export function createStrategy(name: string, topic: Topic | null): Strategy {
  const entry = STRATEGIES[name];
  if (!entry) throw new FocusCrawlError('USAGE', `unknown strategy '${name}' (known: ${strategyNames().join(', ')})`);
  if (entry.needsTopic && !topic) throw new FocusCrawlError('USAGE', `strategy '${name}' needs a topic: pass --topic FILE`);
  return entry.create(topic);
}
