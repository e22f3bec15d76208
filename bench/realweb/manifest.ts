/**
 * What bench/realweb is made of: real documentation trees that Debian packages install, and the
 * topics graded on them. Labels come from each tree's own layout (a folder, or a chapter with the
 * sections whose `<link rel="up">` names it), never from the words of the pages, so a strategy is
 * graded on what the site's authors filed under a subject.
 */

export type Builder = 'html-tree';

export type SiteEncoding = 'utf-8' | 'gbk' | 'big5';

export interface SiteDef {
  id: string;
  /** The host name the site has on the web, where the published copy lives (run.ts --host-names serves it under that name). */
  webHost?: string;
  /** The Debian package installing the tree (installed with apt-get when missing). */
  package: string;
  /** The tree's folder once installed. */
  root: string;
  /** Path (under root) of the start page, served as '/'. */
  start: string;
  /** 127.0.0.1 port the site is served on. */
  port: number;
  /** utf-8 as shipped, or transcoded at build time with the charset declared in <meta> only. */
  encoding: SiteEncoding;
  /**
   * zh-tw: the simplified Chinese tree rewritten at build time as Taiwan writes it (OpenCC's
   * cn to twp: traditional characters and Taiwan's words, 网络 as 網路, 软件 as 軟體).
   */
  script?: 'zh-tw';
  lang: 'en' | 'zh';
  builder: Builder;
  /** What kind of web it is, for the docs. */
  shape: string;
}

export type LabelRule =
  /** Every served page whose original path starts with one of these folders. */
  | { kind: 'under'; dirs: string[] }
  /** A chapter page and, transitively, every page whose <link rel="up"> points to it (DocBook chunks). */
  | { kind: 'chapter'; page: string };

export interface TopicDef {
  id: string;
  site: string;
  label: LabelRule;
  /** small: about 20 targets; large: about 200. */
  size: 'small' | 'large';
  /** tune: settings of strategies may be chosen on it; report: only reported. */
  split: 'tune' | 'report';
  /** The topic whose file it uses (a site's copy in another script is searched with the same topic). */
  topicOf?: string;
}

