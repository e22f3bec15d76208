import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { HarvestPoint } from '../src/store/crawl-reader.js';
import { fitWidth } from './recall-chart.js';

/** The harvest curve: relevant pages found over pages fetched, with the harvest rate on a second axis. */
export class HarvestChart {
  readonly #el: HTMLElement;
  #plot: uPlot | null = null;

  constructor(el: HTMLElement) {
    this.#el = el;
  }

  update(points: HarvestPoint[]): void {
    const data: uPlot.AlignedData = [points.map((p) => p.fetched), points.map((p) => p.relevant), points.map((p) => (p.fetched ? p.relevant / p.fetched : 0))];
    // The point count is on the element so tests (and curious users) can see the chart grow.
    this.#el.dataset.points = String(points.length);
    if (this.#plot) {
      fitWidth(this.#plot, this.#el);
      this.#plot.setData(data);
      return;
    }
    this.#plot = new uPlot(
      {
        width: Math.max(320, this.#el.clientWidth || 800),
        height: 260,
        scales: { x: { time: false }, rate: { range: [0, 1] } },
        axes: [{ label: 'pages fetched' }, { label: 'relevant pages' }, { side: 1, scale: 'rate', label: 'harvest rate', grid: { show: false } }],
        series: [{ label: 'fetched' }, { label: 'relevant', stroke: '#1b7f3b', width: 2, fill: 'rgba(27,127,59,0.08)' }, { label: 'harvest rate', stroke: '#c26a00', scale: 'rate', dash: [4, 4] }],
      },
      data,
      this.#el,
    );
  }
}
