import type { ListedPage, Snapshot } from '../src/dashboard/snapshot.js';
import { HarvestChart } from './harvest-chart.js';
import { RecallChart } from './recall-chart.js';
import { budgetUsed, duration, nextAllowed } from './host-cells.js';
import { renderPages, renderTable } from './page-list.js';
import { ServicesMap } from './services-map.js';
import './style.css';

const $ = (id: string) => document.getElementById(id)!;
/** A report embeds its snapshot; the live dashboard has none and asks the server. */
const embedded = document.getElementById('focuscrawl-data');
const live = embedded === null;
const chart = new HarvestChart($('harvest'));
const recall = new RecallChart($('recall'));
let map: ServicesMap | null = null;
/** What the services panel shows now (render() redraws it only when this changes). */
let servicesShown = '';
let current: Snapshot | null = null;
// The report holds no full-text index: its box filters the pages it lists (see search()).
if (!live) ($('q') as HTMLInputElement).placeholder = 'filter the listed pages by title and URL';
/** A search's results stay on screen until the search box is emptied. */
let searching = false;

function render(s: Snapshot): void {
  current = s;
  $('crawl-label').textContent = `${s.crawl.label}${s.crawl.topic ? ` · topic “${s.crawl.topic}”` : ''}${s.crawl.strategy ? ` · ${s.crawl.strategy}` : ''}`;
  $('state').textContent = s.state.name;
  $('state').dataset.state = s.state.name;
  $('state-detail').textContent = s.state.detail;
  $('rate').textContent = s.pagesPerSecond !== null ? `· ${s.pagesPerSecond.toFixed(1)} pages/s` : '';
  const u = s.urls;
  const cards: [string, number | string][] = [
    ['fetched', u.done + u.error], ['done', u.done], ['errors', u.error], ['waiting', u.waiting], ['fetching', u.fetching], ['discarded', u.discarded],
    ['pages stored', s.pages], ['relevant', s.relevant ?? '–'], ['harvest rate', s.relevant !== null && u.done + u.error ? `${((100 * s.relevant) / (u.done + u.error)).toFixed(1)} %` : '–'],
    ['labels', `${s.labels.relevant} / ${s.labels.notRelevant}`],
  ];
  $('counts').replaceChildren(...cards.map(([k, v]) => Object.assign(document.createElement('div'), { className: 'card', innerHTML: `<b></b><span></span>` })));
  [...$('counts').children].forEach((c, i) => {
    c.querySelector('b')!.textContent = String(cards[i]![1]);
    c.querySelector('span')!.textContent = cards[i]![0];
    (c as HTMLElement).dataset.key = cards[i]![0];
  });
  const recallSeries = [s.recall.labelled, s.recall.truth].filter((r) => r !== null);
  // Before the panel shows, so the harvest chart can take its half of the width.
  $('recall-panel').hidden = recallSeries.length === 0;
  // Without a topic no page is relevant or not: a curve of zeros would read as a failed crawl.
  const topicless = s.crawl.threshold === null;
  $('harvest').hidden = topicless;
  $('harvest-note').textContent = topicless
    ? 'The crawl has no topic, so no page is judged relevant: there is no harvest curve (give a topic to crawl, or to resume, to have one).'
    : 'Relevant pages found over pages fetched (and the share relevant).';
  if (!topicless) chart.update(s.harvest);
  if (recallSeries.length) {
    $('recall-note').textContent = `Share of the target pages fetched: ${recallSeries.map((r) => `${r.source}, ${r.points.at(-1)?.found ?? 0} of ${r.total}`).join('; ')}.`;
    recall.update(recallSeries);
  }
  // A report holds no index, and without a topic no page list either: its search has nothing to filter.
  const noTopic = live ? 'the crawl has no topic: search to list pages' : 'the crawl has no topic, so this report lists no pages (focuscrawl search or serve searches them)';
  if (!searching) showPages(s.relevantPages, s.crawl.threshold === null ? noTopic : `the ${s.relevantPages.length} most relevant pages (relevance ≥ ${s.crawl.threshold})`);
  renderTable($('bands'), ['priority', 'URLs waiting'], s.waitingByPriority.map((b) => [b.band, b.n]));
  renderTable($('errors'), ['error', 'URLs'], s.errors.map((e) => [e.error, e.n]));
  renderTable($('discarded'), ['reason', 'URLs'], Object.entries(s.discarded).sort((a, b) => b[1] - a[1]));
  const crawling = s.state.name === 'running' || s.state.name === 'waiting on politeness';
  renderTable(
    $('hosts'),
    ['host', 'waiting', 'fetched', 'relevant', 'yield', 'errors', 'delay', 'waited', 'next allowed', 'budget used'],
    s.hosts.map((h) => [
      // Without a topic no page is relevant or not: a dash, not 0 and 0 %.
      h.host, h.waiting, h.fetched, s.crawl.threshold === null ? '–' : h.relevant, s.crawl.threshold !== null && h.fetched ? `${((100 * h.relevant) / h.fetched).toFixed(0)} %` : '–', h.errors,
      // Only a crawl going on will contact a host next: a stopped one's "in 3.5 min" meant nothing.
      duration(h.delayMs), duration(h.waitedMs), crawling ? nextAllowed(h.nextAllowedAt, s.at) : '–', budgetUsed(h, s.crawl.maxPages),
    ]),
  );
  $('services-panel').hidden = s.services.length === 0;
  // Drawn again only when they changed: a thousand rows rebuilt every second kept the page busy.
  const shownServices = JSON.stringify([s.servicesTotal, s.services]);
  if (s.services.length && shownServices !== servicesShown) {
    servicesShown = shownServices;
    map ??= new ServicesMap($('map'));
    map.update(s.services);
    $('services-note').textContent = s.servicesTotal > s.services.length ? `The first ${s.services.length} of ${s.servicesTotal} services, valid ones first: focuscrawl services lists them all.` : '';
    renderTable($('services'), ['type', 'status', 'title', 'endpoint', 'extents'], s.services.map((v) => [v.type, v.status, v.title ?? '', v.endpoint, v.extentCount]));
  }
}