export const SITES: SiteDef[] = [
  {
    id: 'django',
    webHost: 'docs.djangoproject.com',
    package: 'python-django-doc',
    root: '/usr/share/doc/python-django-doc/html',
    start: 'index.html',
    port: 28301,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: 'Sphinx, Django theme: local table of contents, up/previous/next links, release notes and highlighted module source pages',
  },
  {
    id: 'sqlalchemy',
    webHost: 'docs.sqlalchemy.org',
    package: 'python-sqlalchemy-doc',
    root: '/usr/share/doc/python-sqlalchemy-doc/html',
    start: 'index.html',
    port: 28302,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: 'Sphinx with a sidebar toctree on every page (about 40 links to other pages each), long reference pages',
  },
  {
    id: 'apache',
    webHost: 'httpd.apache.org',
    package: 'apache2-doc',
    root: '/usr/share/doc/apache2-doc/manual/en',
    start: 'index.html',
    port: 28303,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: "Apache httpd's manual: a module index and directive quick reference linking into 138 module pages, a sitemap",
  },
  {
    id: 'git',
    webHost: 'git-scm.com',
    package: 'git-doc',
    root: '/usr/share/doc/git-doc',
    start: 'index.html',
    port: 28304,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: 'AsciiDoc manual pages, flat: git(1) links every command page, which link each other in their SEE ALSO and text',
  },
  {
    id: 'sqlite',
    webHost: 'www.sqlite.org',
    package: 'sqlite3-doc',
    root: '/usr/share/doc/sqlite3',
    start: 'index.html',
    port: 28305,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: "sqlite.org's pages: a menu on every page, a C API of one page per function group, syntax diagrams, release log",
  },
  {
    id: 'rust',
    webHost: 'doc.rust-lang.org',
    package: 'rust-doc',
    root: '/usr/share/doc/rust-doc/html',
    start: 'index.html',
    port: 28306,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: 'rustdoc API pages (std, core with its thousands of arch intrinsics, alloc) and mdBook books; redirect stubs resolved',
  },
  {
    id: 'handbook-zh',
    webHost: 'debian-handbook.info',
    package: 'debian-handbook',
    root: '/usr/share/doc/debian-handbook/html/zh-CN',
    start: 'index.html',
    port: 28307,
    encoding: 'gbk',
    lang: 'zh',
    builder: 'html-tree',
    shape: 'The Debian Administrator\'s Handbook in Simplified Chinese (publican/DocBook chunked by section), served as GBK declared only in <meta>',
  },
  {
    id: 'handbook-tw',
    package: 'debian-handbook',
    root: '/usr/share/doc/debian-handbook/html/zh-CN',
    start: 'index.html',
    port: 28318,
    encoding: 'big5',
    script: 'zh-tw',
    lang: 'zh',
    builder: 'html-tree',
    shape: 'The same Handbook as Taiwan writes it (OpenCC cn to twp: traditional characters and Taiwan\'s words), served as Big5 declared only in <meta>; searched with the simplified topic files',
  },
  {
    id: 'cmake',
    webHost: 'cmake.org',
    package: 'cmake-doc',
    root: '/usr/share/doc/cmake-data/html',
    start: 'index.html',
    port: 28308,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: "CMake's reference (Sphinx): one page per command, variable, property, module, policy and generator, listed by long index pages",
  },
  {
    id: 'celery',
    webHost: 'docs.celeryq.dev',
    package: 'python-celery-doc',
    root: '/usr/share/doc/python-celery-doc/html',
    start: 'index.html',
    port: 28309,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: 'Sphinx (Alabaster theme) with a guide, an API reference, internals, change history and highlighted module source pages',
  },
  {
    id: 'ant',
    webHost: 'ant.apache.org',
    package: 'ant-doc',
    root: '/usr/share/doc/ant/manual',
    start: 'index.html',
    port: 28310,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: "Apache Ant's hand-written HTML manual: a frameset whose table of contents frame leads to task and type lists",
  },
  {
    id: 'gimp-zh',
    webHost: 'docs.gimp.org',
    package: 'gimp-help-zh-cn',
    root: '/usr/share/gimp/2.0/help/zh_CN',
    start: 'index.html',
    port: 28311,
    encoding: 'utf-8',
    lang: 'zh',
    builder: 'html-tree',
    shape: "GIMP's help in Simplified Chinese (DocBook chunked by section, part of it still in English): menus, filters, tools, tutorials",
  },
  {
    id: 'libvirt',
    webHost: 'libvirt.org',
    package: 'libvirt-doc',
    root: '/usr/share/doc/libvirt-doc/html',
    start: 'index.html',
    port: 28312,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: "libvirt's website as shipped: a menu and a long footer on every page, hand-written guides, a knowledge base, manual pages, the C API reference",
  },
  {
    id: 'lilypond-zh',
    webHost: 'lilypond.org',
    package: 'lilypond-doc-html-zh',
    root: '/usr/share/doc/lilypond/html/Documentation/learning',
    start: 'index.zh.html',
    port: 28313,
    encoding: 'utf-8',
    lang: 'zh',
    builder: 'html-tree',
    shape: "LilyPond's Learning Manual from texinfo, one page per section, the Chinese pages (only the tutorial translated) beside the English ones they link to",
  },
  {
    id: 'scipy',
    webHost: 'docs.scipy.org',
    package: 'python-scipy-doc',
    root: '/usr/share/doc/python-scipy-doc/html',
    start: 'index.html',
    port: 28315,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: "SciPy's manual (Sphinx, PyData theme): a page per function in one folder of 4,000, module pages listing them, tutorials, release notes",
  },
  {
    id: 'sphinx',
    webHost: 'www.sphinx-doc.org',
    package: 'sphinx-doc',
    root: '/usr/share/doc/sphinx-doc/html',
    start: 'index.html',
    port: 28314,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: "Sphinx's own manual (Sphinx, its default theme): a sidebar with the local table of contents, a user's guide, the extension API, highlighted module source",
  },
  {
    id: 'octave',
    webHost: 'docs.octave.org',
    package: 'octave-doc',
    root: '/usr/share/doc/octave/octave.html',
    start: 'index.html',
    port: 28316,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: "GNU Octave's manual from texinfo: one page per section, up/next/previous links, a redirect page for every indexed function, and four indexes",
  },
  {
    id: 'glib',
    webHost: 'docs.gtk.org',
    package: 'libglib2.0-doc',
    root: '/usr/share/gtk-doc/html',
    start: 'glib/index.html',
    port: 28317,
    encoding: 'utf-8',
    lang: 'en',
    builder: 'html-tree',
    shape: "GLib's reference from gtk-doc (DocBook chunks): a page per module with a navigation bar, parts of chapters, \"Page: GLib Reference Manual\" titles, and cross-links into the GObject and GIO references installed beside it",
  },
];

