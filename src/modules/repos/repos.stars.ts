// Stars: a user's bookmark of a repository. stargazers_count (and watchers_count,
// which upstream keeps equal to it) counts them.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { readableIds } from './repos.derived.ts';
import { locate, presentable, withOwners, type Presentable } from './repos.service.ts';
import * as store from './repos.store.ts';

function orgOf(repo: { ownerId: number; owner: Account }): number | null {
  return repo.owner.type === 'Organization' ? repo.ownerId : null;
}

/** Stars a repository the caller may see. Starring twice changes nothing. */
export async function starRepo(ctx: AppContext, actor: Actor, ownerLogin: string, name: string): Promise<void> {
  const user = requireUser(actor);
  // Upstream's public_repo scope "is also required for starring public repositories".
  requireScope(actor, 'public_repo', 'repo');
  const { repo } = await locate(ctx, actor, ownerLogin, name);
  await inTransaction(ctx, async (tx) => {
    const now = nowIso(tx.clock);
    if (!(await store.insertStar(tx.db, user.id, repo.id, now))) return;
    const common = { repositoryId: repo.id, actorId: user.id, organizationId: orgOf(repo) };
    await recordEvent(tx, { ...common, event: 'star', action: 'created', payload: { starred_at: now } });
    // Upstream's watch webhook event reports stars, not subscriptions.
    await recordEvent(tx, { ...common, event: 'watch', action: 'started', payload: {} });
  });
}

export async function unstarRepo(ctx: AppContext, actor: Actor, ownerLogin: string, name: string): Promise<void> {
  const user = requireUser(actor);
  requireScope(actor, 'public_repo', 'repo');
  const { repo } = await locate(ctx, actor, ownerLogin, name);
  await inTransaction(ctx, async (tx) => {
    if (!(await store.deleteStar(tx.db, user.id, repo.id))) return;
    await recordEvent(tx, {
      event: 'star', action: 'deleted', repositoryId: repo.id, actorId: user.id, organizationId: orgOf(repo), payload: { starred_at: null },
    });
  });
}

/** Resolves when the caller has starred the repository; NotFoundError otherwise. */
export async function checkStarred(ctx: AppContext, actor: Actor, ownerLogin: string, name: string): Promise<void> {
  const user = requireUser(actor);
  const { repo } = await locate(ctx, actor, ownerLogin, name);
  if ((await store.findStar(ctx.db, user.id, repo.id)) === null) throw new NotFoundError();
}

export interface ListStarredQuery {
  sort?: 'created' | 'updated';
  direction?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface StarredRepo extends Presentable {
  starredAt: string;
}

async function starredBy(ctx: AppContext, actor: Actor, userId: number, q: ListStarredQuery): Promise<{ items: StarredRepo[]; total: number }> {
  // Stars of repositories the caller may no longer (or never could) see stay hidden.
  const visiblePrivateIds = await readableIds(ctx, actor, await store.nonPublicStarredIds(ctx.db, userId));
  const { rows, total } = await store.listStarred(ctx.db, userId, {
    visiblePrivateIds, sort: q.sort ?? 'created', direction: q.direction ?? 'desc', limit: q.limit, offset: q.offset,
  });
  const shown = await presentable(ctx, actor, await withOwners(ctx, rows.map((r) => r.repo)));
  const starredAt = new Map(rows.map((r) => [r.repo.id, r.starredAt]));
  return { items: shown.map((p) => ({ ...p, starredAt: starredAt.get(p.repo.id)! })), total };
}

export async function listStarredByAuthenticatedUser(ctx: AppContext, actor: Actor, q: ListStarredQuery) {
  return starredBy(ctx, actor, requireUser(actor).id, q);
}

export async function listStarredByUser(ctx: AppContext, actor: Actor, login: string, q: ListStarredQuery) {
  const account = await users.requireAccount(ctx, login);
  return starredBy(ctx, actor, account.id, q);
}

export interface Stargazer {
  user: Account;
  starredAt: string;
}

export async function listStargazers(
  ctx: AppContext, actor: Actor, ownerLogin: string, name: string, page: { limit: number; offset: number },
): Promise<{ items: Stargazer[]; total: number }> {
  const { repo } = await locate(ctx, actor, ownerLogin, name);
  const { rows, total } = await store.listStargazers(ctx.db, repo.id, page.limit, page.offset);
  const accounts = await users.accountsByIds(ctx, rows.map((r) => r.userId));
  return {
    items: rows.flatMap((r) => {
      const user = accounts.get(r.userId);
      return user ? [{ user, starredAt: r.starredAt }] : [];
    }),
    total,
  };
}

/** Which of the repositories (by id) the user has starred, in one query (GraphQL's viewerHasStarred of a list). */
export function starredAmong(ctx: AppContext, userId: number, repoIds: readonly number[]): Promise<Set<number>> {
  return store.starredAmong(ctx.db, userId, repoIds);
}
