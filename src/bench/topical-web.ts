import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FocusCrawlError, fileError } from '../errors.js';
import { seededRandom } from './seeded-random.js';

/**
 * A generated multi-host topical web with ground truth, for comparing strategies (issue 4).
 * Each host has a home page, hubs, on-topic target pages and off-topic pages. Some targets sit in
 * "tunnel" clusters reachable only through off-topic pages (the case method A was made for);
 * keyword-stuffed spam pages repeat topic words but are not targets (method C's case); anchors
 * are informative (the target's title) or not ("more", "page 12") with a set probability.
 * Hosts are ports on 127.0.0.1 from `basePort`, so URLs and labels are absolute and stable.
 */
export interface WebSpec {
  seed: number;
  hosts: number;
  pagesPerHost: number;
  lang: 'en' | 'zh';
  /** Share of pages that are targets (on-topic), tunnel clusters included. */
  targetShare: number;
  /** Share of target clusters reachable only through off-topic pages. */
  tunnelShare: number;
  /** Share of off-topic pages stuffed with topic keywords. */
  spamShare: number;
  /** Probability that an anchor names its target. */
  informativeAnchors: number;
  basePort: number;
}

export const DEFAULT_WEB: WebSpec = {
  seed: 1, hosts: 6, pagesPerHost: 300, lang: 'en', targetShare: 0.2, tunnelShare: 0.3, spamShare: 0.05, informativeAnchors: 0.6, basePort: 28100,
};

type Kind = 'home' | 'hub' | 'target' | 'tunnel' | 'off' | 'spam';
interface PageDef { host: number; id: number; kind: Kind; cluster: number; links: [number, number][]; }

const WORDS = {
  en: {
    topic: ['solar', 'photovoltaic', 'panel', 'inverter', 'renewable', 'energy', 'battery', 'grid', 'sunlight', 'module'],
    off: ['football', 'match', 'league', 'recipe', 'garlic', 'oven', 'travel', 'hotel', 'museum', 'concert', 'election', 'market'],
    filler: 'the of and to in is that for on with as by this from at are be was an or which has more about new year people first'.split(' '),
    vague: ['more', 'read more', 'click here', 'next', 'details', 'link'],
  },
  zh: {
    topic: ['太阳能', '光伏', '电池板', '逆变器', '可再生能源', '储能', '电网', '组件', '发电', '效率'],
    off: ['足球', '比赛', '联赛', '菜谱', '大蒜', '烤箱', '旅游', '酒店', '博物馆', '音乐会', '选举', '市场'],
    filler: '我们 今天 一些 这个 可以 发展 信息 公司 服务 地区 工作 时间 问题 情况 社会'.split(' '),
    vague: ['更多', '点击这里', '下一页', '详情', '链接', '查看'],
  },
};

export function origin(spec: WebSpec, host: number): string {
  return `http://127.0.0.1:${spec.basePort + host}`;
}
export function pageUrl(spec: WebSpec, host: number, id: number): string {
  return id === 0 ? `${origin(spec, host)}/` : `${origin(spec, host)}/p/${id}.html`;
}

