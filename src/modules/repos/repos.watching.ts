// Watching: a user's subscription to a repository's notifications (or, with
// ignored, the refusal of them). subscribers_count counts the subscribed ones.
import type { AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { readableIds } from './repos.derived.ts';
import type { Repo } from './repos.model.ts';
import { locate, presentable, withOwners, type RepoPage } from './repos.service.ts';
import * as store from './repos.store.ts';

export type Subscription = store.SubscriptionRecord;

export interface RepoSubscription {
  subscription: Subscription;
  repo: Repo;
}

/** Watching and unwatching is what upstream's notifications scope grants (repo includes it). */
const SCOPES = ['notifications', 'repo'];

export interface SetSubscriptionInput {
  subscribed?: boolean;
  ignored?: boolean;
}

export async function setSubscription(
  ctx: AppContext, actor: Actor, ownerLogin: string, name: string, input: SetSubscriptionInput,
): Promise<RepoSubscription> {
  const user = requireUser(actor);
  requireScope(actor, ...SCOPES);
  const { repo } = await locate(ctx, actor, ownerLogin, name);
  // Ignoring a repository means not receiving its notifications, so it wins over subscribed.
  const ignored = input.ignored ?? false;
  const subscribed = !ignored && (input.subscribed ?? true);
  const subscription = await store.upsertSubscription(ctx.db, {
    userId: user.id, repositoryId: repo.id, subscribed, ignored, now: nowIso(ctx.clock),
  });
  return { subscription, repo };
}

export async function getSubscription(ctx: AppContext, actor: Actor, ownerLogin: string, name: string): Promise<RepoSubscription> {
  const user = requireUser(actor);
  requireScope(actor, ...SCOPES);
  const { repo } = await locate(ctx, actor, ownerLogin, name);
  const subscription = await store.findSubscription(ctx.db, user.id, repo.id);
  if (!subscription) throw new NotFoundError();
  return { subscription, repo };
}

export async function deleteSubscription(ctx: AppContext, actor: Actor, ownerLogin: string, name: string): Promise<void> {
  const user = requireUser(actor);
  requireScope(actor, ...SCOPES);
  const { repo } = await locate(ctx, actor, ownerLogin, name);
  await store.deleteSubscription(ctx.db, user.id, repo.id);
}

/** Who watches the repository and who ignores it, for notification fan-out (no caller checks). */
export function subscriptionsOfRepository(ctx: AppContext, repoId: number): Promise<Subscription[]> {
  return store.listSubscriptionsOfRepository(ctx.db, repoId);
}

export async function listWatchers(
  ctx: AppContext, actor: Actor, ownerLogin: string, name: string, page: { limit: number; offset: number },
): Promise<{ items: Account[]; total: number }> {
  const { repo } = await locate(ctx, actor, ownerLogin, name);
  const { userIds, total } = await store.listSubscribers(ctx.db, repo.id, page.limit, page.offset);
  const accounts = await users.accountsByIds(ctx, userIds);
  return { items: userIds.flatMap((id) => accounts.get(id) ?? []), total };
}

async function watchedBy(ctx: AppContext, actor: Actor, userId: number, page: { limit: number; offset: number }): Promise<RepoPage> {
  const visiblePrivateIds = await readableIds(ctx, actor, await store.nonPublicWatchedIds(ctx.db, userId));
  const { rows, total } = await store.listWatched(ctx.db, userId, { visiblePrivateIds, ...page });
  return { items: await presentable(ctx, actor, await withOwners(ctx, rows)), total };
}

export async function listWatchedByAuthenticatedUser(ctx: AppContext, actor: Actor, page: { limit: number; offset: number }): Promise<RepoPage> {
  return watchedBy(ctx, actor, requireUser(actor).id, page);
}

export async function listWatchedByUser(ctx: AppContext, actor: Actor, login: string, page: { limit: number; offset: number }): Promise<RepoPage> {
  const account = await users.requireAccount(ctx, login);
  return watchedBy(ctx, actor, account.id, page);
}

/** The user's subscriptions to any of the repositories (by id), in one query (GraphQL's viewerSubscription of a list). */
export function subscriptionsAmong(ctx: AppContext, userId: number, repoIds: readonly number[]): Promise<Map<number, Subscription>> {
  return store.subscriptionsAmong(ctx.db, userId, repoIds);
}
