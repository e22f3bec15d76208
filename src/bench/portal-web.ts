import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceDetection } from '../services/service-detection.js';
import { seededRandom } from './seeded-random.js';

/**
 * A generated geoportal web for the service-discovery benchmark (method B's setting): a portal
 * host whose news archive dwarfs its data pages, service links at depths 1 to 5 below the home
 * page (some behind uninformative anchors and pages without topic words), and service hosts that
 * answer GetCapabilities like GeoServer, MapServer and ArcGIS do, or with an exception report,
 * or not at all. Ground truth: the valid WMS endpoints the portal links to.
 */
export interface PortalSpec {
  seed: number;
  /** Pages of the news archive (the breadth-first crawler's trap). */
  newsPages: number;
  /** Pages that hold service links, one chain of pages leading to each. */
  servicePages: number;
  /** Service endpoints in all (WMS valid, WMS exception, dead, WFS). */
  endpoints: number;
  /** Share of chain pages with an uninformative anchor and no topic words. */
  hiddenShare: number;
  /** Share of the page text in Chinese. */
  zhShare: number;
}

export const DEFAULT_PORTAL: PortalSpec = { seed: 7, newsPages: 6000, servicePages: 120, endpoints: 160, hiddenShare: 0.25, zhShare: 0.3 };

type EndpointKind = 'geoserver' | 'mapserver' | 'arcgis' | 'exception' | 'dead' | 'wfs';
interface Endpoint { id: number; kind: EndpointKind; base: string; }
interface PageLink { url: string; anchor: string; }
interface PortalPage { title: string; words: string[]; links: PageLink[]; }

export interface PortalWeb {
  origin: string;
  /** A directory page listing many services directly (the source's seed 1, a library page). */
  listSeed: string;
  /** The portal home page (the source's seed 2). */
  homeSeed: string;
  /** Every valid WMS endpoint (each is linked from a service page of the portal), as the registry records them. */
  truth: Set<string>;
  /** Depth (from the home page) of the first page linking to each true endpoint. */
  depthOf: Map<string, number>;
  close(): Promise<void>;
}

const TOPIC_EN = 'web map service WMS layer OGC GetCapabilities geospatial map services catalogue'.split(' ');
const TOPIC_ZH = ['地图服务', '图层', '地理信息', '网络地图服务', '服务目录'];
const NEWS_EN = 'minister visit school football festival budget weather hospital award concert museum election market travel'.split(' ');
const NEWS_ZH = ['领导', '会议', '学校', '足球', '节日', '预算', '天气', '医院', '奖励', '音乐会', '博物馆', '旅游'];
const INFORMATIVE = ['Map services', 'WMS services', 'GIS data services', 'Web map service catalogue', '地图服务', '网络地图服务', '地理信息服务'];
const VAGUE = ['More', 'Details', 'Projects', 'Resources', 'Read more', '更多', '详情', '项目'];

const WMS_130 = (title: string, layer: string, w: number, s: number) => `<?xml version="1.0" encoding="UTF-8"?>
<WMS_Capabilities version="1.3.0" xmlns="http://www.opengis.net/wms"><Service><Name>WMS</Name><Title>${title}</Title></Service>
<Capability><Layer><Title>${title}</Title><CRS>EPSG:4326</CRS><Layer queryable="1"><Name>${layer}</Name><Title>${layer}</Title>
<EX_GeographicBoundingBox><westBoundLongitude>${w}</westBoundLongitude><eastBoundLongitude>${w + 2}</eastBoundLongitude>
<southBoundLatitude>${s}</southBoundLatitude><northBoundLatitude>${s + 2}</northBoundLatitude></EX_GeographicBoundingBox></Layer></Layer></Capability></WMS_Capabilities>`;
const WMS_111 = (title: string, layer: string, w: number, s: number) => `<?xml version="1.0" encoding="UTF-8"?>
<WMT_MS_Capabilities version="1.1.1"><Service><Name>OGC:WMS</Name><Title>${title}</Title></Service>
<Capability><Layer><Title>${title}</Title><SRS>EPSG:4326</SRS><Layer><Name>${layer}</Name><Title>${layer}</Title>
<LatLonBoundingBox minx="${w}" miny="${s}" maxx="${w + 2}" maxy="${s + 2}"/></Layer></Layer></Capability></WMT_MS_Capabilities>`;
const WFS_200 = (title: string) => `<?xml version="1.0"?><wfs:WFS_Capabilities version="2.0.0" xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:ows="http://www.opengis.net/ows/1.1">
<ows:ServiceIdentification><ows:Title>${title}</ows:Title><ows:ServiceType>WFS</ows:ServiceType></ows:ServiceIdentification></wfs:WFS_Capabilities>`;
const EXCEPTION = `<?xml version="1.0"?><ServiceExceptionReport version="1.3.0" xmlns="http://www.opengis.net/ogc"><ServiceException code="LayerNotDefined">Service retired</ServiceException></ServiceExceptionReport>`;

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