/** The link graph and page kinds, deterministic from the spec. */
export function buildWeb(spec: WebSpec): PageDef[][] {
  const r = seededRandom(spec.seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const hosts: PageDef[][] = [];
  for (let h = 0; h < spec.hosts; h++) {
    const n = spec.pagesPerHost;
    const pages: PageDef[] = Array.from({ length: n }, (_x, id) => ({ host: h, id, kind: 'off' as Kind, cluster: -1, links: [] }));
    pages[0]!.kind = 'home';
    for (let id = 1; id <= 4 && id < n; id++) pages[id]!.kind = 'hub';
    // Target clusters of 10 pages; some are tunnel clusters, entered only from an off-topic page.
    const clusterSize = 10;
    const clusters = Math.max(1, Math.round((n * spec.targetShare) / clusterSize));
    let next = 5;
    const entries: { first: number; tunnel: boolean }[] = [];
    for (let c = 0; c < clusters && next + clusterSize < n; c++) {
      const tunnel = r() < spec.tunnelShare;
      for (let k = 0; k < clusterSize; k++) Object.assign(pages[next + k]!, { kind: 'target', cluster: c });
      entries.push({ first: next, tunnel });
      next += clusterSize;
    }
    const offIds = pages.filter((p) => p.kind === 'off').map((p) => p.id);
    for (const id of offIds) if (r() < spec.spamShare) pages[id]!.kind = 'spam';
    const plainOff = pages.filter((p) => p.kind === 'off').map((p) => p.id);
    // Links inside clusters (a ring plus chords), hubs and home to everything but tunnel clusters.
    for (const { first, tunnel } of entries) {
      for (let k = 0; k < clusterSize; k++) {
        const id = first + k;
        pages[id]!.links.push([h, first + ((k + 1) % clusterSize)], [h, first + ((k + 3) % clusterSize)]);
      }
      if (tunnel) {
        // Only path in: home -> off-topic page A -> off-topic page B -> cluster.
        const a = pick(plainOff);
        const b = pick(plainOff);
        pages[0]!.links.push([h, a]);
        pages[a]!.links.push([h, b]);
        pages[b]!.links.push([h, first]);
      } else {
        pages[1 + Math.floor(r() * 4)]!.links.push([h, first]);
        pages[0]!.links.push([h, first]);
      }
    }
    for (const p of pages) {
      // Everyone links home and a hub; off-topic, spam and hub pages link around the host.
      p.links.push([h, 0], [h, 1 + Math.floor(r() * 4)]);
      const extra = p.kind === 'hub' || p.kind === 'home' ? 25 : p.kind === 'target' ? 3 : 6;
      // One of plainOff followed by `more`, drawn as from their concatenation (the same draw, the
      // same web) without copying plainOff for every link: the copies made bench gen quadratic.
      const more = p.kind === 'target' ? [p.id] : offIds;
      for (let k = 0; k < extra; k++) {
        const i = Math.floor(r() * (plainOff.length + more.length));
        p.links.push([h, i < plainOff.length ? plainOff[i]! : more[i - plainOff.length]!]);
      }
      if (r() < 0.15 && spec.hosts > 1) p.links.push([Math.floor(r() * spec.hosts), 0]);
    }
    hosts.push(pages);
  }
  return hosts;
}

function text(spec: WebSpec, p: PageDef, r: () => number): { title: string; body: string } {
  const w = WORDS[spec.lang];
  const zh = spec.lang === 'zh';
  const words: string[] = [];
  const topical = p.kind === 'target' ? 0.25 : p.kind === 'spam' ? 0.6 : 0.02;
  for (let i = 0; i < 250; i++) {
    const u = r();
    words.push(u < topical ? w.topic[Math.floor(r() * w.topic.length)]! : u < topical + 0.2 ? w.off[Math.floor(r() * w.off.length)]! : w.filler[Math.floor(r() * w.filler.length)]!);
  }
  const t = p.kind === 'target' ? w.topic[(p.id * 3) % w.topic.length]! : p.kind === 'spam' ? w.topic[p.id % w.topic.length]! + (zh ? '' : ' ') + w.topic[(p.id + 1) % w.topic.length]! : w.off[p.id % w.off.length]!;
  return { title: `${t}${zh ? ' 第' + p.id + '页' : ' ' + p.id}`, body: words.join(zh ? '' : ' ') };
}

/** Writes the web as files: DIR/web.json (spec), DIR/labels.txt (target URLs), DIR/h<k>/... pages. */
export function writeWeb(spec: WebSpec, dir: string): { pages: number; targets: number } {
  const web = buildWeb(spec);
  const r = seededRandom(spec.seed * 7 + 3);
  const w = WORDS[spec.lang];
  const titles = web.map((pages) => pages.map((p) => text(spec, p, seededRandom(spec.seed * 1009 + p.host * 100003 + p.id)).title));
  const labels: string[] = [];
  let count = 0;
  for (const pages of web) {
    const h = pages[0]!.host;
    mkdirSync(join(dir, `h${h}`, 'p'), { recursive: true });
    for (const p of pages) {
      const { title, body } = text(spec, p, seededRandom(spec.seed * 1009 + p.host * 100003 + p.id));
      const links = p.links
        .map(([lh, lid]) => {
          const anchor = r() < spec.informativeAnchors ? titles[lh]![lid]! : `${w.vague[Math.floor(r() * w.vague.length)]!} ${lid}`;
          return `<li><a href="${pageUrl(spec, lh, lid)}">${anchor}</a></li>`;
        })
        .join('\n');
      const html = `<!DOCTYPE html><html lang="${spec.lang}"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p><ul>${links}</ul></body></html>\n`;
      writeFileSync(join(dir, `h${h}`, p.id === 0 ? 'index.html' : join('p', `${p.id}.html`)), html);
      if (p.kind === 'target') labels.push(pageUrl(spec, h, p.id));
      count++;
    }
  }
  writeFileSync(join(dir, 'labels.txt'), labels.join('\n') + '\n');
  writeFileSync(join(dir, 'web.json'), JSON.stringify(spec, null, 2) + '\n');
  return { pages: count, targets: labels.length };
}

export function readWebSpec(dir: string): WebSpec {
  let spec: WebSpec;
  try {
    spec = { ...DEFAULT_WEB, ...(JSON.parse(readFileSync(join(dir, 'web.json'), 'utf8')) as Partial<WebSpec>) };
  } catch (err) {
    throw new FocusCrawlError('IO', `${dir} is not a generated web (web.json: ${fileError(err)})`);
  }
  // Checked here, not where a bad value fails later as "no seed URLs" or a socket's RangeError.
  const whole = (k: 'seed' | 'hosts' | 'pagesPerHost' | 'basePort', min: number) => {
    if (!Number.isInteger(spec[k]) || spec[k] < min) throw new FocusCrawlError('USAGE', `${join(dir, 'web.json')}: ${k} must be a whole number of at least ${min}, not ${JSON.stringify(spec[k])}`);
  };
  whole('seed', 0);
  whole('hosts', 1);
  whole('pagesPerHost', 1);
  whole('basePort', 1);
  if (spec.basePort + spec.hosts - 1 > 65535) throw new FocusCrawlError('USAGE', `${join(dir, 'web.json')}: basePort ${spec.basePort} with ${spec.hosts} hosts runs past port 65535`);
  if (spec.lang !== 'en' && spec.lang !== 'zh') throw new FocusCrawlError('USAGE', `${join(dir, 'web.json')}: lang must be 'en' or 'zh', not ${JSON.stringify(spec.lang)}`);
  return spec;
}
