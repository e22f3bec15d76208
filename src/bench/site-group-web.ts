import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from './seeded-random.js';

/**
 * A generated group of similar websites for method D (universities publishing past admission
 * scores): several site templates that put the score pages at different depths (2 to 5) under
 * different navigation, navigation wording drawn from synonyms in English and Chinese, decoy
 * pages beside the targets that share their words or their shape (requirements, a fee table by
 * province), and filler (news, faculties). Each site is its own host on 127.0.0.1. Labels: the
 * target URLs.
 */
export interface GroupWebSpec {
  seed: number;
  sites: number;
  /** Share of sites written in Chinese. */
  zhShare: number;
  /** Filler pages per site (news and faculties). */
  filler: number;
}

export const DEFAULT_GROUP_WEB: GroupWebSpec = { seed: 11, sites: 60, zhShare: 0.35, filler: 400 };

interface Page { title: string; body: string; links: { path: string; anchor: string }[] }
export interface GroupSiteInfo { root: string; name: string; template: number; zh: boolean; targets: string[] }
export interface GroupWeb {
  sites: GroupSiteInfo[];
  /** Every target URL of every site. */
  targets: Set<string>;
  close(): Promise<void>;
}

const W = {
  en: {
    admissions: ['Admissions', 'Admission', 'Study with us', 'Prospective students', 'Apply'],
    scores: ['Past scores', 'Admission scores', 'Score lines', 'Historical cut-off scores', 'Entry scores'],
    year: (y: number, r: () => number) => [`${y}`, `${y} scores`, `Scores ${y}`, `Entry ${y}`][Math.floor(r() * 4)]!,
    decoys: ['Admission requirements', 'Tuition and fees', 'Scholarships', 'Exam timetable', 'Campus tours'],
    sections: ['News', 'Research', 'Faculties', 'About', 'Library', 'Alumni'],
    undergrad: ['Undergraduate', 'Undergraduate study', 'Bachelor programmes'],
    provinces: ['Beijing', 'Shanghai', 'Jiangsu', 'Zhejiang', 'Hubei', 'Sichuan', 'Guangdong', 'Henan', 'Shandong', 'Hunan'],
    batches: ['First batch', 'Second batch', 'Early batch'],
    target: (n: string, y: number) => [`${n} admission scores ${y}`, `Minimum and average admission scores by province and batch for ${y}.`, 'Province Batch Minimum score Average score'],
    requirements: 'Applicants must hold a secondary school diploma and sit the national entrance examination. Admission decisions consider scores, interviews and documents. Apply before the deadline.',
    fees: 'Tuition and accommodation fees by province for the coming academic year. Province Fee Accommodation',
    filler: 'the university campus students faculty research team project lecture seminar conference library event award partnership community report city culture sport'.split(' '),
  },
  zh: {
    admissions: ['招生', '招生信息', '本科招生', '招生就业', '报考指南'],
    scores: ['历年分数', '历年录取分数', '分数线', '录取分数线', '往年分数'],
    year: (y: number, r: () => number) => [`${y}年`, `${y}年分数线`, `${y}年录取`][Math.floor(r() * 3)]!,
    decoys: ['报考条件', '学费标准', '奖学金', '考试安排', '校园参观'],
    sections: ['新闻', '科研', '院系', '学校概况', '图书馆', '校友'],
    undergrad: ['本科教育', '本科生', '本科专业'],
    provinces: ['北京', '上海', '江苏', '浙江', '湖北', '四川', '广东', '河南', '山东', '湖南'],
    batches: ['本科一批', '本科二批', '提前批'],
    target: (n: string, y: number) => [`${n}${y}年录取分数线`, `${y}年各省各批次最低录取分数和平均分数。`, '省份 批次 最低分 平均分'],
    requirements: '报考我校须具有高中毕业学历并参加全国统一高考。录取综合考虑考生成绩、面试和材料。请在截止日期前报名。',
    fees: '各省学生学费和住宿费标准。省份 学费 住宿费',
    filler: '学校 校园 学生 教师 科研 团队 项目 讲座 研讨会 会议 图书馆 活动 奖励 合作 社区 报告 城市 文化 体育'.split(' '),
  },
};