function showPages(pages: ListedPage[], note: string): void {
  $('pages-note').textContent = note;
  renderPages($('pages'), pages, live ? label : null);
}

async function label(url: string, relevant: boolean): Promise<void> {
  const res = await fetch('api/labels', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url, relevant }) });
  const item = [...document.querySelectorAll<HTMLElement>('#pages li')].find((li) => li.dataset.url === url);
  const text = res.ok ? (relevant ? 'labelled relevant' : 'labelled not relevant') : `label not stored (${res.status})`;
  if (item) item.querySelector('.label')!.textContent = text;
}

async function search(q: string): Promise<void> {
  searching = q !== '';
  if (!searching) return current ? render(current) : undefined;
  if (live) {
    const res = await fetch(`api/search?q=${encodeURIComponent(q)}`);
    // A refused search (400: no words, too many) says why instead of listing nothing.
    if (!res.ok) return showPages([], `search refused: ${((await res.json()) as { error: string }).error}`);
    const { hits, lag } = (await res.json()) as { hits: ListedPage[]; lag: string | null };
    showPages(hits, `${hits.length} pages match “${q}”${lag ? ` (${lag})` : ''}`);
  } else {
    // The report holds no index: its search filters the pages it embeds.
    const words = q.toLowerCase().split(/\s+/);
    const hits = (current?.relevantPages ?? []).filter((p) => words.every((w) => `${p.title} ${p.url}`.toLowerCase().includes(w)));
    showPages(hits, `${hits.length} of the listed pages match “${q}”`);
  }
}

$('search').addEventListener('submit', (e) => {
  e.preventDefault();
  void search(($('q') as HTMLInputElement).value.trim());
});

if (embedded) render(JSON.parse(embedded.textContent ?? '{}') as Snapshot);
else {
  // Live updates: the server pushes a snapshot a second; EventSource reconnects by itself.
  const events = new EventSource('api/events');
  events.addEventListener('snapshot', (e) => render(JSON.parse((e as MessageEvent<string>).data) as Snapshot));
  // The crawl's file deleted or replaced under serve: said, and no reconnecting to a crawl that is not there.
  events.addEventListener('gone', (e) => {
    events.close();
    $('state').textContent = 'gone';
    $('state').dataset.state = 'gone';
    $('state-detail').textContent = JSON.parse((e as MessageEvent<string>).data) as string;
  });
}
