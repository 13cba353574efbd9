// The push journal: one row per push in flight, committed before git receive-pack runs
// and deleted in the transaction that records the push (git-http.service afterPush).
// A row that outlives its lease belongs to a process that died after (or while) git
// accepted the push; git-http.reconcile records what it changed.
import type { AppContext } from '../../context.ts';
import type { Config } from '../../config.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import * as git from '../../git/repository.ts';

/** How long a push may run before its journal row could be taken for a dead one's (renewed while it runs). */
export function pushLeaseMs(config: Config): number {
  // The request timeout bounds how long a push's body may take to arrive; git then
  // checks and stores it, hence the margin (0 is no request timeout: the default then).
  const timeout = config.requestTimeoutSeconds > 0 ? config.requestTimeoutSeconds : 300;
  return (timeout + 60) * 1000;
}

export interface JournalRow {
  id: number;
  repositoryId: number;
  actorId: number | null;
  refs: git.RefEntry[];
  startedAt: string;
}

function toRow(r: { id: number; repository_id: number; actor_id: number | null; refs: string; started_at: string }): JournalRow {
  return { id: r.id, repositoryId: r.repository_id, actorId: r.actor_id, refs: JSON.parse(r.refs) as git.RefEntry[], startedAt: r.started_at };
}

/** Journals a push about to run, committed at once (never inside a transaction). */
export async function openEntry(ctx: AppContext, actor: Actor, repositoryId: number, refs: readonly git.RefEntry[]): Promise<number> {
  const row = await ctx.db.insertInto('push_journal').values({
    repository_id: repositoryId,
    actor_id: actor.user?.id ?? null,
    refs: JSON.stringify(refs),
    started_at: nowIso(ctx.clock),
    lease_until: ctx.clock.now().getTime() + pushLeaseMs(ctx.config),
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function renewLease(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.updateTable('push_journal').set({ lease_until: ctx.clock.now().getTime() + pushLeaseMs(ctx.config) }).where('id', '=', id).execute();
}

/** The refs a journaled push is to be compared against, or null once it has been recorded. */
export async function recordedRefs(ctx: AppContext, id: number): Promise<git.RefEntry[] | null> {
  const row = await ctx.db.selectFrom('push_journal').select('refs').where('id', '=', id).executeTakeFirst();
  return row ? JSON.parse(row.refs) as git.RefEntry[] : null;
}

/** Journal rows in id order: every one, or those whose lease has passed. */
export async function entries(ctx: AppContext, which: 'all' | 'expired'): Promise<JournalRow[]> {
  let q = ctx.db.selectFrom('push_journal').selectAll().orderBy('id');
  if (which === 'expired') q = q.where('lease_until', '<', ctx.clock.now().getTime());
  return (await q.execute()).map(toRow);
}

/** Ids of the repositories with a push journaled. */
export async function journaledRepositoryIds(ctx: AppContext): Promise<Set<number>> {
  const rows = await ctx.db.selectFrom('push_journal').select('repository_id').distinct().execute();
  return new Set(rows.map((r) => r.repository_id));
}

/**
 * Deletes the rows in the transaction recording their push; how many it deleted. Fewer
 * than asked: another process recorded (some of) them first, and this one must not.
 * On PostgreSQL the second deleter waits for the first's commit, then finds nothing.
 */
export async function closeEntries(tx: AppContext, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await tx.db.deleteFrom('push_journal').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The refs after a journaled push, with the pull request refs (refs/pull/{n}/head and
 * /merge) as they were before it: Wharf moves those itself, at any time (a merge
 * preview read, a push to a head branch), so a change of theirs is no part of the push.
 */
export function pushedRefs(before: readonly git.RefEntry[], after: readonly git.RefEntry[]): git.RefEntry[] {
  const isPull = (r: git.RefEntry) => r.ref.startsWith('refs/pull/');
  return [...after.filter((r) => !isPull(r)), ...before.filter(isPull)];
}

export interface RefChange {
  ref: string;
  before: string;
  after: string;
  /** Type of the object `after` names. */
  type: string;
}

/**
 * Moves the refs recorded in the other pushes journaled for the repository along with
 * a change just recorded, so that a push reconciled later does not report it again.
 * A journaled ref that differs from the change's `before` saw the change already.
 */
export async function advanceEntries(tx: AppContext, repositoryId: number, changes: readonly RefChange[], except: readonly number[]): Promise<void> {
  let q = tx.db.selectFrom('push_journal').select(['id', 'refs']).where('repository_id', '=', repositoryId);
  if (except.length) q = q.where('id', 'not in', except);
  const rows = await (tx.dialect === 'postgres' ? q.forUpdate() : q).execute();
  for (const row of rows) {
    const refs = new Map((JSON.parse(row.refs) as git.RefEntry[]).map((r) => [r.ref, r]));
    let moved = false;
    for (const c of changes) {
      if ((refs.get(c.ref)?.sha ?? git.ZERO_SHA) !== c.before) continue;
      if (c.after === git.ZERO_SHA) refs.delete(c.ref);
      else refs.set(c.ref, { ref: c.ref, sha: c.after, type: c.type });
      moved = true;
    }
    if (moved) await tx.db.updateTable('push_journal').set({ refs: JSON.stringify([...refs.values()]) }).where('id', '=', row.id).execute();
  }
}
