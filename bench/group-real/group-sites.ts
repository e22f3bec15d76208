import type { SiteDef } from '../realweb/manifest.js';

/**
 * bench/group-real's group: documentation sites of Debian packages, each built and served like
 * bench/realweb's (opaque URLs, one 127.0.0.1 port a site), and four kinds of page that most but
 * not all of them have. Labels are the original tree's file names, written here by hand after
 * reading each candidate page's title and first heading (`--check-labels` prints them; the
 * reading is recorded in docs/benchmarks.md).
 *
 * Page kinds: `license` (the project's licence or copyright terms as a page of its own), `faq` (a
 * page of frequently asked questions, or one question of a FAQ split into pages) and
 * `contributing` (a guide for people who want to take part in the project's development: how to
 * report bugs, send changes, set up a working copy, the project's rules for contributors).
 * Settings of the group crawler are chosen on the tuning kinds; the report kind is only reported.
 * FAQ pages were the report kind until 2026-11-25: after three sessions of reading their misses
 * they no longer count as held out, and `contributing` was labelled to take their place.
 * `changelog` (release notes or a change log: what changed in one or more releases, under names
 * that vary from site to site: Changes, Changelog, News, Release notes, Version history, What's
 * new, History) was added as a third tuning kind on 2026-11-28, for the name variation the other
 * two tuning kinds lack. Where a site splits its release notes into a section of pages (a page a
 * release), the section's index is the target and its other pages are left out of the grading
 * (`ignore`): counted as targets, sqlite's 225 release pages would outweigh every other site.
 */
export type PageKind = 'license' | 'faq' | 'contributing' | 'changelog';
export const PAGE_KINDS: readonly PageKind[] = ['license', 'faq', 'changelog', 'contributing'];

export const TUNE_KINDS: readonly PageKind[] = ['license', 'faq', 'changelog'];
export const REPORT_KIND: PageKind = 'contributing';

export interface GroupSiteDef {
  id: string;
  package: string;
  /** The installed tree and its start page (served as '/'). */
  root: string;
  start: string;
  /** Generator, for the docs. */
  generator: 'Sphinx' | 'texinfo' | 'Doxygen' | 'sqlite.org' | 'libxml2 (XSLT)';
  /** Target pages per kind, as paths in the original tree (a site without the kind has none). */
  faq: string[];
  license: string[];
  /** Contributing guides; none when absent. */
  contributing?: string[];
  /** Release notes and change logs; none when absent. */
  changelog?: string[];
  /** Per kind, pages that are neither target nor miss (the parts of a section whose index is the target). */
  ignore?: Partial<Record<PageKind, string[]>>;
}

const doc = (p: string) => `/usr/share/doc/${p}`;

