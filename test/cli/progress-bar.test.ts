import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { showProgress } from '../../src/cli/progress.js';
import { newStats } from '../../src/engine/crawl-stats.js';

test("a resumed run's progress bar counts the crawl's fetches against the crawl's budget, not this run's", () => {
  let out = '';
  const stream = Object.assign(
    new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    }),
    { isTTY: true, columns: 200, cursorTo: () => true, clearLine: () => true, moveCursor: () => true },
  ) as unknown as NodeJS.WriteStream;
  const stats = newStats();
  stats.fetched = 15; // this run's
  const counts = { waiting: 0, fetching: 0, done: 70, error: 6, discarded: 3, notFetched: 1 };
  const stop = showProgress({ stats, counts: () => counts }, { topic: false, maxPages: 75, stream });
  stop();
  assert.match(out, /75\/75 \| fetched 15 /, out);
});
