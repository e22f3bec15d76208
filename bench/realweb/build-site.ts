import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { parseHtml } from '../../src/parse/html-page.js';
import { BUILD_VERSION, pageFile, siteDir, type BuiltSite } from './built-site.js';
import { ensurePackage } from './install-package.js';
import * as OpenCC from 'opencc-js';
import type { SiteDef } from './manifest.js';
import { opaquePath, redirectTarget, resolveOriginal, rewriteLinks } from './opaque-urls.js';
import { reachable } from './oracle.js';

const require = createRequire(import.meta.url);
const iconv = require('iconv-lite') as { encode(s: string, enc: string): Buffer; decode(b: Buffer, enc: string): string };

function htmlFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if ((e.isFile() || e.isSymbolicLink()) && /\.html?$/i.test(e.name)) out.push(relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}

/** The page a <link rel="up"> names (DocBook chunks name their chapter), as an original path. */
function upLink(html: string, from: string): string | null {
  const m = /<link\b[^>]*\brel\s*=\s*["']up["'][^>]*>/i.exec(html);
  const href = m && /\bhref\s*=\s*["']([^"']*)["']/i.exec(m[0]);
  const res = href ? resolveOriginal(from, href[1]!) : null;
  return res && !res.fragmentOnly ? res.path : null;
}

/** Simplified Chinese as Taiwan writes it: traditional characters and Taiwan's words (OpenCC's cn to twp). */
const toTaiwan = OpenCC.Converter({ from: 'cn', to: 'twp' });

/**
 * Declares GBK or Big5 in <meta> only (the server sends no charset), early enough for the
 * 1024-byte prescan, and encodes the page: the case of a Chinese site that never declares its
 * encoding in HTTP. Characters the encoding lacks become character references.
 */
function toLegacy(html: string, encoding: 'gbk' | 'big5'): Buffer {
  let h = html.replace(/^\s*<\?xml[^>]*\?>\s*/, '');
  h = h.replace(/<meta\s+http-equiv\s*=\s*["']?content-type["']?[^>]*>/gi, '').replace(/<meta\s+charset\s*=[^>]*>/gi, '');
  const head = /<head\b[^>]*>/i.exec(h);
  const meta = `<meta http-equiv="Content-Type" content="text/html; charset=${encoding}" />`;
  h = head ? h.slice(0, head.index + head[0].length) + meta + h.slice(head.index + head[0].length) : meta + h;
  const at = h.indexOf(meta);
  if (at < 0 || Buffer.byteLength(h.slice(0, at + meta.length)) > 1024) throw new Error(`${encoding} <meta> would fall outside the 1024-byte prescan`);
  return iconv.encode(legacySafe(h, encoding), encoding);
}

const encodable = new Map<string, boolean>();
/** Characters the encoding lacks (the no-break space of DocBook titles, for one) as character references, as a GBK or Big5 site's tools write them. */
function legacySafe(s: string, encoding: 'gbk' | 'big5'): string {
  return s.replace(/[^\x00-\x7f]/gu, (c) => {
    const key = `${encoding}:${c}`;
    let ok = encodable.get(key);
    if (ok === undefined) encodable.set(key, (ok = iconv.decode(iconv.encode(c, encoding), encoding) === c));
    return ok ? c : `&#${c.codePointAt(0)};`;
  });
}

/**
 * Builds one site into out/<site>: every HTML page of the installed tree under an opaque URL, its
 * links rewritten, and graph.json with the link graph the crawler will see.
 */
export function buildSite(site: SiteDef, outDir: string, log: (s: string) => void = (s) => process.stderr.write(s)): BuiltSite {
  const version = ensurePackage(site.package);
  const t0 = performance.now();
  const files = htmlFiles(site.root);
  const sources = new Map<string, string>();
  const alias = new Map<string, string>();
  for (const f of files) {
    const html = readFileSync(join(site.root, f), 'utf8');
    const to = redirectTarget(html, f);
    if (to !== null) alias.set(f, to);
    else sources.set(f, html);
  }
  if (!sources.has(site.start)) throw new Error(`${site.id}: start page ${site.start} not found under ${site.root}`);
  // Rustdoc chains re-export stubs; follow a few hops, as a browser would.
  const servedSet = new Set(sources.keys());
  const served = (p: string): string | null => {
    for (let hops = 0; hops < 8; hops++) {
      if (servedSet.has(p)) return p;
      const next = alias.get(p);
      if (next === undefined) return null;
      p = next;
    }
    return null;
  };
  const originals = [...sources.keys()];
  const index = new Map(originals.map((p, i) => [p, i]));
  const urls = originals.map((p) => (p === site.start ? '/' : opaquePath(site.id, p)));
  const target = (p: string) => {
    const s = served(p);
    return s === null ? null : urls[index.get(s)!]!;
  };
  const byUrl = new Map(urls.map((u, i) => [u, i]));
  const origin = `http://127.0.0.1:${site.port}`;

  // Written aside and renamed into place: a crawl serving the previous build keeps whole pages.
  const final = siteDir(outDir, site.id);
  const dir = `${final}.tmp-${process.pid}`;
  const pages = join(dir, 'pages');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(pages, { recursive: true });
  const up: number[] = [];
  const out: number[][] = [];
  originals.forEach((p, i) => {
    const src = sources.get(p)!;
    const u = upLink(src, p);
    const us = u === null ? null : served(u);
    up.push(us === null ? -1 : index.get(us)!);
    const html = rewriteLinks(src, p, target);
    const links = new Set<number>();
    const page = parseHtml(html, origin + urls[i]!);
    if (!page.nofollow) {
      for (const l of page.links) {
        if (l.nofollow || !l.url.startsWith(origin + '/')) continue;
        const j = byUrl.get(l.url.slice(origin.length));
        if (j !== undefined && j !== i) links.add(j);
      }
    }
    out.push([...links].sort((a, b) => a - b));
    const written = site.script === 'zh-tw' ? toTaiwan(html) : html;
    writeFileSync(join(pages, pageFile(urls[i]!)), site.encoding === 'utf-8' ? written : toLegacy(written, site.encoding));
    sources.delete(p); // the big trees do not need every source page in memory twice
    if ((i + 1) % 5000 === 0) log(`  ${site.id}: ${i + 1}/${originals.length} pages\n`);
  });
  const root = index.get(site.start)!;
  const built: BuiltSite = {
    id: site.id,
    package: site.package,
    version,
    buildVersion: BUILD_VERSION,
    builtAt: new Date().toISOString(),
    urls,
    originals,
    up,
    out,
    root,
    reachable: reachable({ root, out }).size,
    redirects: alias.size,
  };
  writeFileSync(join(dir, 'graph.json'), JSON.stringify(built));
  writeFileSync(join(dir, 'map.tsv'), urls.map((u, i) => `${u}\t${originals[i]}`).join('\n') + '\n');
  const old = `${final}.old-${process.pid}`;
  if (existsSync(final)) renameSync(final, old);
  renameSync(dir, final);
  rmSync(old, { recursive: true, force: true });
  log(`realweb: built ${site.id} (${site.package} ${version}): ${originals.length} pages, ${built.reachable} reachable from the start page, ${alias.size} redirect stubs resolved, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  return built;
}
