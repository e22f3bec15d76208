/**
 * A small dependency-free SVG line chart (a few dozen lines beat a charting library for one
 * chart type): one line per series, log2 or linear x, linear y, axes with ticks and a legend.
 */
export interface Series {
  name: string;
  points: [number, number][];
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  log2X?: boolean;
  width?: number;
  height?: number;
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#7f7f7f', '#17becf', '#8c564b'];
/** About ten round ticks (1, 2 or 5 times a power of ten apart) covering [lo, hi]. */
function niceTicks(lo: number, hi: number): number[] {
  const raw = (hi - lo) / 10 || 1;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let x = Math.ceil(lo / step) * step; x <= hi + 1e-9; x += step) out.push(Math.round(x * 1e9) / 1e9);
  return out;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function lineChartSvg(series: Series[], o: ChartOptions): string {
  const W = o.width ?? 760;
  const H = o.height ?? 440;
  const m = { l: 70, r: 170, t: 40, b: 55 };
  const fx = (x: number) => (o.log2X ? Math.log2(x) : x);
  const xs = series.flatMap((s) => s.points.map(([x]) => fx(x)));
  const ys = series.flatMap((s) => s.points.map(([, y]) => y));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const y1 = Math.max(...ys, 1e-9) * 1.05;
  const px = (x: number) => m.l + ((fx(x) - x0) / (x1 - x0 || 1)) * (W - m.l - m.r);
  const py = (y: number) => H - m.b - (y / y1) * (H - m.t - m.b);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2 - m.r / 2}" y="22" text-anchor="middle" font-size="15">${esc(o.title)}</text>`,
    `<line x1="${m.l}" y1="${H - m.b}" x2="${W - m.r}" y2="${H - m.b}" stroke="black"/>`,
    `<line x1="${m.l}" y1="${m.t}" x2="${m.l}" y2="${H - m.b}" stroke="black"/>`,
  ];
  const xticks = o.log2X ? [...new Set(series.flatMap((s) => s.points.map(([x]) => x)))].sort((a, b) => a - b) : niceTicks(x0, x1);
  for (const x of xticks) {
    const label = o.log2X ? `2^${Math.round(Math.log2(x))}` : String(x);
    parts.push(`<line x1="${px(x)}" y1="${H - m.b}" x2="${px(x)}" y2="${H - m.b + 5}" stroke="black"/>`);
    parts.push(`<text x="${px(x)}" y="${H - m.b + 18}" text-anchor="middle">${label}</text>`);
  }
  for (let i = 0; i <= 5; i++) {
    const y = (y1 / 5) * i;
    parts.push(`<line x1="${m.l}" y1="${py(y)}" x2="${W - m.r}" y2="${py(y)}" stroke="#ddd"/>`);
    parts.push(`<text x="${m.l - 8}" y="${py(y) + 4}" text-anchor="end">${y.toFixed(y1 < 0.1 ? 3 : 2)}</text>`);
  }
  parts.push(`<text x="${(m.l + W - m.r) / 2}" y="${H - 12}" text-anchor="middle">${esc(o.xLabel)}</text>`);
  parts.push(`<text transform="translate(18 ${(m.t + H - m.b) / 2}) rotate(-90)" text-anchor="middle">${esc(o.yLabel)}</text>`);
  series.forEach((s, i) => {
    const c = COLORS[i % COLORS.length]!;
    const d = s.points.map(([x, y], k) => `${k ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    parts.push(`<path d="${d}" fill="none" stroke="${c}" stroke-width="2"/>`);
    for (const [x, y] of s.points) parts.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="2.5" fill="${c}"/>`);
    parts.push(`<line x1="${W - m.r + 15}" y1="${m.t + 10 + i * 20}" x2="${W - m.r + 40}" y2="${m.t + 10 + i * 20}" stroke="${c}" stroke-width="3"/>`);
    parts.push(`<text x="${W - m.r + 46}" y="${m.t + 14 + i * 20}">${esc(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}
