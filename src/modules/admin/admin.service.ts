// Site administration with the paths and bodies of the enterprise server admin API:
// users, organizations, impersonation tokens, suspension, promotion.
import { inTransaction, type AppContext } from '../../context.ts';
import { isSiteAdmin, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { ALL_SCOPES } from '../../domain/scopes.ts';
import * as auth from '../auth/auth.service.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import * as webSession from '../web-session/web-session.service.ts';

export const BOOTSTRAP_ADMIN_LOGIN = 'admin';

/**
 * On a data dir with no accounts, creates site admin `admin` holding `token` with every
 * scope. Several processes starting at once on a fresh database all try: one creates
 * the admin, the others find the login taken and leave it be.
 */
export async function bootstrapAdmin(ctx: AppContext, token: string): Promise<void> {
  try {
    await inTransaction(ctx, async (tx) => {
      if (await users.countAccounts(tx) > 0) return;
      const admin = await users.createAccount(tx, { login: BOOTSTRAP_ADMIN_LOGIN, type: 'User', siteAdmin: true });
      await auth.adoptToken(tx, admin.id, token, ALL_SCOPES, 'WHARF_ADMIN_TOKEN');
    });
  } catch (err) {
    if (await users.countAccounts(ctx) > 0) return;
    throw err;
  }
}

/** Site admins only, with a token that may do site administration. */
export function requireSiteAdmin(actor: Actor): void {
  requireUser(actor);
  if (!isSiteAdmin(actor)) throw new ForbiddenError('Must be a site administrator.');
  requireScope(actor, 'site_admin');
}

async function requireUserAccount(ctx: AppContext, login: string): Promise<Account> {
  const account = await users.requireAccount(ctx, login);
  if (account.type !== 'User') throw new NotFoundError();
  return account;
}

export interface CreateUserInput {
  login: string;
  email?: string | null;
  suspended?: boolean;
}

export async function createUser(ctx: AppContext, actor: Actor, input: CreateUserInput): Promise<Account> {
  requireSiteAdmin(actor);
  return users.createAccount(ctx, { login: input.login, type: 'User', email: input.email ?? null, suspended: input.suspended }, 'User');
}

export async function deleteUser(ctx: AppContext, actor: Actor, login: string): Promise<void> {
  requireSiteAdmin(actor);
  const account = await requireUserAccount(ctx, login);
  if (account.id === actor.user!.id) {
    throw new ValidationError([{ resource: 'User', field: 'login', code: 'custom', message: 'You cannot delete your own account.' }]);
  }
  await users.deleteAccount(ctx, account);
}

export async function renameUser(ctx: AppContext, actor: Actor, login: string, newLogin: string): Promise<Account> {
  requireSiteAdmin(actor);
  return users.renameAccount(ctx, await requireUserAccount(ctx, login), newLogin);
}

export interface CreateOrganizationInput {
  login: string;
  admin: string;
  profile_name?: string | null;
}

export async function createOrganization(ctx: AppContext, actor: Actor, input: CreateOrganizationInput): Promise<Organization> {
  requireSiteAdmin(actor);
  return orgs.createOrganization(ctx, { login: input.login, admin: input.admin, profileName: input.profile_name ?? null });
}

export async function renameOrganization(ctx: AppContext, actor: Actor, login: string, newLogin: string): Promise<Account> {
  requireSiteAdmin(actor);
  const org = await orgs.requireOrganization(ctx, login);
  return users.renameAccount(ctx, org.account, newLogin);
}

export interface ImpersonationToken {
  user: Account;
  issued: auth.IssuedToken;
}

export async function createImpersonationToken(
  ctx: AppContext, actor: Actor, login: string, scopes: string[],
): Promise<ImpersonationToken> {
  requireSiteAdmin(actor);
  const user = await requireUserAccount(ctx, login);
  const issued = await auth.issueToken(ctx, { userId: user.id, scopes, kind: 'impersonation', note: `impersonation by ${actor.user!.login}` });
  return { user, issued };
}

export async function deleteImpersonationTokens(ctx: AppContext, actor: Actor, login: string): Promise<void> {
  requireSiteAdmin(actor);
  const user = await requireUserAccount(ctx, login);
  await auth.revokeTokens(ctx, user.id, 'impersonation');
}

export async function setSiteAdmin(ctx: AppContext, actor: Actor, login: string, siteAdmin: boolean): Promise<void> {
  requireSiteAdmin(actor);
  const user = await requireUserAccount(ctx, login);
  if (!siteAdmin && user.id === actor.user!.id) throw new ForbiddenError('You cannot demote yourself.');
  await users.setSiteAdmin(ctx, user, siteAdmin);
}

/**
 * Suspends or unsuspends a user. Upstream writes the reason to its audit log; Wharf has
 * none, so it goes to the server log with who did it.
 */
export async function setSuspended(ctx: AppContext, actor: Actor, login: string, suspended: boolean, reason?: string): Promise<void> {
  requireSiteAdmin(actor);
  const user = await requireUserAccount(ctx, login);
  if (suspended && user.id === actor.user!.id) throw new ForbiddenError('You cannot suspend yourself.');
  await users.setSuspended(ctx, user, suspended);
  ctx.log.info({ user: user.login, by: actor.user!.login, reason: reason ?? null }, suspended ? 'site admin: user suspended' : 'site admin: user unsuspended');
}

/**
 * Sets a user's password for the browser sign-in (a Wharf extension: upstream's admin
 * API has none). It never authenticates API or git requests; the user's sessions end.
 */
export async function setUserPassword(ctx: AppContext, actor: Actor, login: string, password: string): Promise<void> {
  requireSiteAdmin(actor);
  const user = await requireUserAccount(ctx, login);
  await webSession.setPassword(ctx, user.id, password);
}
