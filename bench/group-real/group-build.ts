import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHtml } from '../../src/parse/html-page.js';
import { buildSite } from '../realweb/build-site.js';
import { BUILD_VERSION, pagesDir, pageFile, readBuiltSite, type BuiltSite } from '../realweb/built-site.js';
import { installedVersion } from '../realweb/install-package.js';
import { reachable } from '../realweb/oracle.js';
import { isIgnored, isTarget, PAGE_KINDS, siteDef, type GroupSiteDef, type PageKind } from './group-sites.js';

/** A group site as built: bench/realweb's build (apt-get install when missing) under out/. */
export function ensureGroupSite(outDir: string, s: GroupSiteDef, i: number, rebuild = false): BuiltSite {
  const def = siteDef(s, i);
  const have = readBuiltSite(outDir, def.id);
  const version = installedVersion(def.package);
  if (have && !rebuild && have.buildVersion === BUILD_VERSION && (version === null || version === have.version)) return have;
  process.stderr.write(`group-real: building ${s.id} from ${s.package}${have ? ' (rebuild)' : ''}\n`);
  return buildSite(def, outDir);
}

/** Served URLs (paths) of a kind's targets on a built site that are reachable from its start page. */
export function targetPaths(s: GroupSiteDef, built: BuiltSite, kind: PageKind): string[] {
  const reach = reachable(built);
  return built.originals.flatMap((p, i) => (reach.has(i) && isTarget(s, kind, p) ? [built.urls[i]!] : []));
}

/** Served URLs (paths) of the pages a kind's grading leaves out on a built site (GroupSiteDef.ignore). */
export function ignoredPaths(s: GroupSiteDef, built: BuiltSite, kind: PageKind): string[] {
  return built.originals.flatMap((p, i) => (isIgnored(s, kind, p) ? [built.urls[i]!] : []));
}

const KIND_WORDS: Record<PageKind, RegExp> = {
  faq: /\bfaq\b|frequently|questions?\b/i,
  license: /licen[cs]|copying|copyright/i,
  contributing: /contribut|develop|hacking|get involved/i,
  changelog: /change|\bnews\b|release|history|what.s new|whatsnew/i,
};

/**
 * The labels check: every page reachable from the start page whose file name, title or first
 * heading has a word of the kind, with its label. Printed for a reader, who confirms each
 * labelled page is of the kind and each unlabelled one is not (the reading is in
 * docs/benchmarks.md); labelled pages that are not reachable are listed too.
 */
export function labelReport(outDir: string, s: GroupSiteDef, i: number, built: BuiltSite): string[] {
  const reach = reachable(built);
  const out: string[] = [];
  const def = siteDef(s, i);
  built.originals.forEach((p, k) => {
    const labelled = PAGE_KINDS.filter((kind) => isTarget(s, kind, p));
    const html = readFileSync(join(pagesDir(outDir, def.id), pageFile(built.urls[k]!)), 'utf8');
    const page = parseHtml(html, 'http://127.0.0.1' + built.urls[k]!);
    const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1]?.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim().slice(0, 70) ?? '';
    const words = PAGE_KINDS.filter((kind) => KIND_WORDS[kind].test(`${p} ${page.title} ${h1}`));
    if (!labelled.length && !words.length) return;
    const mark = labelled.length ? labelled.join('+').toUpperCase() : '-';
    out.push(`${s.id}\t${reach.has(k) ? 'reachable' : 'UNREACHABLE'}\t${mark}\t${p}\t${page.title.slice(0, 70)}\t${h1}`);
  });
  return out;
}
