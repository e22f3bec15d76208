import uPlot from 'uplot';
import type { RecallSeries } from '../src/dashboard/snapshot.js';

const COLOURS = ['#1b5f9f', '#8e3b9e'];

/**
 * Recall over pages fetched, one line per set of target pages (labelled relevant, ground truth).
 * Both are read at the harvest curve's points; a live crawl may add a point between the two
 * reads, so the x values are merged and a missing value is a gap.
 */
export class RecallChart {
  readonly #el: HTMLElement;
  #plot: uPlot | null = null;
  #sources = '';

  constructor(el: HTMLElement) {
    this.#el = el;
  }

  update(series: RecallSeries[]): void {
    const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p.fetched)))].sort((a, b) => a - b);
    const ys = series.map((s) => {
      const at = new Map(s.points.map((p) => [p.fetched, p.found / s.total]));
      return xs.map((x) => at.get(x) ?? null);
    });
    const data = [xs, ...ys] as uPlot.AlignedData;
    this.#el.dataset.points = String(xs.length);
    this.#el.dataset.series = series.map((s) => s.source).join('|');
    const sources = this.#el.dataset.series;
    if (this.#plot && sources === this.#sources) {
      fitWidth(this.#plot, this.#el);
      this.#plot.setData(data);
      return;
    }
    // A new set of lines (the first label, or a truth file) needs a new plot.
    this.#plot?.destroy();
    this.#sources = sources;
    this.#plot = new uPlot(
      {
        width: Math.max(320, this.#el.clientWidth || 400),
        height: 260,
        scales: { x: { time: false }, y: { range: [0, 1] } },
        axes: [{ label: 'pages fetched' }, { label: 'recall' }],
        series: [{ label: 'fetched' }, ...series.map((s, i) => ({ label: `${s.source} (${s.total})`, stroke: COLOURS[i % COLOURS.length], width: 2, spanGaps: true }))],
      },
      data,
      this.#el,
    );
  }
}

/** Follows the element's width when the layout changed (the recall chart appearing beside harvest). */
export function fitWidth(plot: uPlot, el: HTMLElement): void {
  const w = Math.max(320, el.clientWidth);
  if (el.clientWidth && Math.abs(plot.width - w) > 16) plot.setSize({ width: w, height: plot.height });
}
