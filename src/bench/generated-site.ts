import { seededRandom } from './seeded-random.js';

/**
 * A deterministic generated website with ground truth: pages in topical clusters (solar energy,
 * the demo topic; cooking; football), some of them in Chinese, linked mostly within their cluster.
 * Page i is a pure function of (seed, i), so any page can be rendered on demand or replayed.
 */

export interface SiteSpec {
  /** Number of pages, /p/0 .. /p/(pages-1); /p/0 is also served at /. */
  pages: number;
  seed: number;
  /** Words of body text per page (min, max): about 6-7 bytes a word in HTML. Default 1200..2000. */
  words?: [number, number];
  /** Links per page (min, max). Default 20..40. */
  links?: [number, number];
}

export type Cluster = 'solar' | 'cooking' | 'football';

const POOLS: Record<Cluster, { en: string[]; zh: string[]; title: string[] }> = {
  solar: {
    en: ['solar', 'photovoltaic', 'panel', 'energy', 'renewable', 'inverter', 'battery', 'grid', 'sunlight', 'module', 'efficiency', 'silicon', 'installation', 'rooftop', 'kilowatt'],
    zh: ['太阳能', '光伏', '电池板', '可再生能源', '逆变器', '发电', '电网', '储能', '组件', '效率'],
    title: ['Solar panel', 'Photovoltaic module', 'Rooftop solar', 'Solar inverter', 'Renewable energy'],
  },
  cooking: {
    en: ['recipe', 'flour', 'oven', 'sauce', 'garlic', 'bake', 'butter', 'onion', 'simmer', 'kitchen', 'pepper', 'dough', 'roast', 'spoon', 'salt'],
    zh: ['烹饪', '菜谱', '面粉', '烤箱', '酱汁', '大蒜', '黄油', '厨房', '调料', '火候'],
    title: ['Easy recipe', 'Kitchen tips', 'Baking bread', 'Garlic sauce', 'Sunday roast'],
  },
  football: {
    en: ['football', 'match', 'goal', 'league', 'team', 'coach', 'striker', 'season', 'stadium', 'referee', 'penalty', 'midfield', 'tactics', 'cup', 'fans'],
    zh: ['足球', '比赛', '进球', '联赛', '球队', '教练', '前锋', '赛季', '球场', '裁判'],
    title: ['Match report', 'League table', 'Transfer news', 'Coach interview', 'Cup final'],
  },
};

const FILLER = ('the of and to in is that for on with as by this it from at are be was an or which also has have more about ' +
  'new other year time people many first after some would these two may most over such could only into where report ' +
  'article page information local public system work group market service part place case week city').split(' ');
const FILLER_ZH = '我们 今天 一些 这个 可以 发展 信息 公司 市场 服务 地区 工作 时间 问题 情况 社会'.split(' ');

const rng = seededRandom;

const CLUSTERS: Cluster[] = ['solar', 'cooking', 'football'];

/** Ground truth: the cluster of page i (30% solar). */
export function clusterOf(spec: SiteSpec, i: number): Cluster {
  const r = rng(spec.seed * 7919 + i * 104729)();
  return r < 0.3 ? 'solar' : r < 0.65 ? 'cooking' : 'football';
}

/** Page i is written in Chinese (one page in six). */
export function isChinese(spec: SiteSpec, i: number): boolean {
  return rng(spec.seed * 31 + i * 15485863)() < 1 / 6;
}

export function titleOf(spec: SiteSpec, i: number): string {
  const c = clusterOf(spec, i);
  const pool = POOLS[c];
  if (isChinese(spec, i)) return `${pool.zh[i % pool.zh.length]}${pool.zh[(i * 7) % pool.zh.length]} 第${i}篇`;
  return `${pool.title[i % pool.title.length]} ${i}`;
}

/** The page ids page i links to (deterministic). */
export function linksOf(spec: SiteSpec, i: number): number[] {
  const r = rng(spec.seed * 1000003 + i);
  const [lo, hi] = spec.links ?? [20, 40];
  const n = lo + Math.floor(r() * (hi - lo + 1));
  const out: number[] = [];
  const nav = Math.min(5, spec.pages);
  for (let k = 0; k < nav && out.length < n; k++) out.push(k); // site-wide navigation
  const mine = clusterOf(spec, i);
  let guard = 0;
  while (out.length < n && guard++ < n * 50) {
    // Mostly the neighbourhood of i (locality), sometimes anywhere; prefer the same cluster.
    const j = r() < 0.7 ? (i + 1 + Math.floor(r() * 200)) % spec.pages : Math.floor(r() * spec.pages);
    if (j === i) continue;
    if (clusterOf(spec, j) !== mine && r() < 0.6) continue;
    out.push(j);
  }
  return out;
}

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderPage(spec: SiteSpec, i: number): string | null {
  if (!Number.isInteger(i) || i < 0 || i >= spec.pages) return null;
  const r = rng(spec.seed * 2654435761 + i * 97);
  const cluster = clusterOf(spec, i);
  const zh = isChinese(spec, i);
  const pool = zh ? POOLS[cluster].zh : POOLS[cluster].en;
  const filler = zh ? FILLER_ZH : FILLER;
  const [lo, hi] = spec.words ?? [1200, 2000];
  const words = lo + Math.floor(r() * (hi - lo + 1));
  const paras: string[] = [];
  let para: string[] = [];
  for (let w = 0; w < words; w++) {
    para.push(r() < 0.25 ? pool[Math.floor(r() * pool.length)]! : filler[Math.floor(r() * filler.length)]!);
    if (para.length >= 60) {
      paras.push(`<p>${para.join(zh ? '' : ' ')}</p>`);
      para = [];
    }
  }
  if (para.length) paras.push(`<p>${para.join(zh ? '' : ' ')}</p>`);
  const links = linksOf(spec, i)
    .map((j) => `<li><a href="/p/${j}">${escape(titleOf(spec, j))}</a></li>`)
    .join('\n');
  const title = escape(titleOf(spec, i));
  return `<!DOCTYPE html>
<html lang="${zh ? 'zh' : 'en'}"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:sans-serif}</style><script>window.dataLayer=[];</script></head>
<body><header><nav><a href="/">Home</a></nav></header>
<main><h1>${title}</h1>
${paras.join('\n')}
</main>
<aside><ul>
${links}
</ul></aside>
<footer><p>Generated page ${i}</p></footer></body></html>
`;
}

/** Ground-truth targets: the URLs of every solar page on a site served at `origin`. */
export function solarTargets(spec: SiteSpec, origin: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < spec.pages; i++) if (clusterOf(spec, i) === 'solar') out.push(`${origin}/p/${i}`);
  return out;
}

export { CLUSTERS };
