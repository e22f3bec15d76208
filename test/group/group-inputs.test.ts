import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readExamplesFile, readSitesFile } from '../../src/group/group-inputs.js';
import { exampleFates } from '../../src/group/example-pages.js';
import type { LogEntry } from '../../src/store/store.js';

const dir = mkdtempSync(join(tmpdir(), 'fc-group-inputs-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('sites file: roots with optional names; comments and blank lines skipped', () => {
  const sites = readSitesFile(file('sites.tsv', '# universities\nhttps://A.example.edu/\tNorth University\n\nhttp://b.example.edu\n'));
  assert.deepEqual(sites, [
    { root: 'https://a.example.edu/', name: 'North University', host: 'a.example.edu' },
    { root: 'http://b.example.edu/', name: 'b.example.edu', host: 'b.example.edu' },
  ]);
});

test('sites file: spaces instead of a tab end the root as a tab does, and the name keeps its words', () => {
  const sites = readSitesFile(file('spaced-sites.tsv', 'https://a.example.edu/    North  University\nhttps://b.example.edu/\tSouth\tCampus\n'));
  assert.deepEqual(sites.map((s) => [s.root, s.name]), [['https://a.example.edu/', 'North University'], ['https://b.example.edu/', 'South Campus']]);
});

test('sites file errors name the file and line', () => {
  const dup = file('dup-sites.tsv', 'https://a.example.edu/\nhttps://a.example.edu/\tagain\n');
  assert.throws(() => readSitesFile(dup), { message: `${dup}:2: site https://a.example.edu/ is listed twice` });
  const bad = file('bad-sites.tsv', 'https://a.example.edu/\nftp://b.example.edu/\n');
  assert.throws(() => readSitesFile(bad), { message: `${bad}:2: site root 'ftp://b.example.edu/' is not an http(s) URL` });
  const twice = file('twice.tsv', 'https://a.example.edu/\nhttps://a.example.edu/other/\n');
  assert.throws(() => readSitesFile(twice), new RegExp(`${twice}:2: site https://a.example.edu/other/ is on the same host`));
  assert.throws(() => readSitesFile(join(dir, 'none.tsv')), /cannot read sites file .*none\.tsv: no such file \(ENOENT\)/);
});

test('examples file: a malformed line names the file and line number', () => {
  const sites = readSitesFile(file('s.tsv', 'https://a.example.edu/\nhttps://b.example.edu/\n'));
  const ok = readExamplesFile(file('ok.tsv', 'https://a.example.edu/\thttps://a.example.edu/zs/2023.html\n'), sites);
  assert.equal(ok[0]!.url, 'https://a.example.edu/zs/2023.html');
  assert.equal(ok[0]!.site.host, 'a.example.edu');
  // An editor that saves a TSV with spaces: a URL holds none, so they separate as a tab does.
  const spaced = readExamplesFile(file('spaced.tsv', 'https://a.example.edu/\thttps://a.example.edu/x\nhttps://b.example.edu/   https://b.example.edu/y\n'), sites);
  assert.deepEqual(spaced.map((e) => e.url), ['https://a.example.edu/x', 'https://b.example.edu/y']);
  const three = file('three.tsv', 'https://b.example.edu/\thttps://b.example.edu/y\tnote\n');
  assert.throws(() => readExamplesFile(three, sites), { message: `${three}:1: expected 'site_root<TAB>page_url' (a tab or spaces between), got 'https://b.example.edu/\thttps://b.example.edu/y\tnote'` });
  const unknown = file('unknown.tsv', 'https://c.example.edu/\thttps://c.example.edu/x\n');
  assert.throws(() => readExamplesFile(unknown, sites), { message: `${unknown}:1: site root https://c.example.edu/ is not in the sites file` });
  const elsewhere = file('elsewhere.tsv', 'https://a.example.edu/\thttps://b.example.edu/x\n');
  assert.throws(() => readExamplesFile(elsewhere, sites), { message: `${elsewhere}:1: page https://b.example.edu/x is not on the site https://a.example.edu/` });
  assert.throws(() => readExamplesFile(file('empty.tsv', '# nothing\n'), sites), /no examples/);
  const repeated = file('repeated.tsv', 'https://a.example.edu/\thttps://a.example.edu/x\n# again\nhttps://a.example.edu/\thttps://a.example.edu/x\n');
  assert.throws(() => readExamplesFile(repeated, sites), { message: `${repeated}:3: example https://a.example.edu/x is listed twice (first at line 1)` });
});

test("a site's www. twin is the site: a second root of it is refused, an example on it is the site's; a CSV line is refused at its line", () => {
  assert.throws(() => readSitesFile(file('twin-sites.tsv', 'http://north.example.edu/\nhttps://www.north.example.edu/\n')), /twin-sites\.tsv:2: site https:\/\/www\.north\.example\.edu\/ is http:\/\/north\.example\.edu\/ under its www\. twin's name/);
  // Two ports of one name are two sites (two apps); a twin on another port is another site too.
  assert.equal(readSitesFile(file('name-ports.tsv', 'http://apps.example.edu:8080/\nhttp://apps.example.edu:9090/\nhttp://www.apps.example.edu:7070/\n')).length, 3);
  const sites = readSitesFile(file('www-sites.tsv', 'http://north.example.edu/\tNorth\nhttp://www.east.example.edu/\tEast\n'));
  const ex = readExamplesFile(file('www-ex.tsv', 'http://north.example.edu/\thttp://www.north.example.edu/zs/2023.html\nhttp://www.east.example.edu/\thttps://east.example.edu/zs/2023.html\n'), sites);
  assert.deepEqual(ex.map((e) => e.site.name), ['North', 'East']);
  const csv = file('sites.csv', 'http://127.0.0.2:8181/,North University\n');
  assert.throws(() => readSitesFile(csv), { message: `${csv}:1: ',' in the site root 'http://127.0.0.2:8181/,North': separate the name with a tab (a CSV file?), or write a comma in the URL as %2C` });
  // Addresses have no twins: two ports are two sites.
  assert.equal(readSitesFile(file('ports.tsv', 'http://127.0.0.1:8001/\nhttp://127.0.0.1:8002/\n')).length, 2);
});

test("a root that redirected to another host is explained as group's user acts on it: the sites file, not crawl's --hosts", async () => {
  const sites = readSitesFile(file('moved-sites.tsv', 'http://127.0.0.12:8182/\tMoved\n'));
  const examples = readExamplesFile(file('moved-ex.tsv', 'http://127.0.0.12:8182/\thttp://127.0.0.12:8182/faq.html\n'), sites);
  const log = {
    async *logEntries() {
      yield { seq: 1, url: 'http://127.0.0.12:8182/', state: 'discarded', error: 'out of scope (host); --hosts 127.0.0.13:8182 would allow it' } as LogEntry;
    },
  };
  const fates = await exampleFates(log, { examples, pathSearchPages: 20 }, { docs: [] } as never);
  assert.equal(fates.get('http://127.0.0.12:8182/faq.html'), "was not reached: its site root http://127.0.0.12:8182/ could not be fetched (discarded: out of scope (host); it moved to 127.0.0.13:8182: give that address as the site's root in the sites file)");
});
