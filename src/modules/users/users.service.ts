// Accounts: profiles, the authenticated user, account lifecycle used by admin and orgs.
import type { AppContext } from '../../context.ts';
import { hasScope, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { validateLogin } from './login-rules.ts';
import { ZERO_COUNTS, type Account, type AccountCounts, type AccountType } from './users.model.ts';
import * as store from './users.store.ts';

export interface Profile {
  account: Account;
  counts: AccountCounts;
}

/**
 * Counts shown on profiles. Repositories, gists and follows are not hosted yet,
 * so every count is truthfully zero until those areas land.
 */
async function countsOf(_ctx: AppContext, _account: Account): Promise<AccountCounts> {
  return ZERO_COUNTS;
}

export async function findAccount(ctx: AppContext, login: string): Promise<Account | null> {
  return store.findByLogin(ctx.db, login);
}

export async function accountsByIds(ctx: AppContext, ids: readonly number[]): Promise<Map<number, Account>> {
  const rows = await store.findByIds(ctx.db, ids);
  return new Map(rows.map((a) => [a.id, a]));
}

export async function requireAccount(ctx: AppContext, login: string): Promise<Account> {
  const account = await store.findByLogin(ctx.db, login);
  if (!account) throw new NotFoundError();
  return account;
}

export async function getProfile(ctx: AppContext, login: string): Promise<Profile> {
  const account = await requireAccount(ctx, login);
  return { account, counts: await countsOf(ctx, account) };
}

export interface AuthenticatedProfile extends Profile {
  /** Private fields are shown through Basic auth or a token with the user scope. */
  includePrivate: boolean;
}

export async function getAuthenticatedProfile(ctx: AppContext, actor: Actor): Promise<AuthenticatedProfile> {
  const user = requireUser(actor);
  const account = await store.findById(ctx.db, user.id);
  if (!account) throw new NotFoundError();
  const includePrivate = actor.method === 'basic' || hasScope(actor, 'user', 'read:user');
  return { account, counts: await countsOf(ctx, account), includePrivate };
}

export interface ProfileChanges {
  name?: string | null;
  email?: string | null;
  blog?: string | null;
  twitter_username?: string | null;
  company?: string | null;
  location?: string | null;
  hireable?: boolean | null;
  bio?: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export async function updateAuthenticatedProfile(
  ctx: AppContext, actor: Actor, changes: ProfileChanges,
): Promise<AuthenticatedProfile> {
  const user = requireUser(actor);
  requireScope(actor, 'user');
  if (changes.email !== undefined && changes.email !== null && changes.email !== '' && !EMAIL.test(changes.email)) {
    throw new ValidationError([{ resource: 'User', field: 'email', code: 'invalid', value: changes.email }]);
  }
  const blank = (v: string | null | undefined) => (v === '' ? null : v);
  await store.update(ctx.db, user.id, {
    name: blank(changes.name),
    email: changes.email === undefined ? undefined : blank(changes.email),
    blog: blank(changes.blog),
    twitterUsername: blank(changes.twitter_username),
    company: blank(changes.company),
    location: blank(changes.location),
    hireable: changes.hireable,
    bio: blank(changes.bio),
  }, nowIso(ctx.clock));
  return getAuthenticatedProfile(ctx, actor);
}

export async function setEmailVisibility(ctx: AppContext, actor: Actor, visibility: 'public' | 'private'): Promise<Account> {
  const user = requireUser(actor);
  requireScope(actor, 'user');
  return store.update(ctx.db, user.id, { emailPrivate: visibility === 'private' }, nowIso(ctx.clock));
}

export async function getOwnAccount(ctx: AppContext, actor: Actor, ...scopes: string[]): Promise<Account> {
  const user = requireUser(actor);
  if (scopes.length) requireScope(actor, ...scopes);
  const account = await store.findById(ctx.db, user.id);
  if (!account) throw new NotFoundError();
  return account;
}

/** Accounts in signup order, after `since` (the only way this list pages). */
export function listAccounts(ctx: AppContext, since: number, limit: number): Promise<Account[]> {
  return store.list(ctx.db, since, limit);
}

export interface NewAccount {
  login: string;
  type: AccountType;
  email?: string | null;
  name?: string | null;
  siteAdmin?: boolean;
  suspended?: boolean;
}

/** Creates a user or organization account; the login is validated and must be unused. */
export async function createAccount(ctx: AppContext, input: NewAccount, resource = input.type): Promise<Account> {
  validateLogin(input.login, resource);
  if (input.email !== undefined && input.email !== null && !EMAIL.test(input.email)) {
    throw new ValidationError([{ resource, field: 'email', code: 'invalid', value: input.email }]);
  }
  if (await store.findByLogin(ctx.db, input.login)) {
    throw new ValidationError([{ resource, field: 'login', code: 'already_exists', value: input.login }]);
  }
  return store.insert(ctx.db, { ...input, now: nowIso(ctx.clock) });
}

export async function renameAccount(ctx: AppContext, account: Account, newLogin: string): Promise<Account> {
  validateLogin(newLogin, account.type);
  const existing = await store.findByLogin(ctx.db, newLogin);
  if (existing && existing.id !== account.id) {
    throw new ValidationError([{ resource: account.type, field: 'login', code: 'already_exists', value: newLogin }]);
  }
  return store.update(ctx.db, account.id, { login: newLogin }, nowIso(ctx.clock));
}

export function setSiteAdmin(ctx: AppContext, account: Account, siteAdmin: boolean): Promise<Account> {
  return store.update(ctx.db, account.id, { siteAdmin }, nowIso(ctx.clock));
}

export function setSuspended(ctx: AppContext, account: Account, suspended: boolean): Promise<Account> {
  return store.update(ctx.db, account.id, { suspendedAt: suspended ? nowIso(ctx.clock) : null }, nowIso(ctx.clock));
}

export function deleteAccount(ctx: AppContext, account: Account): Promise<void> {
  return store.remove(ctx.db, account.id);
}

export function countAccounts(ctx: AppContext): Promise<number> {
  return store.count(ctx.db);
}

/**
 * Counts of several accounts at once (lists of organizations, teams with their organization):
 * the one place to batch once the counts come from queries.
 */
export async function accountCountsOf(ctx: AppContext, accounts: readonly Account[]): Promise<Map<number, AccountCounts>> {
  const out = new Map<number, AccountCounts>();
  for (const a of accounts) out.set(a.id, await countsOf(ctx, a));
  return out;
}

/**
 * Profile fields of any account, checked as PATCH /user checks them; the caller decides
 * who may edit it (organizations are edited by their owners through the orgs area).
 * Always moves updated_at, so an edit of fields stored elsewhere still shows.
 */
export async function updateAccountProfile(ctx: AppContext, account: Account, changes: ProfileChanges): Promise<Account> {
  if (changes.email !== undefined && changes.email !== null && changes.email !== '' && !EMAIL.test(changes.email)) {
    throw new ValidationError([{ resource: account.type, field: 'email', code: 'invalid', value: changes.email }]);
  }
  const blank = (v: string | null | undefined) => (v === '' ? null : v);
  return store.update(ctx.db, account.id, {
    name: blank(changes.name),
    email: blank(changes.email),
    blog: blank(changes.blog),
    twitterUsername: blank(changes.twitter_username),
    company: blank(changes.company),
    location: blank(changes.location),
    hireable: changes.hireable,
    bio: blank(changes.bio),
  }, nowIso(ctx.clock));
}