export const TOPICS: TopicDef[] = [
  { id: 'django-gis', site: 'django', label: { kind: 'under', dirs: ['ref/contrib/gis/'] }, size: 'small', split: 'tune' },
  { id: 'django-releases', site: 'django', label: { kind: 'under', dirs: ['releases/'] }, size: 'large', split: 'report' },
  { id: 'sqlalchemy-extensions', site: 'sqlalchemy', label: { kind: 'under', dirs: ['orm/extensions/'] }, size: 'small', split: 'tune' },
  { id: 'sqlalchemy-dialects', site: 'sqlalchemy', label: { kind: 'under', dirs: ['dialects/'] }, size: 'small', split: 'report' },
  { id: 'apache-modules', site: 'apache', label: { kind: 'under', dirs: ['mod/'] }, size: 'large', split: 'tune' },
  { id: 'apache-programs', site: 'apache', label: { kind: 'under', dirs: ['programs/'] }, size: 'small', split: 'report' },
  { id: 'git-howto', site: 'git', label: { kind: 'under', dirs: ['howto/'] }, size: 'small', split: 'tune' },
  { id: 'git-internals', site: 'git', label: { kind: 'under', dirs: ['technical/'] }, size: 'small', split: 'report' },
  { id: 'sqlite-c-api', site: 'sqlite', label: { kind: 'under', dirs: ['c3ref/'] }, size: 'large', split: 'tune' },
  { id: 'sqlite-session', site: 'sqlite', label: { kind: 'under', dirs: ['session/'] }, size: 'small', split: 'report' },
  // rustdoc documents a module of core twice (core/x and its std re-export std/x, the same
  // pages): both copies are targets, and the core copy sits deep below the core crate's index.
  { id: 'rust-atomics', site: 'rust', label: { kind: 'under', dirs: ['std/sync/atomic/', 'core/sync/atomic/'] }, size: 'small', split: 'tune' },
  { id: 'rust-intrinsics', site: 'rust', label: { kind: 'under', dirs: ['std/intrinsics/', 'core/intrinsics/'] }, size: 'large', split: 'report' },
  { id: 'handbook-zh-network', site: 'handbook-zh', label: { kind: 'chapter', page: 'network-infrastructure.html' }, size: 'small', split: 'tune' },
  { id: 'handbook-zh-unix-services', site: 'handbook-zh', label: { kind: 'chapter', page: 'unix-services.html' }, size: 'small', split: 'report' },
  // Added 2026-11-28 with the traditional-Chinese fold: the Handbook's topics, as a mainland user
  // writes them, on its Taiwan copy; each keeps its source topic's split.
  { id: 'handbook-tw-network', site: 'handbook-tw', topicOf: 'handbook-zh-network', label: { kind: 'chapter', page: 'network-infrastructure.html' }, size: 'small', split: 'tune' },
  { id: 'handbook-tw-unix-services', site: 'handbook-tw', topicOf: 'handbook-zh-unix-services', label: { kind: 'chapter', page: 'unix-services.html' }, size: 'small', split: 'report' },
  // Added 2026-11-24 and first measured with the settings of that day: report only.
  { id: 'cmake-generators', site: 'cmake', label: { kind: 'under', dirs: ['generator/'] }, size: 'small', split: 'report' },
  { id: 'cmake-policies', site: 'cmake', label: { kind: 'under', dirs: ['policy/'] }, size: 'large', split: 'report' },
  { id: 'celery-userguide', site: 'celery', label: { kind: 'under', dirs: ['userguide/'] }, size: 'small', split: 'report' },
  { id: 'celery-internals', site: 'celery', label: { kind: 'under', dirs: ['internals/'] }, size: 'large', split: 'report' },
  { id: 'ant-types', site: 'ant', label: { kind: 'under', dirs: ['Types/'] }, size: 'small', split: 'report' },
  { id: 'ant-tasks', site: 'ant', label: { kind: 'under', dirs: ['Tasks/'] }, size: 'large', split: 'report' },
  { id: 'gimp-zh-painting', site: 'gimp-zh', label: { kind: 'chapter', page: 'gimp-painting.html' }, size: 'small', split: 'report' },
  // Its crawl order was read on 2026-11-25 (third session: the contents page raised whole by a
  // sibling rule), and the size bound of SiblingFamilies' own-mean rule was set after it: tune.
  { id: 'gimp-zh-filters', site: 'gimp-zh', label: { kind: 'chapter', page: 'filters.html' }, size: 'large', split: 'tune' },
  // Added 2026-11-25, topic files written from the chapters' titles before the sites were crawled,
  // and measured once as report topics (RESULTS-realweb.md). libvirt's then showed the default
  // fetching the site's menu last (StallHubs was built on them), so they moved to the tune split.
  { id: 'libvirt-api', site: 'libvirt', label: { kind: 'under', dirs: ['html/'] }, size: 'small', split: 'tune' },
  { id: 'libvirt-manpages', site: 'libvirt', label: { kind: 'under', dirs: ['manpages/'] }, size: 'small', split: 'tune' },
  { id: 'libvirt-internals', site: 'libvirt', label: { kind: 'under', dirs: ['kbase/internals/'] }, size: 'small', split: 'tune' },
  { id: 'lilypond-zh-tutorial', site: 'lilypond-zh', label: { kind: 'chapter', page: 'tutorial.zh.html' }, size: 'small', split: 'report' },
  // Added 2026-11-25 after stall hubs, topic files written from the chapters' titles before the
  // site was crawled, and measured once as report topics (RESULTS-realweb.md); the crawl order of
  // sphinx-builtin-extensions was then read (the home page's title scored before the site's name
  // was known), so they moved to the tune split.
  { id: 'sphinx-extdev', site: 'sphinx', label: { kind: 'under', dirs: ['extdev/'] }, size: 'small', split: 'tune' },
  { id: 'sphinx-builtin-extensions', site: 'sphinx', label: { kind: 'under', dirs: ['usage/extensions/'] }, size: 'small', split: 'tune' },
  // Added 2026-11-25 (last), topic files written from the modules' titles before the site was
  // crawled: report only.
  { id: 'scipy-signal', site: 'scipy', label: { kind: 'under', dirs: ['reference/signal.html', 'reference/generated/scipy.signal.'] }, size: 'large', split: 'report' },
  { id: 'scipy-csgraph', site: 'scipy', label: { kind: 'under', dirs: ['reference/sparse.csgraph.html', 'reference/generated/scipy.sparse.csgraph.'] }, size: 'small', split: 'report' },
  // Added 2026-11-25 (new session), topic files written from the manual's chapter titles before the
  // site was crawled: report only.
  { id: 'octave-plotting', site: 'octave', label: { kind: 'chapter', page: 'Plotting.html' }, size: 'large', split: 'report' },
  { id: 'octave-oop', site: 'octave', label: { kind: 'chapter', page: 'Object-Oriented-Programming.html' }, size: 'small', split: 'report' },
  { id: 'octave-external', site: 'octave', label: { kind: 'chapter', page: 'External-Code-Interface.html' }, size: 'small', split: 'report' },
  // Added 2026-11-25 (second session, after Octave), topic files written from the reference's part
  // and module titles before the site was crawled: report only.
  { id: 'glib-data-types', site: 'glib', label: { kind: 'chapter', page: 'glib/glib-data-types.html' }, size: 'small', split: 'report' },
  { id: 'glib-core', site: 'glib', label: { kind: 'chapter', page: 'glib/glib-core.html' }, size: 'small', split: 'report' },
  { id: 'glib-utilities', site: 'glib', label: { kind: 'chapter', page: 'glib/glib-utilities.html' }, size: 'small', split: 'report' },
];

export function labelRuleText(rule: LabelRule): string {
  return rule.kind === 'under'
    ? `pages under ${rule.dirs.map((d) => `\`${d}\``).join(', ')}`
    : `chapter \`${rule.page}\` and the pages whose \`<link rel="up">\` leads to it`;
}

/** A topic's file, relative to bench/realweb/: topics/<id>.yaml. */
export function topicFile(topic: TopicDef): string {
  return `topics/${topic.topicOf ?? topic.id}.yaml`;
}

export function siteOf(topic: TopicDef): SiteDef {
  const s = SITES.find((x) => x.id === topic.site);
  if (!s) throw new Error(`topic ${topic.id}: unknown site ${topic.site}`);
  return s;
}
