import type { ListedPage } from '../src/dashboard/snapshot.js';

const fmt = (x: number | null) => (x === null ? '–' : x.toFixed(3));

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

/** One page: title, scores, the anchor path from its seed, and (live only) the label buttons. */
function pageItem(p: ListedPage, onLabel: ((url: string, relevant: boolean) => void) | null): HTMLLIElement {
  const li = el('li', { className: 'page' });
  li.dataset.url = p.url;
  li.append(el('a', { href: p.url, target: '_blank', rel: 'noreferrer' }, p.title || p.url), ' ', el('span', { className: 'scores' }, `relevance ${fmt(p.relevance)} · priority ${fmt(p.priority)} · depth ${p.depth}`));
  if (p.snippet) li.append(el('div', { className: 'snippet' }, p.snippet));
  if (p.path.length > 1) {
    const path = el('div', { className: 'path' }, 'path: ');
    p.path.forEach((s, i) => {
      if (i) path.append(' → ');
      path.append(el('span', { title: `${s.url}\npriority ${fmt(s.priority)}, relevance ${fmt(s.relevance)}` }, i === 0 ? 'seed' : `“${s.anchor || '(no anchor)'}”`));
    });
    li.append(path);
  }
  const label = el('span', { className: 'label' }, p.label === null ? '' : p.label ? 'labelled relevant' : 'labelled not relevant');
  if (onLabel) {
    const yes = el('button', { className: 'label-yes', type: 'button' }, 'relevant');
    const no = el('button', { className: 'label-no', type: 'button' }, 'not relevant');
    yes.onclick = () => onLabel(p.url, true);
    no.onclick = () => onLabel(p.url, false);
    li.append(el('div', { className: 'labelling' }, yes, no, ' ', label));
  } else if (p.label !== null) li.append(el('div', { className: 'labelling' }, label));
  return li;
}

export function renderPages(list: HTMLElement, pages: ListedPage[], onLabel: ((url: string, relevant: boolean) => void) | null): void {
  list.replaceChildren(...pages.map((p) => pageItem(p, onLabel)));
}

/** A table from rows of cells, with a header row. */
export function renderTable(table: HTMLElement, head: string[], rows: (string | number)[][]): void {
  const tr = (cells: (string | number)[], tag: 'th' | 'td') => el('tr', {}, ...cells.map((c) => el(tag, {}, String(c))));
  table.replaceChildren(el('thead', {}, tr(head, 'th')), el('tbody', {}, ...rows.map((r) => tr(r, 'td'))));
}
