// What each page shows, gathered from the services the API uses (repos.locate, the
// contents and commits of git-data, issue-lists, comments, pulls) with the viewer as
// the actor: no second path to the data, the same permissions, the same 404s. This
// file holds the account pages; code.service and conversations.service the rest.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { listReceivedEvents, type TimelineEvent } from '../events-api/events-api.service.ts';
import * as orgs from '../orgs/teams.service.ts';
import * as repos from '../repos/repos.service.ts';
import type { Presentable } from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';

export const PER_PAGE = 25;

export interface ProfileView {
  account: Account;
  repos: Presentable[];
  total: number;
  page: number;
}

export async function profile(ctx: AppContext, actor: Actor, login: string, page: number): Promise<ProfileView> {
  const account = await users.requireAccount(ctx, login);
  const q = { sort: 'updated' as const, limit: PER_PAGE, offset: (page - 1) * PER_PAGE };
  const list = account.type === 'Organization' ? await repos.listForOrg(ctx, actor, account.login, q) : await repos.listForUser(ctx, actor, account.login, q);
  return { account, repos: list.items, total: list.total, page };
}

export interface HomeView {
  repos: Presentable[];
  total: number;
  /** The signed-in user's organizations and the events of the repositories they watch (empty for everyone else). */
  organizations: Account[];
  events: TimelineEvent[];
}

/** Events shown on the home page; the events API pages further back. */
const HOME_EVENTS = 20;

/** The signed-in user's repositories (owned, collaborating, through organizations); public ones for everyone else. */
export async function home(ctx: AppContext, actor: Actor): Promise<HomeView> {
  const q = { sort: 'updated' as const, limit: PER_PAGE, offset: 0 };
  if (!actor.user) {
    const list = await repos.searchRepositories(ctx, actor, { words: [], fields: ['name'], ownerLogins: [], visibility: 'public', forks: 'include', limit: PER_PAGE, offset: 0 });
    return { repos: list.items, total: list.total, organizations: [], events: [] };
  }
  const [list, memberships, feed] = await Promise.all([
    repos.listForAuthenticatedUser(ctx, actor, q),
    orgs.activeMembershipsOf(ctx, actor.user.id),
    listReceivedEvents(ctx, actor, actor.user.login, false, { offset: 0, limit: HOME_EVENTS }),
  ]);
  const accounts = await users.accountsByIds(ctx, memberships.map((m) => m.orgId));
  const organizations = [...accounts.values()].sort((a, b) => a.login.localeCompare(b.login));
  return { repos: list.items, total: list.total, organizations, events: feed.events };
}

