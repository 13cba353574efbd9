// The site-admin pages' data and writes (/stafftools, as GitHub Enterprise Server has
// them): lists of users, organizations and repositories, and the user and organization
// switches of the site-admin API. Every write is the admin service the REST routes call
// (admin.service), with the viewer as actor, so the same rules refuse the same things;
// the lists are the account and repository searches the search API and GraphQL use.
// Everyone but a signed-in site admin gets a 404: the area is not revealed.
import type { AppContext } from '../../context.ts';
import { isSiteAdmin, type Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import * as admin from '../admin/admin.service.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Presentable } from '../repos/repos.service.ts';
import type { Account, AccountType } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';

export const STAFF_PER_PAGE = 30;

/** The area's gate: a signed-in site admin, else NotFoundError (a 404 page, signed in or not). */
export function requireStaff(actor: Actor): void {
  if (!actor.user || !isSiteAdmin(actor)) throw new NotFoundError();
}

export interface ListFilter {
  /** Part of the login (or of the repository's name); '' for all. */
  q: string;
  page: number;
}

export interface AccountList { items: Account[]; total: number; filter: ListFilter }

/** Words of the filter: the search matches each as a part of the login, without case. */
function wordsOf(q: string): string[] {
  return q.split(/\s+/).filter((w) => w !== '');
}

async function accounts(ctx: AppContext, actor: Actor, type: AccountType, filter: ListFilter): Promise<AccountList> {
  requireStaff(actor);
  const { items, total } = await users.searchAccounts(ctx, {
    words: wordsOf(filter.q), fields: ['login'], type, limit: STAFF_PER_PAGE, offset: (filter.page - 1) * STAFF_PER_PAGE,
  });
  return { items, total, filter };
}

/** Users in signup order, whose login holds the filter. */
export function listUsers(ctx: AppContext, actor: Actor, filter: ListFilter): Promise<AccountList> {
  return accounts(ctx, actor, 'User', filter);
}

export function listOrganizations(ctx: AppContext, actor: Actor, filter: ListFilter): Promise<AccountList> {
  return accounts(ctx, actor, 'Organization', filter);
}

export interface RepoList { items: Presentable[]; total: number; filter: ListFilter }

/**
 * Repositories whose name holds the filter, as the repository search shows them to
 * the site admin (public ones, and the private ones the admin may read: site admins
 * get no private repository they were not given, as through the API), most recently updated first.
 */
export async function listRepositories(ctx: AppContext, actor: Actor, filter: ListFilter): Promise<RepoList> {
  requireStaff(actor);
  const { items, total } = await repos.searchRepositories(ctx, actor, {
    words: wordsOf(filter.q), fields: ['name'], ownerLogins: [], forks: 'include', sort: 'updated', direction: 'desc',
    limit: STAFF_PER_PAGE, offset: (filter.page - 1) * STAFF_PER_PAGE,
  });
  return { items, total, filter };
}

export type AccountView = { kind: 'user'; account: Account } | { kind: 'organization'; org: Organization };

/** A user's or an organization's page (both at /stafftools/users/{login}, as upstream); apps' bots are not here. */
export async function accountOf(ctx: AppContext, actor: Actor, login: string): Promise<AccountView> {
  requireStaff(actor);
  const account = await users.requireAccount(ctx, login);
  if (account.type === 'Organization') return { kind: 'organization', org: await orgs.requireOrganization(ctx, account.login) };
  if (account.type !== 'User') throw new NotFoundError();
  return { kind: 'user', account };
}

// ---------------------------------------------------------------- writes (admin.service, as the REST routes)

export function createUser(ctx: AppContext, actor: Actor, login: string, email: string): Promise<Account> {
  requireStaff(actor);
  return admin.createUser(ctx, actor, { login, email: email === '' ? null : email });
}

export function createOrganization(ctx: AppContext, actor: Actor, login: string, adminLogin: string, profileName: string): Promise<Organization> {
  requireStaff(actor);
  return admin.createOrganization(ctx, actor, { login, admin: adminLogin, profile_name: profileName === '' ? null : profileName });
}

/** Renames a user or an organization (PATCH /admin/users/{u} or /admin/organizations/{org}); the new login. */
export async function rename(ctx: AppContext, actor: Actor, login: string, newLogin: string): Promise<string> {
  const view = await accountOf(ctx, actor, login);
  const renamed = view.kind === 'user'
    ? await admin.renameUser(ctx, actor, view.account.login, newLogin)
    : await admin.renameOrganization(ctx, actor, view.org.account.login, newLogin);
  return renamed.login;
}

/**
 * DELETE /admin/users/{u}, once the login has been typed again (the page's own check:
 * a slip of a click deletes nobody).
 */
export async function deleteUser(ctx: AppContext, actor: Actor, login: string, confirmation: string): Promise<void> {
  const view = await accountOf(ctx, actor, login);
  if (view.kind !== 'user') throw new NotFoundError();
  if (confirmation.trim().toLowerCase() !== view.account.login.toLowerCase()) {
    throw new ValidationError([{ resource: 'User', field: 'confirm', code: 'invalid', message: `Type ${view.account.login} to confirm the deletion.` }]);
  }
  await admin.deleteUser(ctx, actor, view.account.login);
}

export function setSuspended(ctx: AppContext, actor: Actor, login: string, suspended: boolean, reason: string): Promise<void> {
  requireStaff(actor);
  return admin.setSuspended(ctx, actor, login, suspended, reason === '' ? undefined : reason);
}

export function setSiteAdmin(ctx: AppContext, actor: Actor, login: string, siteAdmin: boolean): Promise<void> {
  requireStaff(actor);
  return admin.setSiteAdmin(ctx, actor, login, siteAdmin);
}

/** PUT /admin/users/{u}/password: the browser sign-in of a user made here. */
export function setPassword(ctx: AppContext, actor: Actor, login: string, password: string): Promise<void> {
  requireStaff(actor);
  return admin.setUserPassword(ctx, actor, login, password);
}
