// The authenticated user's e-mail addresses (/user/emails …) and the site-admin switch
// that verifies one. The addresses themselves belong to the users area (users.email is
// the primary one); this decides who may do what with them.
import type { AppContext } from '../../context.ts';
import { isSiteAdmin, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { ForbiddenError, NotFoundError } from '../../domain/errors.ts';
import type { UserEmail } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';

/** Reading addresses: user:email, or read:user (user grants both). */
const READ_SCOPES = ['user:email', 'read:user'];

export async function listEmails(ctx: AppContext, actor: Actor): Promise<UserEmail[]> {
  const user = requireUser(actor);
  requireScope(actor, ...READ_SCOPES);
  return users.listEmailAddresses(ctx, user.id);
}

/** The addresses shown on the profile: the primary one, unless it is private. */
export async function listPublicEmails(ctx: AppContext, actor: Actor): Promise<UserEmail[]> {
  return (await listEmails(ctx, actor)).filter((e) => e.visibility === 'public');
}

export async function addEmails(ctx: AppContext, actor: Actor, emails: readonly string[]): Promise<UserEmail[]> {
  const user = requireUser(actor);
  requireScope(actor, 'user');
  return users.addEmailAddresses(ctx, user.id, emails);
}

export async function deleteEmails(ctx: AppContext, actor: Actor, emails: readonly string[]): Promise<void> {
  const user = requireUser(actor);
  requireScope(actor, 'user');
  await users.removeEmailAddresses(ctx, user.id, emails);
}

/** Sets the visibility of the primary address; answers every address, as upstream does. */
export async function setPrimaryEmailVisibility(ctx: AppContext, actor: Actor, visibility: 'public' | 'private'): Promise<UserEmail[]> {
  const user = requireUser(actor);
  await users.setEmailVisibility(ctx, actor, visibility);
  return users.listEmailAddresses(ctx, user.id);
}

/**
 * Wharf extension: a self-hosted server sends no confirmation mail, so a site admin
 * vouches for an address instead (or withdraws it). The address must be the user's.
 */
export async function setEmailVerified(ctx: AppContext, actor: Actor, login: string, email: string, verified: boolean): Promise<UserEmail> {
  requireUser(actor);
  if (!isSiteAdmin(actor)) throw new ForbiddenError('Must be a site administrator.');
  requireScope(actor, 'site_admin');
  const account = await users.requireAccount(ctx, login);
  if (account.type !== 'User') throw new NotFoundError();
  return users.setEmailVerified(ctx, account.id, email, verified);
}
