import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultStrategyName, strategyNames } from '../../src/strategies/registry.js';
import { runCli } from '../helpers/run-cli.js';
import { cliFails } from '../helpers/cli-fails.js';

const dir = mkdtempSync(join(tmpdir(), 'fc-cli-'));

const fails = (args: string[], message: RegExp) => cliFails(args, message, dir);

test('bad flags exit 2 with one line naming the flag', async () => {
  await fails(['crawl', '--seeds', 'http://127.0.0.1:9/', '--max-pages', 'lots'], /--max-pages.*'lots' is invalid/);
  await fails(['crawl', '--seeds', 'http://127.0.0.1:9/', '--scope', 'planet'], /--scope.*expected one of host, domain, any/);
  await fails(['crawl', '--seeds', 'http://127.0.0.1:9/', '--deny', '(unclosed'], /--deny.*not a valid regular expression/);
  await fails(['crawl', '--seeds', 'gopher://x/'], /--seeds: 'gopher:\/\/x\/' is not an http\(s\) URL/);
  await fails(['crawl', '--bogus'], /unknown option '--bogus'/);
  await fails(['crawl'], /no seed URLs/);
  await fails(['crawl', '--seeds', 'http://127.0.0.1:9/', '--strategy', 'psychic'], /unknown strategy 'psychic'/);
  await fails(['crawl', '--seeds', 'http://127.0.0.1:9/', '--strategy', 'best-first'], /needs a topic/);
  // Flags of shared crawls given to an embedded one are refused, not ignored.
  await fails(['crawl', '--seeds', 'http://127.0.0.1:9/', '--db', join(dir, 'lease.db'), '--lease-ms', '5000'], /^focuscrawl: --lease-ms is for a shared crawl \(--redis, --pg, --name\)/);
  await fails(['crawl', '--seeds', 'http://127.0.0.1:9/', '--db', join(dir, 'seed.db'), '--seed-only'], /^focuscrawl: --seed-only is for a shared crawl/);
  assert.equal(existsSync(join(dir, 'lease.db')), false, 'nothing created');
});

