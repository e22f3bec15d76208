import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { RobotsRules, robotsPathOf } from '../../src/fetch/robots-rules.js';
import { seededRandom } from '../../src/bench/seeded-random.js';

const require = createRequire(import.meta.url);
const robotsParser = require('robots-parser') as (url: string, text: string) => { isAllowed(url: string, ua?: string): boolean | undefined };

const ORIGIN = 'http://127.0.0.1:9';

function verdicts(text: string, paths: string[]): { ours: boolean[]; parser: boolean[] } {
  const robot = robotsParser(ORIGIN + '/robots.txt', text);
  const rules = RobotsRules.of(robot, 'focuscrawl');
  assert.ok(rules, "robots-parser's rules are read (a new version of the parser must be looked at)");
  return {
    ours: paths.map((p) => rules.allows(robotsPathOf(new URL(ORIGIN + p)))),
    parser: paths.map((p) => robot.isAllowed(ORIGIN + p, 'focuscrawl') !== false),
  };
}

test('robots rules agree with robots-parser on random wildcard, $ and percent-escaped patterns', () => {
  const random = seededRandom(7);
  const alphabet = ['a', 'b', '/', '.', '*', '$', '%2f', '?', '='];
  const pick = () => alphabet[Math.floor(random() * alphabet.length)]!;
  const word = (n: number, chars: string[]) => Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join('');
  let disagreements = 0;
  let disallowed = 0;
  for (let round = 0; round < 300; round++) {
    const lines = ['User-agent: *', 'Disallow: /never', '', 'User-agent: focuscrawl'];
    const ruleCount = 1 + Math.floor(random() * 6);
    for (let r = 0; r < ruleCount; r++) {
      const pattern = '/' + Array.from({ length: Math.floor(random() * 6) }, pick).join('');
      lines.push(`${random() < 0.5 ? 'Allow' : 'Disallow'}: ${pattern}`);
    }
    const paths = Array.from({ length: 20 }, () => '/' + word(Math.floor(random() * 10), ['a', 'b', '/', '.', '%2f', '%2F', '$']) + (random() < 0.3 ? '?a=b' : ''));
    const { ours, parser } = verdicts(lines.join('\n'), paths);
    for (let i = 0; i < paths.length; i++) {
      if (ours[i] !== parser[i]) disagreements++;
      if (!parser[i]) disallowed++;
    }
  }
  assert.equal(disagreements, 0);
  assert.ok(disallowed > 500, `the patterns disallow often enough to tell (${disallowed})`);
});

test("the agent's own group, else *; no group allows everything", () => {
  const text = ['User-agent: other', 'Disallow: /', '', 'User-agent: *', 'Disallow: /private', '', 'User-agent: FocusCrawl/2.0', 'Disallow: /mine'].join('\n');
  const robot = robotsParser(ORIGIN + '/robots.txt', text);
  const own = RobotsRules.of(robot, 'focuscrawl')!;
  assert.equal(own.allows('/private'), true);
  assert.equal(own.allows('/mine/x'), false);
  const star = RobotsRules.of(robot, 'someone-else')!;
  assert.equal(star.allows('/private/x'), false);
  assert.equal(star.allows('/mine'), true);
  assert.equal(RobotsRules.of(robotsParser(ORIGIN + '/robots.txt', ''), 'focuscrawl')!.allows('/x'), true);
});

test('a hostile file of 20,000 wildcard rules is matched, and the one Allow that fits decides', () => {
  const lines = ['User-agent: *'];
  for (let i = 0; i < 20_000; i++) lines.push(`Disallow: /*${'x*'.repeat(5)}q${i}z`);
  lines.push('Allow: /*x*x*x*x*x*q12345z');
  const path = '/' + 'x'.repeat(1500) + 'q12345z';
  const { ours, parser } = verdicts(lines.join('\n'), [path, '/' + 'x'.repeat(1500) + 'q77z', '/plain']);
  assert.deepEqual(ours, [true, false, true]);
  assert.deepEqual(parser, ours);
});
