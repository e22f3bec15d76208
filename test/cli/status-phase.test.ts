import { test } from 'node:test';
import assert from 'node:assert/strict';
import { phaseOfHolder } from '../../src/cli/status-command.js';

test("status: a run that ended after the running holder started is its phase (a group's round), not the crawl's last run", () => {
  const holder = { pid: 1, host: 'h', command: 'group', started: '2026-11-28T12:36:34.575Z' };
  assert.equal(phaseOfHolder(true, holder, '2026-11-28T12:36:35.676Z'), true, 'ended a second after the group started');
  assert.equal(phaseOfHolder(true, holder, '2026-11-28T11:00:00.000Z'), false, 'an earlier run of another process is the last run');
  assert.equal(phaseOfHolder(false, holder, '2026-11-28T12:36:35.676Z'), false, 'nothing running: the last run is the last run');
  assert.equal(phaseOfHolder(true, {}, '2026-11-28T12:36:35.676Z'), false, 'a holder whose start is unknown');
});
