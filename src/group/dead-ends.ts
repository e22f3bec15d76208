import type Database from 'better-sqlite3';

/**
 * The pages of a group crawl that led nowhere, for the path discriminator's online learning:
 * fetched, not a target themselves, and every URL found below them in the discovery tree is
 * final (fetched, failed or discarded) without a target among them. A page with links still
 * waiting may yet lead somewhere and is not one. Returned as URL ids.
 */
export function deadEnds(db: Database.Database, isGood: (url: string) => boolean): number[] {
  const rows = db.prepare('SELECT u.id, pu.id AS parent, u.state, u.url FROM urls u LEFT JOIN urls pu ON pu.fp = u.parent ORDER BY u.id').all() as { id: number; parent: number | null; state: number; url: string }[];
  const good = new Map<number, boolean>();
  const open = new Map<number, boolean>();
  for (const r of rows) {
    good.set(r.id, r.state === 2 && isGood(r.url));
    // 0 waiting, 1 being fetched: the subtree is not explored yet.
    open.set(r.id, r.state < 2);
  }
  // Children have larger ids than their parents (ids follow discovery), so one pass from the
  // last id up carries each subtree's flags to its root.
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (r.parent === null) continue;
    if (good.get(r.id)) good.set(r.parent, true);
    if (open.get(r.id)) open.set(r.parent, true);
  }
  return rows.filter((r) => r.parent !== null && r.state === 2 && !good.get(r.id) && !open.get(r.id)).map((r) => r.id);
}
