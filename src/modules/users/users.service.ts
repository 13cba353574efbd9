// Accounts: profiles, the authenticated user, account lifecycle used by admin and orgs.
import { inTransaction, type AppContext } from '../../context.ts';
import { hasScope, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { validateLogin } from './login-rules.ts';
import { ZERO_COUNTS, type Account, type AccountCounts, type AccountType, type UserEmail } from './users.model.ts';
import * as store from './users.store.ts';

export interface Profile {
  account: Account;
  counts: AccountCounts;
}

/**
 * Counts shown on profiles. Public repositories are counted (as the user search's
 * `repos:` qualifier counts them); Wharf hosts no gists and has no follows yet, so those
 * counts, and the owner-only ones not yet kept, are truthfully zero.
 */
async function countsOf(ctx: AppContext, account: Account): Promise<AccountCounts> {
  return (await accountCountsOf(ctx, [account])).get(account.id)!;
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

/**
 * The stored changes of a profile edit, checked: one mapping for PATCH /user and for the
 * accounts other areas edit (organizations). Empty strings clear a field.
 */
function profileChanges(resource: string, changes: ProfileChanges): store.AccountChanges {
  if (changes.email !== undefined && changes.email !== null && changes.email !== '' && !EMAIL.test(changes.email)) {
    throw new ValidationError([{ resource, field: 'email', code: 'invalid', value: changes.email }]);
  }
  const blank = (v: string | null | undefined) => (v === '' ? null : v);
  return {
    name: blank(changes.name),
    email: blank(changes.email),
    blog: blank(changes.blog),
    twitterUsername: blank(changes.twitter_username),
    company: blank(changes.company),
    location: blank(changes.location),
    hireable: changes.hireable,
    bio: blank(changes.bio),
  };
}

export async function updateAuthenticatedProfile(
  ctx: AppContext, actor: Actor, changes: ProfileChanges,
): Promise<AuthenticatedProfile> {
  const user = requireUser(actor);
  requireScope(actor, 'user');
  const stored = profileChanges('User', changes);
  await inTransaction(ctx, async (tx) => {
    const account = await store.update(tx.db, user.id, stored, nowIso(tx.clock));
    // The address the user sets becomes their primary one; a new one is unverified.
    if (changes.email !== undefined) await setPrimaryAddress(tx, account, false);
  });
  return getAuthenticatedProfile(ctx, actor);
}

export async function setEmailVisibility(ctx: AppContext, actor: Actor, visibility: 'public' | 'private'): Promise<Account> {
  const user = requireUser(actor);
  requireScope(actor, 'user');
  return inTransaction(ctx, async (tx) => {
    await store.setPrimaryEmailVisibility(tx.db, user.id, visibility);
    return store.update(tx.db, user.id, { emailPrivate: visibility === 'private' }, nowIso(tx.clock));
  });
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
  return inTransaction(ctx, async (tx) => {
    const account = await store.insert(tx.db, { ...input, now: nowIso(tx.clock) });
    // Whoever creates an account with an address (a site admin, the CLI) vouches for it:
    // it is the user's primary, verified address.
    if (account.type === 'User' && account.email) await setPrimaryAddress(tx, account, true, resource);
    return account;
  });
}

/**
 * An app's bot account. Its login ends in "[bot]", which no user or organization login
 * may contain (validateLogin), so it never takes a name from anyone: no validation here.
 */
export async function createBotAccount(ctx: AppContext, login: string): Promise<Account> {
  return store.insert(ctx.db, { login, type: 'Bot', now: nowIso(ctx.clock) });
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
 * Counts of several accounts at once (lists of organizations, teams with their organization,
 * a page of user search results): one query whatever their number.
 */
export async function accountCountsOf(ctx: AppContext, accounts: readonly Account[]): Promise<Map<number, AccountCounts>> {
  const publicRepos = await store.publicRepositoryCounts(ctx.db, accounts.map((a) => a.id));
  return new Map(accounts.map((a) => [a.id, { ...ZERO_COUNTS, publicRepos: publicRepos.get(a.id) ?? 0 }]));
}

/**
 * Profile fields of any account, checked as PATCH /user checks them; the caller decides
 * who may edit it (organizations are edited by their owners through the orgs area).
 * Always moves updated_at, so an edit of fields stored elsewhere still shows.
 */
export async function updateAccountProfile(ctx: AppContext, account: Account, changes: ProfileChanges): Promise<Account> {
  const stored = profileChanges(account.type, changes);
  return inTransaction(ctx, async (tx) => {
    const updated = await store.update(tx.db, account.id, stored, nowIso(tx.clock));
    if (updated.type === 'User' && changes.email !== undefined) await setPrimaryAddress(tx, updated, false);
    return updated;
  });
}

/** Users by e-mail address (lowercased keys), in one query: commit authors of a page. */
/** Users by e-mail address (lower-cased keys): primary addresses and verified secondary ones. */
export async function accountsByEmails(ctx: AppContext, emails: readonly string[]): Promise<Map<string, Account>> {
  const [accounts, addresses] = await Promise.all([store.findByEmails(ctx.db, emails), store.findEmailsByAddress(ctx.db, emails)]);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const out = new Map<string, Account>();
  for (const a of accounts) if (a.email) out.set(a.email.toLowerCase(), a);
  for (const e of addresses) {
    const owner = byId.get(e.userId);
    if (e.verified && owner) out.set(e.email.toLowerCase(), owner);
  }
  return out;
}

// E-mail addresses. users.email is the primary address; every change of it goes
// through setPrimaryAddress so that user_emails says the same.

/**
 * Makes `account.email` (as just stored) the user's primary address: an address the
 * user already has is promoted (keeping its verified state), a new one is added with
 * `verified`; null leaves the user without a primary address. An address another
 * user holds is refused.
 */
async function setPrimaryAddress(ctx: AppContext, account: Account, verified: boolean, resource: string = account.type): Promise<void> {
  const email = account.email;
  const [existing] = email ? await store.findEmailsByAddress(ctx.db, [email]) : [];
  if (email && existing && existing.userId !== account.id) {
    throw new ValidationError([{ resource, field: 'email', code: 'already_exists', value: email }]);
  }
  await store.clearPrimaryEmail(ctx.db, account.id);
  if (!email) return;
  const visibility = account.emailPrivate ? 'private' : 'public';
  if (existing) await store.markPrimaryEmail(ctx.db, existing.id, visibility, email);
  else await store.insertEmails(ctx.db, account.id, [{ email, verified, primary: true, visibility }], nowIso(ctx.clock));
}

function isEmailAddress(value: string): boolean {
  return EMAIL.test(value) && value.length <= 255;
}

/** The user's addresses, the primary first. */
export function listEmailAddresses(ctx: AppContext, userId: number): Promise<UserEmail[]> {
  return store.listEmails(ctx.db, userId);
}

/** The rows holding these addresses, whoever owns them (compared case-insensitively). */
export function findEmailAddresses(ctx: AppContext, addresses: readonly string[]): Promise<UserEmail[]> {
  return store.findEmailsByAddress(ctx.db, addresses);
}

/**
 * Adds unverified addresses to a user. Each must look like an address and be held by
 * nobody (the user included); all are added or none. A user without a primary address
 * gets the first one as primary.
 */
export async function addEmailAddresses(ctx: AppContext, userId: number, addresses: readonly string[]): Promise<UserEmail[]> {
  const errors = addresses.filter((a) => !isEmailAddress(a))
    .map((a) => ({ resource: 'UserEmail', field: 'email', code: 'invalid' as const, value: a, message: `${a} is not a valid e-mail address` }));
  if (errors.length) throw new ValidationError(errors);
  const unique = [...new Map(addresses.map((a) => [a.toLowerCase(), a])).values()];
  return inTransaction(ctx, async (tx) => {
    const taken = await store.findEmailsByAddress(tx.db, unique);
    if (taken.length) {
      throw new ValidationError(taken.map((t) => ({
        resource: 'UserEmail', field: 'email', code: 'custom' as const, value: t.email, message: 'email is already in use',
      })));
    }
    const account = await store.findById(tx.db, userId);
    if (!account) throw new NotFoundError();
    const now = nowIso(tx.clock);
    if (account.email) {
      return store.insertEmails(tx.db, userId, unique.map((email) => ({ email, verified: false, primary: false, visibility: null })), now);
    }
    const [first, ...rest] = unique;
    const updated = await store.update(tx.db, userId, { email: first! }, now);
    await setPrimaryAddress(tx, updated, false);
    const added = await store.findEmailsByAddress(tx.db, [first!]);
    const others = await store.insertEmails(tx.db, userId, rest.map((email) => ({ email, verified: false, primary: false, visibility: null })), now);
    return [...added, ...others];
  });
}

/** Removes addresses of the user; each must be theirs and none the primary one. All or none. */
export async function removeEmailAddresses(ctx: AppContext, userId: number, addresses: readonly string[]): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const found = (await store.findEmailsByAddress(tx.db, addresses)).filter((e) => e.userId === userId);
    const have = new Set(found.map((e) => e.email.toLowerCase()));
    const errors = addresses.filter((a) => !have.has(a.toLowerCase())).map((a) => ({
      resource: 'UserEmail', field: 'email', code: 'invalid' as const, value: a, message: `${a} is not one of your e-mail addresses`,
    }));
    for (const e of found.filter((f) => f.primary)) {
      errors.push({ resource: 'UserEmail', field: 'email', code: 'invalid', value: e.email, message: 'the primary e-mail address cannot be deleted' });
    }
    if (errors.length) throw new ValidationError(errors);
    await store.deleteEmails(tx.db, userId, found.map((e) => e.id));
  });
}

/** Marks one of the user's addresses verified (or not); NotFoundError when it is not theirs. */
export async function setEmailVerified(ctx: AppContext, userId: number, address: string, verified: boolean): Promise<UserEmail> {
  const [row] = (await store.findEmailsByAddress(ctx.db, [address])).filter((e) => e.userId === userId);
  if (!row) throw new NotFoundError();
  return store.setEmailVerified(ctx.db, row.id, verified);
}

/**
 * Which of these logins name an account, in one query (@mentions of a comment):
 * lower-cased login → the login as registered.
 */
export async function existingLogins(ctx: AppContext, logins: readonly string[]): Promise<Map<string, string>> {
  const found = await store.findLogins(ctx.db, logins);
  return new Map(found.map((login) => [login.toLowerCase(), login]));
}

/** Users and organizations whose login or name holds every word (GraphQL search(type: USER)). */
export async function searchAccounts(ctx: AppContext, s: store.AccountSearch): Promise<{ items: Account[]; total: number }> {
  const { rows, total } = await store.search(ctx.db, s);
  return { items: rows, total };
}
