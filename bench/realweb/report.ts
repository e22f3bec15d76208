import { lineChartSvg } from '../../src/bench/svg-line-chart.js';

/** One strategy's figures on one topic; recall and harvest are keyed by budget ("10" = 10%). */
export interface StrategyResult {
  recall: Record<string, number>;
  harvest: Record<string, number>;
  fetched: number;
  seconds: number;
  /** Targets found after every `curveStep` fetches (the recall curve; not in the markdown). */
  curve: number[];
}

export interface TopicResult {
  topic: string;
  site: string;
  split: 'tune' | 'report';
  size: 'small' | 'large';
  label: string;
  reachable: number;
  targets: number;
  /** Pages in each budget: budget label -> pages. */
  budgetPages: Record<string, number>;
  curveStep: number;
  oracle: { pages: number; recall: Record<string, number>; harvest: Record<string, number>; curve: number[] };
  /**
   * The reachable pages in the order of their relevance under the topic (topic-ranking.ts): how far
   * the topic's words agree with the labels. Absent in results recorded before it existed.
   */
  topicRanking?: { relevant: number; relevantTargets: number; recall: Record<string, number>; harvest: Record<string, number>; curve: number[] };
  /** Strategy name -> figures; the default strategy is named in `defaultStrategy`. */
  strategies: Record<string, StrategyResult>;
}

export interface RunResults {
  date: string;
  command: string;
  machine: string;
  budgets: number[];
  defaultStrategy: string;
  strategyOptions: Record<string, number>;
  seconds: number;
  topics: TopicResult[];
}

const pct = (x: number | undefined) => (x === undefined ? '-' : (100 * x).toFixed(1));

function rowName(name: string, r: RunResults): string {
  return name === r.defaultStrategy ? `${name} (default)` : name;
}

export function topicTable(t: TopicResult, r: RunResults): string {
  const b = r.budgets.map(String);
  const head = `| strategy | recall ${b.join('/')}% | harvest ${b.join('/')}% | fetched |\n|---|---|---|---|`;
  const row = (name: string, s: { recall: Record<string, number>; harvest: Record<string, number> }, fetched: string) =>
    `| ${name} | ${b.map((k) => pct(s.recall[k])).join(' / ')} | ${b.map((k) => pct(s.harvest[k])).join(' / ')} | ${fetched} |`;
  const rows = Object.entries(t.strategies).map(([name, s]) => row(rowName(name, r), s, String(s.fetched)));
  rows.push(row('oracle bound', t.oracle, `${t.oracle.pages} to reach all`));
  if (t.topicRanking) rows.push(row('topic ranking', t.topicRanking, `${t.topicRanking.relevant} relevant`));
  return [head, ...rows].join('\n');
}

/** Mean recall and harvest over topics per strategy (and the oracle), per split. */
export function summaryTable(r: RunResults, topics: TopicResult[]): string {
  const b = r.budgets.map(String);
  const names = [...new Set(topics.flatMap((t) => Object.keys(t.strategies)))];
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : undefined);
  const line = (name: string, get: (t: TopicResult) => { recall: Record<string, number>; harvest: Record<string, number> } | undefined) => {
    const have = topics.map(get).filter((x) => x !== undefined);
    return `| ${name} | ${b.map((k) => pct(mean(have.map((s) => s.recall[k]!)))).join(' / ')} | ${b.map((k) => pct(mean(have.map((s) => s.harvest[k]!)))).join(' / ')} | ${have.length} |`;
  };
  return [
    `| strategy | mean recall ${b.join('/')}% | mean harvest ${b.join('/')}% | topics |`,
    '|---|---|---|---|',
    ...names.map((n) => line(rowName(n, r), (t) => t.strategies[n])),
    line('oracle bound', (t) => t.oracle),
    ...(topics.some((t) => t.topicRanking) ? [line('topic ranking', (t) => t.topicRanking)] : []),
  ].join('\n');
}

export function resultsMarkdown(r: RunResults): string {
  const out: string[] = [
    `Date: ${r.date}. Machine: ${r.machine}. Command: \`${r.command}\` (${(r.seconds / 60).toFixed(1)} min).`,
    `Budgets are ${r.budgets.join(', ')}% of the pages reachable from the start page; recall and harvest in %. ` +
      `Concurrency 1 (a deterministic order). Oracle bound: the greedy fetch order described in bench/realweb/oracle.ts. ` +
      `Topic ranking: every reachable page in the order of its relevance under the topic (bench/realweb/topic-ranking.ts), a diagnosis of how far the topic's words agree with the labels, not a crawl.` +
      (Object.keys(r.strategyOptions).length ? ` Strategy options: ${JSON.stringify(r.strategyOptions)}.` : ''),
    '',
  ];
  for (const split of ['tune', 'report'] as const) {
    const ts = r.topics.filter((t) => t.split === split);
    if (!ts.length) continue;
    out.push(`### Mean over the ${split} topics (${ts.map((t) => t.topic).join(', ')})`, '', summaryTable(r, ts), '');
  }
  for (const t of r.topics) {
    out.push(
      `### ${t.topic} (${t.split}, ${t.size}): site ${t.site}, ${t.reachable} reachable pages, ${t.targets} targets (${t.label})`,
      '',
      `Budgets: ${r.budgets.map((b) => `${b}% = ${t.budgetPages[String(b)]} pages`).join(', ')}.`,
      '',
      ...(t.topicRanking ? [`The topic calls ${t.topicRanking.relevant} of the ${t.reachable} pages relevant (relevance >= its threshold), ${t.topicRanking.relevantTargets} of the ${t.targets} targets among them.`, ''] : []),
      topicTable(t, r),
      '',
    );
  }
  return out.join('\n');
}

/** Recall against the share of the site fetched, one line per strategy and the oracle. */
export function recallSvg(t: TopicResult, r: RunResults): string {
  const series = [...Object.entries(t.strategies).map(([name, s]) => ({ name: rowName(name, r), curve: s.curve })), { name: 'oracle bound', curve: t.oracle.curve }];
  const maxPages = Math.max(...Object.values(t.budgetPages));
  return lineChartSvg(
    series.map(({ name, curve }) => ({
      name,
      points: [[0, 0] as [number, number], ...curve.map((n, i) => [Math.min(maxPages, (i + 1) * t.curveStep), n / Math.max(1, t.targets)] as [number, number])].map(
        ([k, y]) => [Math.round((1000 * k) / t.reachable) / 10, y] as [number, number],
      ),
    })),
    { title: `${t.topic}: recall (${t.targets} targets, ${t.reachable} pages)`, xLabel: '% of the reachable pages fetched', yLabel: 'recall' },
  );
}
