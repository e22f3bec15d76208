/**
 * The strategy a crawl uses when none is named. In a file of its own: readers (status, the
 * dashboard) name it without loading every strategy.
 */
export const defaultStrategyName = (hasTopic: boolean): string => (hasTopic ? 'adaptive' : 'bfs');
