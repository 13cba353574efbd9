// SQL for interaction limits. Only the interactions module calls this.
// Timestamps are 'YYYY-MM-DDTHH:MM:SSZ' text, so comparing them as strings orders them.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { InteractionLimitsTable } from '../../db/schema.ts';
import type { InteractionGroup, InteractionLimit, LimitScope } from './interactions.model.ts';

function toLimit(r: Selectable<InteractionLimitsTable>): InteractionLimit {
  return { scope: r.scope, targetId: r.target_id, limit: r.limit, expiresAt: r.expires_at, createdAt: r.created_at };
}

export interface Target {
  scope: LimitScope;
  targetId: number;
}

/** The limits on these targets that have not expired at `now`. */
export async function findActive(db: Executor, targets: readonly Target[], now: string): Promise<InteractionLimit[]> {
  if (!targets.length) return [];
  const rows = await db.selectFrom('interaction_limits').selectAll()
    .where((eb) => eb.or(targets.map((t) => eb.and([eb('scope', '=', t.scope), eb('target_id', '=', t.targetId)]))))
    .where('expires_at', '>', now)
    .execute();
  return rows.map(toLimit);
}

export async function upsert(db: Executor, t: Target, limit: InteractionGroup, expiresAt: string, now: string): Promise<InteractionLimit> {
  const row = await db.insertInto('interaction_limits')
    .values({ scope: t.scope, target_id: t.targetId, limit, expires_at: expiresAt, created_at: now })
    .onConflict((oc) => oc.columns(['scope', 'target_id']).doUpdateSet({ limit, expires_at: expiresAt, created_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
  return toLimit(row);
}

export async function remove(db: Executor, t: Target): Promise<void> {
  await db.deleteFrom('interaction_limits').where('scope', '=', t.scope).where('target_id', '=', t.targetId).execute();
}

export async function removeRepositoryLimits(db: Executor, repoIds: readonly number[]): Promise<void> {
  for (let i = 0; i < repoIds.length; i += 500) {
    await db.deleteFrom('interaction_limits').where('scope', '=', 'repository')
      .where('target_id', 'in', repoIds.slice(i, i + 500)).execute();
  }
}

/** Drops limits that expired by `now` (reads ignore them anyway; this keeps the table small). */
export async function pruneExpired(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('interaction_limits').where('expires_at', '<=', now).execute();
}