export const GROUP_SITES: GroupSiteDef[] = [
  // Licence and FAQ pages (most with a contributing guide too).
  { id: 'argon2', package: 'python-argon2-doc', root: doc('python-argon2-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: ['license.html'], contributing: ['contributing.html'] },
  { id: 'spectacular', package: 'python-djangorestframework-spectacular-doc', root: doc('python-djangorestframework-spectacular-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: ['license.html'], contributing: ['contributing.html'] },
  { id: 'h5py', package: 'python-h5py-doc', root: doc('python-h5py-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: ['licenses.html'], contributing: ['contributing.html'], changelog: ['whatsnew/index.html'], ignore: { changelog: ['whatsnew/'] } },
  { id: 'jinja2', package: 'python-jinja2-doc', root: doc('python-jinja2-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: ['license.html'], changelog: ['changes.html'] },
  { id: 'psycopg2', package: 'python-psycopg2-doc', root: doc('python-psycopg2-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: ['license.html'], changelog: ['news.html'] },
  { id: 'pycryptodome', package: 'python-pycryptodome-doc', root: doc('python-pycryptodome-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['src/faq.html'], license: ['src/license.html'], contributing: ['src/contribute_support.html'] },
  { id: 'pysnmp', package: 'python-pysnmp4-doc', root: doc('python-pysnmp4-doc/html'), start: 'contents.html', generator: 'Sphinx', faq: ['faq.html', 'faq/'], license: ['license.html'] },
  { id: 'validate-pyproject', package: 'python-validate-pyproject-doc', root: doc('python-validate-pyproject-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: ['license.html'], contributing: ['contributing.html'], changelog: ['changelog.html'] },
  { id: 'wtforms', package: 'python-wtforms-doc', root: doc('python-wtforms-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: ['license.html'], contributing: ['contributing.html'], changelog: ['changes.html', 'whats_new.html'] },
  { id: 'celery', package: 'python-celery-doc', root: doc('python-celery-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: ['copyright.html'], contributing: ['internals/guide.html'], changelog: ['history/index.html', 'whatsnew-5.2.html'], ignore: { changelog: ['history/'] } },
  { id: 'sqlite', package: 'sqlite3-doc', root: doc('sqlite3'), start: 'index.html', generator: 'sqlite.org', faq: ['faq.html'], license: ['copyright.html'], changelog: ['changes.html'], ignore: { changelog: ['releaselog/', 'chronology.html', 'news.html', 'oldnews.html', '34to35.html', '35to36.html', 'formatchng.html', 'pgszchng2016.html'] } },
  // FAQ, no licence page.
  { id: 'aiohttp', package: 'python-aiohttp-doc', root: doc('python-aiohttp-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: [], contributing: ['contributing.html'], changelog: ['changes.html', 'whats_new_3_0.html', 'whats_new_1_1.html'] },
  { id: 'bottle', package: 'python-bottle-doc', root: doc('python-bottle-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: [], contributing: ['development.html'] },
  { id: 'coverage', package: 'python-coverage-doc', root: doc('python-coverage-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: [], contributing: ['contributing.html'], changelog: ['changes.html', 'whatsnew5x.html'] },
  { id: 'pygments', package: 'python-pygments-doc', root: doc('python-pygments-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: [] },
  { id: 'doit', package: 'python-doit-doc', root: doc('python-doit-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: [], changelog: ['changes.html'] },
  { id: 'pika', package: 'python-pika-doc', root: doc('python-pika-doc/html'), start: 'index.html', generator: 'Sphinx', faq: ['faq.html'], license: [], changelog: ['version_history.html'] },
  // FAQ, no licence page, other generators.
  { id: 'doxygen', package: 'doxygen-doc', root: doc('doxygen/html'), start: 'index.html', generator: 'Doxygen', faq: ['faq.html'], license: [] },
  { id: 'libxml2', package: 'libxml2-doc', root: doc('libxml2/html'), start: 'index.html', generator: 'libxml2 (XSLT)', faq: ['FAQ.html'], license: [], changelog: ['news.html'] },
  // Licence, no FAQ (gettext's FAQ.html is installed but not linked from its manual).
  { id: 'gettext', package: 'gettext-doc', root: doc('gettext'), start: 'index.html', generator: 'texinfo', faq: [], license: ['gettext_20.html'] },
  { id: 'click', package: 'python-click-doc', root: doc('python-click-doc/html'), start: 'index.html', generator: 'Sphinx', faq: [], license: ['license.html'], changelog: ['changes.html'] },
  { id: 'attrs', package: 'python-attr-doc', root: doc('python-attr-doc/html'), start: 'index.html', generator: 'Sphinx', faq: [], license: ['license.html'], changelog: ['changelog.html'] },
  { id: 'babel', package: 'python-babel-doc', root: doc('python-babel-doc/html'), start: 'index.html', generator: 'Sphinx', faq: [], license: ['license.html'], contributing: ['dev.html'] },
  { id: 'itsdangerous', package: 'python-itsdangerous-doc', root: doc('python-itsdangerous-doc/html'), start: 'index.html', generator: 'Sphinx', faq: [], license: ['license.html'], changelog: ['changes.html'] },
  { id: 'cachelib', package: 'python-cachelib-doc', root: doc('python3-cachelib/html'), start: 'index.html', generator: 'Sphinx', faq: [], license: ['license.html'], changelog: ['changes.html'] },
  { id: 'guardian', package: 'python-django-guardian-doc', root: doc('python3-django-guardian/html'), start: 'index.html', generator: 'Sphinx', faq: [], license: ['license.html'], contributing: ['develop/overview.html', 'develop/testing.html'], changelog: ['develop/changes.html'] },
  { id: 'm4', package: 'm4-doc', root: doc('m4'), start: 'index.html', generator: 'texinfo', faq: [], license: ['Copying-This-Manual.html', 'Copying-This-Package.html', 'GNU-Free-Documentation-License.html', 'GNU-General-Public-License.html'] },
  // No page of any kind: zsh's FAQ (FAQ.html, FAQ01-06.html) is installed but not linked from its manual.
  { id: 'zsh', package: 'zsh-doc', root: doc('zsh-common/html'), start: 'index.html', generator: 'texinfo', faq: [], license: [] },
];

/** First port of the group; site i is served on FIRST_PORT + i (any free port if taken). */
export const FIRST_PORT = 28401;

/** The realweb builder's view of a site (same opaque URLs and link rewriting). */
export function siteDef(s: GroupSiteDef, i: number): SiteDef {
  return { id: `group-${s.id}`, package: s.package, root: s.root, start: s.start, port: FIRST_PORT + i, encoding: 'utf-8', lang: 'en', builder: 'html-tree', shape: `${s.generator} manual of ${s.package}` };
}

/** Is original path `p` a target of the kind on site `s`? A label ending in '/' takes the folder. */
export function isTarget(s: GroupSiteDef, kind: PageKind, p: string): boolean {
  return matches(s[kind] ?? [], p);
}

/** Is original path `p` left out of the grading of the kind on site `s` (and no target)? */
export function isIgnored(s: GroupSiteDef, kind: PageKind, p: string): boolean {
  return !isTarget(s, kind, p) && matches(s.ignore?.[kind] ?? [], p);
}

const matches = (labels: readonly string[], p: string): boolean => labels.some((l) => (l.endsWith('/') ? p.startsWith(l) : p === l));