/** Starts the portal and its service hosts on 127.0.0.1 (free ports) and returns the seeds and ground truth. */
export async function startPortalWeb(spec: PortalSpec = DEFAULT_PORTAL): Promise<PortalWeb> {
  const r = seededRandom(spec.seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const endpoints: Endpoint[] = [];
  const services = await listen((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const q = new Map([...u.searchParams].map(([k, v]) => [k.toLowerCase(), v.toLowerCase()]));
    const ep = endpoints.find((e) => new URL(e.base).pathname === u.pathname && (e.kind !== 'mapserver' || u.searchParams.get('map') === new URL(e.base).searchParams.get('map')));
    if (u.pathname === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (!ep || ep.kind === 'dead') return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>404 Not Found</title>');
    if (q.get('request') === 'getmap') return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64));
    const xml = (body: string) => res.writeHead(200, { 'content-type': 'text/xml' }).end(body);
    if (ep.kind === 'exception' || q.get('request') !== 'getcapabilities') return xml(EXCEPTION);
    const title = `Service ${ep.id}`;
    if (ep.kind === 'wfs') return xml(q.get('service') === 'wfs' ? WFS_200(title) : EXCEPTION);
    if (q.get('service') !== 'wms') return xml(EXCEPTION);
    return xml(ep.kind === 'mapserver' ? WMS_111(title, `l${ep.id}`, 100 + (ep.id % 20), 20 + (ep.id % 15)) : WMS_130(title, `l${ep.id}`, 100 + (ep.id % 20), 20 + (ep.id % 15)));
  });
  const kinds: EndpointKind[] = ['geoserver', 'geoserver', 'mapserver', 'arcgis', 'geoserver', 'mapserver', 'arcgis', 'exception', 'dead', 'wfs'];
  for (let id = 0; id < spec.endpoints; id++) {
    const kind = kinds[id % kinds.length]!;
    const o = services.origin;
    const base = kind === 'mapserver' ? `${o}/cgi-bin/mapserv?map=/maps/m${id}.map`
      : kind === 'arcgis' ? `${o}/arcgis/services/S${id}/MapServer/WMSServer`
        : kind === 'wfs' ? `${o}/geoserver/ws${id}/wfs` : `${o}/geoserver/ws${id}/wms`;
    endpoints.push({ id, kind, base });
  }
  const linkTo = (e: Endpoint): PageLink => {
    const sep = e.base.includes('?') ? '&' : '?';
    const style = r();
    const svc = e.kind === 'wfs' ? 'WFS' : 'WMS';
    if (style < 0.6) return { url: `${e.base}${sep}SERVICE=${svc}&REQUEST=GetCapabilities`, anchor: pick([`${svc} GetCapabilities`, `Service ${e.id}`, '服务地址']) };
    if (style < 0.85 && svc === 'WMS') return { url: `${e.base}${sep}service=WMS&version=1.3.0&request=GetMap&layers=l${e.id}&bbox=20,100,40,120&width=256&height=256&format=image/png`, anchor: 'Preview map' };
    return { url: `${e.base}${sep}request=GetCapabilities&service=${svc}`, anchor: `Service ${e.id}` };
  };

  // The portal: home, sections, a news archive, and chains of pages down to the service pages.
  const pages = new Map<string, PortalPage>();
  const words = (topic: boolean, n: number) => Array.from({ length: n }, () => (r() < spec.zhShare ? pick(topic ? TOPIC_ZH : NEWS_ZH) : pick(topic ? TOPIC_EN : NEWS_EN)));
  const news = Array.from({ length: spec.newsPages }, (_x, i) => `/news/${2010 + (i % 14)}/${i}.html`);
  const nav: PageLink[] = [{ url: '/', anchor: 'Home' }, { url: '/news/', anchor: 'News' }, { url: '/about.html', anchor: 'About' }, { url: '/research.html', anchor: 'Research' }, { url: '/data/', anchor: 'Data' }, { url: '/gis/', anchor: 'Maps' }];
  const add = (path: string, title: string, topic: boolean, links: PageLink[]) => pages.set(path, { title, words: words(topic, 150), links: [...nav, ...links] });
  news.forEach((p, i) => add(p, `News ${i}`, false, Array.from({ length: 8 }, () => ({ url: pick(news), anchor: `News ${Math.floor(r() * 1e4)}` }))));
  const depthOf = new Map<string, number>();
  const detection = new ServiceDetection(['WMS']);
  const holders: { path: string; depth: number }[] = [];
  const intermediate: { path: string; hidden: boolean }[] = [];
  const chainsFrom: Record<string, PageLink[]> = { '/': [], '/data/': [], '/gis/': [], '/research.html': [] };
  for (let k = 0; k < spec.servicePages; k++) {
    const depth = 1 + (k % 5);
    let parent = depth === 1 ? '/' : pick(['/data/', '/gis/', '/research.html']);
    for (let d = 2; d <= depth; d++) {
      const hidden = r() < spec.hiddenShare;
      const path = d === depth ? `/${hidden ? 'p' : 'gis/services'}/${k}.html` : `/${hidden ? 'p' : 'gis/catalogue'}/${k}-${d}.html`;
      const anchor = hidden ? pick(VAGUE) : pick(INFORMATIVE);
      (chainsFrom[parent] ??= []).push({ url: path, anchor });
      if (d < depth) intermediate.push({ path, hidden });
      parent = path;
    }
    const holder = depth === 1 ? `/gis/services/${k}.html` : parent;
    if (depth === 1) chainsFrom['/']!.push({ url: holder, anchor: pick(INFORMATIVE) });
    holders.push({ path: holder, depth });
  }
  // Each service page links 1-3 endpoints; every endpoint gets at least one page.
  const svcLinks = new Map<string, PageLink[]>();
  endpoints.forEach((e, i) => {
    const h = holders[i % holders.length]!;
    const extra = r() < 0.3 ? [holders[Math.floor(r() * holders.length)]!] : [];
    for (const holder of [h, ...extra]) {
      const link = linkTo(e);
      (svcLinks.get(holder.path) ?? svcLinks.set(holder.path, []).get(holder.path)!).push(link);
      const c = detection.candidate(link.url);
      if (c && ['geoserver', 'mapserver', 'arcgis'].includes(e.kind)) depthOf.set(c.endpoint, Math.min(depthOf.get(c.endpoint) ?? 99, holder.depth));
    }
  });
  for (const { path, hidden } of intermediate) add(path, hidden ? 'Projects' : 'Map service catalogue', !hidden, chainsFrom[path] ?? []);
  for (const { path } of holders) add(path, 'Web map services', true, [...(svcLinks.get(path) ?? []), { url: pick(news), anchor: 'Latest news' }]);
  add('/', 'National geoscience portal', false, [...chainsFrom['/']!, ...news.slice(0, 20).map((url, i) => ({ url, anchor: `Headline ${i}` }))]);
  add('/news/', 'News archive', false, news.slice(0, 60).map((url, i) => ({ url, anchor: `Story ${i}` })));
  add('/about.html', 'About us', false, []);
  add('/research.html', 'Research', false, chainsFrom['/research.html']!);
  add('/data/', 'Data centre', true, chainsFrom['/data/']!);
  add('/gis/', 'GIS', true, chainsFrom['/gis/']!);
  // Seed 1: a library page listing most services directly, as the source's first seed did.
  add('/library/wms-list.html', 'List of web map services', true, endpoints.filter(() => r() < 0.8).map(linkTo));

  const portal = await listen((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    const p = pages.get(path);
    if (!p) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    const links = p.links.map((l) => `<a href="${l.url.replace(/&/g, '&amp;')}">${l.anchor}</a>`).join(' ');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><html><head><title>${p.title}</title></head><body><h1>${p.title}</h1><p>${p.words.join(' ')}</p><nav>${links}</nav></body></html>`);
  });
  const truth = new Set(depthOf.keys());
  return {
    origin: portal.origin,
    listSeed: `${portal.origin}/library/wms-list.html`,
    homeSeed: `${portal.origin}/`,
    truth,
    depthOf,
    close: async () => {
      for (const s of [portal.server, services.server]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