function buildSite(seed: number, index: number, zh: boolean, fillerPages: number): { pages: Map<string, Page>; targets: string[]; name: string; template: number } {
  const r = seededRandom(seed * 1000 + index);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const w = zh ? W.zh : W.en;
  const name = zh ? `${pick(['华东', '西南', '东北', '中原', '江南', '岭南'])}${pick(['理工', '师范', '农业', '工业', '科技'])}大学${index}` : `${pick(['North', 'South', 'East', 'West', 'Central', 'Coastal'])} ${pick(['Technical', 'Normal', 'Agricultural', 'State'])} University ${index}`;
  const template = index % 4;
  const pages = new Map<string, Page>();
  const words = (n: number) => Array.from({ length: n }, () => pick(w.filler)).join(zh ? '' : ' ');
  const nav: Page['links'] = [{ path: '/', anchor: zh ? '首页' : 'Home' }];
  const sections = w.sections.map((s, i) => ({ path: `/s${i}/`, anchor: s }));
  const admissions = { path: `/${pick(['admissions', 'zs', 'apply', 'study'])}/`, anchor: pick(w.admissions) };
  nav.push(...sections.slice(0, 4), admissions);
  const add = (path: string, title: string, body: string, links: Page['links']) => pages.set(path, { title, body, links: [...nav, ...links] });

  // Filler: news and faculty pages, linked from their sections and from each other.
  const filler = Array.from({ length: fillerPages }, (_x, i) => `/s${i % 3}/${i}.html`);
  filler.forEach((p, i) => add(p, `${w.sections[i % 3]} ${i}`, words(120), Array.from({ length: 5 }, () => ({ path: pick(filler), anchor: words(3) }))));
  sections.forEach((s, i) => add(s.path, s.anchor, words(60), filler.filter((_p, k) => k % 3 === i % 3).slice(0, 12).map((p) => ({ path: p, anchor: words(3) }))));

  // Targets: one score page per year, and decoys beside them.
  const years = [2024, 2023, 2022, 2021, 2020, 2019].slice(0, 3 + Math.floor(r() * 4));
  const targetPage = (y: number): Page => {
    const [title, intro, header] = w.target(name, y);
    const rows = w.provinces.map((p) => `${p} ${pick(w.batches)} ${500 + Math.floor(r() * 180)} ${600 + Math.floor(r() * 90)}`).join('\n');
    return { title: title!, body: `${intro} ${header}\n${rows}\n${words(20)}`, links: [] };
  };
  const decoyPages = (base: string): Page['links'] => {
    const ds = w.decoys.map((d, i) => ({ path: `${base}d${i}.html`, anchor: d }));
    add(ds[0]!.path, ds[0]!.anchor, w.requirements + ' ' + words(40), []);
    add(ds[1]!.path, ds[1]!.anchor, w.fees + '\n' + w.provinces.map((p) => `${p} ${4000 + Math.floor(r() * 3000)} ${800 + Math.floor(r() * 900)}`).join('\n'), []);
    for (const d of ds.slice(2)) add(d.path, d.anchor, words(80), []);
    return ds;
  };
  const targets: string[] = [];
  const putTargets = (base: string): Page['links'] =>
    years.map((y) => {
      const path = `${base}${y}.html`;
      const t = targetPage(y);
      pages.set(path, { ...t, links: [...nav, ...t.links] });
      targets.push(path);
      return { path, anchor: w.year(y, r) };
    });

  const scores = { path: `${admissions.path}${pick(['scores', 'fsx', 'history', 'lines'])}/`, anchor: pick(w.scores) };
  if (template === 0) {
    // Home > Admissions > Scores > year (depth 3).
    add(admissions.path, admissions.anchor, words(60), [scores, ...decoyPages(admissions.path)]);
    add(scores.path, scores.anchor, words(30), putTargets(scores.path));
  } else if (template === 1) {
    // Scores linked from the home page itself (depth 2), admissions page with decoys only.
    nav.push(scores);
    add(admissions.path, admissions.anchor, words(60), decoyPages(admissions.path));
    add(scores.path, scores.anchor, words(30), putTargets(scores.path));
  } else if (template === 2) {
    // Home > Admissions > Undergraduate > Scores > year (depth 4).
    const ug = { path: `${admissions.path}ug/`, anchor: pick(w.undergrad) };
    const deep = { path: `${ug.path}scores/`, anchor: scores.anchor };
    add(admissions.path, admissions.anchor, words(60), [ug, ...decoyPages(admissions.path)]);
    add(ug.path, ug.anchor, words(60), [deep, ...filler.slice(0, 4).map((p) => ({ path: p, anchor: words(3) }))]);
    add(deep.path, deep.anchor, words(30), putTargets(deep.path));
  } else {
    // Score pages published as news: Home > News > page 1 > page 2 ... (depth 2 to 5).
    const news = sections[0]!;
    const items = putTargets('/s0/scores-');
    const pagesOfNews = 4;
    for (let k = 0; k < pagesOfNews; k++) {
      const path = k === 0 ? news.path : `${news.path}page${k + 1}.html`;
      const mine = filler.filter((_p, i) => i % 3 === 0).slice(k * 8, k * 8 + 8).map((p) => ({ path: p, anchor: words(3) }));
      const t = items.filter((_x, i) => i % pagesOfNews === k);
      const next = k + 1 < pagesOfNews ? [{ path: `${news.path}page${k + 2}.html`, anchor: zh ? '下一页' : 'Next' }] : [];
      add(path, news.anchor, words(30), [...mine, ...t, ...next]);
    }
    add(admissions.path, admissions.anchor, words(60), decoyPages(admissions.path));
  }
  add('/', name, words(80), []);
  return { pages, targets, name, template };
}

function render(p: Page, zh: boolean): string {
  const links = p.links.map((l) => `<li><a href="${l.path}">${l.anchor}</a></li>`).join('');
  return `<!DOCTYPE html><html lang="${zh ? 'zh' : 'en'}"><head><meta charset="utf-8"><title>${p.title}</title></head><body><h1>${p.title}</h1><pre>${p.body}</pre><ul>${links}</ul></body></html>`;
}

/** Starts every site of the group on its own port of 127.0.0.1. */
export async function startGroupWeb(spec: GroupWebSpec = DEFAULT_GROUP_WEB): Promise<GroupWeb> {
  const servers: Server[] = [];
  const sites: GroupSiteInfo[] = [];
  const targets = new Set<string>();
  const order = seededRandom(spec.seed);
  for (let i = 0; i < spec.sites; i++) {
    const zh = order() < spec.zhShare;
    const site = buildSite(spec.seed, i, zh, spec.filler);
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      const p = site.pages.get(path);
      if (!p) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(render(p, zh));
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const full = site.targets.map((t) => root + t);
    full.forEach((t) => targets.add(t));
    sites.push({ root: root + '/', name: site.name, template: site.template, zh, targets: full });
  }
  return {
    sites,
    targets,
    close: async () => {
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
