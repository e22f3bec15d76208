import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { pageFile, pagesDir, readBuiltSite } from './built-site.js';
import { labelTargets } from './labels.js';
import { labelRuleText, SITES, TOPICS, topicFile } from './manifest.js';
import { reachable } from './oracle.js';

/**
 * Cuts the test suite's real-web slice out of a built site: the pages outside the dropped
 * folders that stay reachable from the start page, slimmed to what a crawler reads (text, title,
 * headings, links; no scripts, styles or markup-only attributes) so a few hundred real pages fit
 * in about a megabyte, with the labels of one topic.
 *
 *   node dist/bench/realweb/make-slice.js --topic django-gis --drop releases/,_modules/ --out test/fixtures/realweb-slice
 */
const here = dirname(fileURLToPath(import.meta.url));
const benchDir = join(here, '..', '..', '..', 'bench', 'realweb');
const outRoot = join(benchDir, 'out');

/** Tags kept for the crawler (structure it scores: title, headings, paragraphs, lists, links, frames). */
const KEEP = new Set(['html', 'head', 'title', 'meta', 'body', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'li', 'pre', 'br', 'a', 'area', 'frame', 'iframe']);

export function slimPage(html: string, keepUrl: (url: string) => boolean): string {
  let h = html.replace(/<script\b[\s\S]*?<\/script>/gi, '').replace(/<style\b[\s\S]*?<\/style>/gi, '').replace(/<!--[\s\S]*?-->/g, '');
  h = h.replace(/<(\/?)([a-zA-Z][\w:-]*)([^>]*)>/g, (_m, close: string, name: string, attrs: string) => {
    const tag = name.toLowerCase();
    if (!KEEP.has(tag)) return ' ';
    if (close) return `</${tag}>`;
    if (tag === 'meta') return /charset/i.test(attrs) ? `<meta${attrs}>` : '';
    const link = /\b(href|src)\s*=\s*"([^"]*)"/i.exec(attrs);
    return link && keepUrl(link[2]!) ? `<${tag} ${link[1]!.toLowerCase()}="${link[2]}">` : `<${tag}>`;
  });
  return h.replace(/\s+/g, ' ');
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const { values } = parseArgs({ options: { topic: { type: 'string' }, drop: { type: 'string', default: '' }, out: { type: 'string' } } });
  const topic = TOPICS.find((t) => t.id === values.topic);
  if (!topic || !values.out) throw new Error('usage: make-slice --topic ID [--drop dir/,dir/] --out DIR');
  const siteDef = SITES.find((s) => s.id === topic.site)!;
  const site = readBuiltSite(outRoot, topic.site);
  if (!site) throw new Error(`site ${topic.site} is not built: run npm run bench:realweb -- --sites ${topic.site} --build-only`);
  // The slice is stored as UTF-8 JSON; a GBK site would need its bytes kept as they are.
  if (siteDef.encoding !== 'utf-8') throw new Error(`make-slice: site ${site.id} is not UTF-8`);
  const drop = values.drop!.split(',').filter(Boolean);
  const kept = site.originals.map((p) => !drop.some((d) => p.startsWith(d)));
  const reach = reachable({ root: site.root, out: site.out.map((o, i) => (kept[i] ? o.filter((j) => kept[j]) : [])) });
  const inSlice = new Set(site.urls.filter((_u, i) => reach.has(i)));
  const pages: Record<string, string> = {};
  for (const i of reach) {
    const html = readFileSync(join(pagesDir(outRoot, site.id), pageFile(site.urls[i]!)), 'utf8');
    pages[site.urls[i]!] = slimPage(html, (u) => inSlice.has(u));
  }
  const targets = [...labelTargets(site, topic.label)].filter((i) => reach.has(i)).map((i) => site.urls[i]!);
  mkdirSync(values.out, { recursive: true });
  const gz = gzipSync(JSON.stringify(pages), { level: 9 });
  writeFileSync(join(values.out, 'pages.json.gz'), gz);
  writeFileSync(join(values.out, 'labels.txt'), targets.sort().join('\n') + '\n');
  copyFileSync(join(benchDir, topicFile(topic)), join(values.out, 'topic.yaml'));
  writeFileSync(
    join(values.out, 'README.md'),
    `# A real-web slice for the test suite

${reach.size} pages of the \`${site.id}\` site of bench/realweb: the HTML documentation of the Debian package
\`${site.package}\` ${site.version} (${siteDef.root}), with opaque URLs as bench/realweb serves it, minus the pages
under ${drop.map((d) => `\`${d}\``).join(', ') || '(nothing)'} and whatever only they linked to. Pages are slimmed to what
the crawler reads (title, headings, paragraphs, lists, links; no scripts, styles or attributes besides links).

- \`pages.json.gz\`: served path -> HTML ('/' is the start page).
- \`labels.txt\`: the ${targets.length} target pages of topic \`${topic.id}\`: ${labelRuleText(topic.label)} in the original tree.
- \`topic.yaml\`: bench/realweb/${topicFile(topic)}.

Made with \`node dist/bench/realweb/make-slice.js --topic ${topic.id}${drop.length ? ` --drop ${drop.join(',')}` : ''} --out ${values.out}\`
after \`npm run bench:realweb -- --sites ${site.id} --build-only\`. The Debian documentation is free software (see
/usr/share/doc/${site.package}/copyright).
`,
  );
  process.stderr.write(`slice: ${reach.size} pages, ${targets.length} targets, ${gz.length} bytes gzipped\n`);
}
