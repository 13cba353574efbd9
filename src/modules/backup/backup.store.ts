// What backup and restore read from a database copy: the repositories it holds. Only
// ever a snapshot (src/db/snapshot.ts) or a database just restored, never the live
// tables of the repos module, so the repos module's rules are not bypassed.
import type { Db } from '../../db/database.ts';

export async function repositoryIds(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('repositories').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}
