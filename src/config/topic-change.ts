import { FocusCrawlError } from '../errors.js';
import type { TopicFile } from '../relevance/topic.js';

const same = (a: TopicFile | null, b: TopicFile | null) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Decides what happens when a crawl or resume names a topic for a database that holds a crawl:
 * the same topic, or one for a crawl that had none, goes ahead (the latter with a note); a
 * different one (or none, for `crawl`) is refused unless `force`, since pages already stored were
 * scored for the old topic and the frontier is ordered by it. Returns the notes for the user.
 */
export function topicChange(db: string, stored: TopicFile | null, next: TopicFile | null, o: { force: boolean; resume: boolean; command?: string }): string[] {
  if (same(stored, next)) return [];
  if (stored === null) return [`${db} held a crawl with no topic: from now on pages are scored for topic '${next!.name}'`];
  const how = o.resume ? 'resume' : 'crawl';
  // The group crawler has no --force: a topic crawl's database is simply not one it can continue.
  if (o.command === 'group') throw new FocusCrawlError('USAGE', `${db} holds a crawl for topic '${stored.name}', not a group crawl: pass another --db`);
  if (!o.force) {
    if (next === null) {
      throw new FocusCrawlError('USAGE', `${db} holds a crawl for topic '${stored.name}': pass its --topic to continue it, or --force to continue without a topic (the topic and force options)`);
    }
    const which = next.name === stored.name ? `a different version of topic '${stored.name}'` : `topic '${next.name}'`;
    // resumeCrawl takes force in its third argument, not among the options a crawl starts with.
    const where = o.resume ? 'resumeCrawl(db, overrides, { topic, force: true }) from code' : 'the force option';
    throw new FocusCrawlError('USAGE', `${db} holds a crawl for topic '${stored.name}' and ${how} --topic gives ${which}: pass --force to switch (${where}; pages already stored keep their scores)`);
  }
  return [next === null ? `${db}: continuing the crawl for topic '${stored.name}' without a topic (--force)` : `${db}: switching topic from '${stored.name}' to '${next.name}' (--force); pages already stored keep their scores`];
}