test('unreadable and invalid files are named, with the line', async () => {
  await fails(['crawl', '--seeds-file', join(dir, 'missing.txt')], /cannot read seeds file .*missing\.txt: no such file \(ENOENT\)/);
  writeFileSync(join(dir, 'seeds.txt'), '# seeds\nhttp://127.0.0.1:9/\nnot a url\n');
  await fails(['crawl', '--seeds-file', join(dir, 'seeds.txt')], /seeds\.txt:3: 'not a url' is not an http\(s\) URL/);
  writeFileSync(join(dir, 'topic.yaml'), 'name: t\nkeywords:\n  solar: 2\n  panel: lots\n');
  await fails(['crawl', '--seeds', 'http://127.0.0.1:9/', '--topic', join(dir, 'topic.yaml')], /topic\.yaml:4: topic field 'keywords\.panel'/);
  writeFileSync(join(dir, 'bad.yaml'), 'name: [unclosed\n');
  await fails(['crawl', '--seeds', 'http://127.0.0.1:9/', '--topic', join(dir, 'bad.yaml')], /bad\.yaml:1: invalid YAML/);
  writeFileSync(join(dir, 'quote.yaml'), 'name: t\nkeywords:\n  solar: "unclosed\n\n');
  await fails(['crawl', '--seeds', 'http://127.0.0.1:9/', '--topic', join(dir, 'quote.yaml')], /quote\.yaml:3: invalid YAML: Missing closing "quote/);
  writeFileSync(join(dir, 'config.json'), '{\n  "seeds": ["http://127.0.0.1:9/"],\n  "maxPages": 3,\n}\n');
  await fails(['crawl', '--config', join(dir, 'config.json'), '--db', join(dir, 'json.db')], /config\.json:3: invalid JSON: trailing comma$/);
  writeFileSync(join(dir, 'config2.json'), '{\n  "seeds": ["http://127.0.0.1:9/", "a,]"]\n  "maxPages": 3\n}\n');
  await fails(['crawl', '--config', join(dir, 'config2.json'), '--db', join(dir, 'json.db')], /config2\.json:3: invalid JSON: Expected ',' or '}' after property value$/);
  assert.equal(existsSync(join(dir, 'json.db')), false);
  writeFileSync(join(dir, 'config.yaml'), 'seeds: [http://127.0.0.1:9/]\nmaxPagez: 3\n');
  await fails(['crawl', '--config', join(dir, 'config.yaml')], /config\.yaml:2: config field 'maxPagez': unknown \(did you mean 'maxPages'\?\)$/);
  // The flag's spelling in a file: the key is named, and its camelCase suggested.
  writeFileSync(join(dir, 'kebab.yaml'), 'seeds: [http://127.0.0.1:9/]\nmax-pages: 3\n');
  await fails(['crawl', '--config', join(dir, 'kebab.yaml')], /kebab\.yaml:2: config field 'max-pages': unknown \(did you mean 'maxPages'\?\)$/);
  // `keyword:` for `keywords:` leaves keywords missing too: the unknown key is what explains it.
  writeFileSync(join(dir, 'keyword.yaml'), 'name: t\nkeyword:\n  solar: 1\n');
  await fails(['crawl', '--seeds', 'http://127.0.0.1:9/', '--topic', join(dir, 'keyword.yaml')], /keyword\.yaml:2: topic field 'keyword': unknown \(did you mean 'keywords'\?\)$/);
  // The same inside a topic written inline in a config file.
  writeFileSync(join(dir, 'inline.yaml'), 'seeds: [http://127.0.0.1:9/]\ntopic:\n  name: t\n  keyword:\n    solar: 1\n');
  await fails(['crawl', '--config', join(dir, 'inline.yaml')], /inline\.yaml:4: config field 'topic\.keyword': unknown$/);
  await fails(['status', '--db', join(dir, 'none.db')], /no crawl database at .*none\.db/);
  writeFileSync(join(dir, 'junk.db'), 'this is not sqlite at all, just text padding '.repeat(200));
  await fails(['status', '--db', join(dir, 'junk.db')], /junk\.db is not a usable focuscrawl database/);
  // A crawl refused on it leaves nothing beside it: no lock file, the file unchanged.
  const before = readFileSync(join(dir, 'junk.db'));
  await fails(['crawl', 'http://127.0.0.1:9/', '--db', join(dir, 'junk.db')], /junk\.db is not a usable focuscrawl database/);
  assert.equal(existsSync(join(dir, 'junk.db-lock')), false);
  assert.deepEqual(readFileSync(join(dir, 'junk.db')), before);
});

test('no arguments prints the help and exits 2; crawl --help lists every strategy of the registry', async () => {
  const none = await runCli([], { cwd: dir });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^Usage: focuscrawl \[options\] \[command\]/);
  assert.match(none.stderr, /crawl \[options\]/);
  const help = await runCli(['crawl', '--help'], { cwd: dir });
  assert.equal(help.code, 0);
  const text = help.stdout.replace(/\s+/g, ' ');
  for (const name of strategyNames()) assert.ok(text.includes(name), `crawl --help names ${name}`);
  assert.match(text, /two-step/);
  assert.match(text, /learned/);
  // The default it names is the one the crawl uses (it once said best-first after adaptive became the default).
  assert.ok(text.includes(`default ${defaultStrategyName(true)} with a topic, else ${defaultStrategyName(false)}`), 'crawl --help names the default strategies');
  // A default said in words is not said again by commander: "(default 16) (default: 16)".
  for (const cmd of ['group', 'serve', 'demo', 'search']) {
    const h = (await runCli([cmd, '--help'], { cwd: dir })).stdout.replace(/\s+/g, ' ');
    assert.match(h, /\(default \d+/, `${cmd} --help says a default in words`);
    assert.doesNotMatch(h, /\(default [^)]*\) \(default: /, `${cmd} --help says a default once`);
  }
});
