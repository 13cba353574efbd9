// What an OAuth app does with the tokens it obtained, authenticated by its client id
// and secret (POST/PATCH/DELETE /applications/{client_id}/token, DELETE …/grant), and
// what a user does with the apps it authorized (the settings page).
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { parseScopes } from '../../domain/scopes.ts';
import * as auth from '../auth/auth.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import type { OauthApp } from './oauth.model.ts';
import { toOauthApp } from './oauth-apps.service.ts';
import * as store from './oauth.store.ts';

export interface AppAuthorization {
  /** The token itself: the one checked, or the new one of a reset. */
  token: string;
  record: auth.IssuedToken['record'];
  app: OauthApp;
  user: Account;
}

/**
 * The app whose client id and secret authenticated the request, when it is the app of
 * the path; 404 otherwise (as upstream: another app's tokens are nobody else's business).
 */
async function requireCallingApp(ctx: AppContext, actor: Actor, clientId: string): Promise<OauthApp> {
  const row = actor.method === 'oauth_app' && actor.oauthAppId !== null ? await auth.findOauthAppById(ctx, actor.oauthAppId) : null;
  if (!row || row.client_id !== clientId) throw new NotFoundError();
  return toOauthApp(row);
}

function checkTokenInput(accessToken: string): void {
  if (!accessToken || accessToken.length > 255) throw ValidationError.field('OauthAccess', 'access_token', 'invalid');
}

async function requireAppToken(ctx: AppContext, app: OauthApp, accessToken: string): Promise<{ record: auth.IssuedToken['record']; user: Account }> {
  checkTokenInput(accessToken);
  const record = await auth.findAppToken(ctx, app.id, accessToken);
  if (!record) throw new NotFoundError();
  const user = (await users.accountsByIds(ctx, [record.user_id])).get(record.user_id);
  if (!user) throw new NotFoundError();
  return { record, user };
}

export async function checkToken(ctx: AppContext, actor: Actor, clientId: string, accessToken: string): Promise<AppAuthorization> {
  const app = await requireCallingApp(ctx, actor, clientId);
  const { record, user } = await requireAppToken(ctx, app, accessToken);
  return { token: accessToken, record, app, user };
}

/** A new token with the same scopes; the old one stops working at once. */
export async function resetToken(ctx: AppContext, actor: Actor, clientId: string, accessToken: string): Promise<AppAuthorization> {
  const app = await requireCallingApp(ctx, actor, clientId);
  return inTransaction(ctx, async (tx) => {
    const { record, user } = await requireAppToken(tx, app, accessToken);
    // Deleted first and checked: of two resets at once, only one gets a new token.
    if (!await auth.deleteToken(tx, record.id)) throw new NotFoundError();
    const issued = await auth.issueToken(tx, { userId: user.id, scopes: parseScopes(record.scopes), kind: 'oauth', oauthAppId: app.id, note: record.note, noteUrl: record.note_url });
    return { token: issued.token, record: issued.record, app, user };
  });
}

export async function deleteToken(ctx: AppContext, actor: Actor, clientId: string, accessToken: string): Promise<void> {
  const app = await requireCallingApp(ctx, actor, clientId);
  const { record } = await requireAppToken(ctx, app, accessToken);
  if (!await auth.deleteToken(ctx, record.id)) throw new NotFoundError();
}

/** Revokes the grant of the token's user: every token of that user for the app, and the approval. */
export async function deleteGrant(ctx: AppContext, actor: Actor, clientId: string, accessToken: string): Promise<void> {
  const app = await requireCallingApp(ctx, actor, clientId);
  const { user } = await requireAppToken(ctx, app, accessToken);
  await revoke(ctx, user.id, app.id);
}

async function revoke(ctx: AppContext, userId: number, appId: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await auth.deleteAppTokensOfUser(tx, userId, appId);
    await store.deleteGrant(tx.db, userId, appId);
  });
}

export interface AuthorizedApp {
  app: OauthApp;
  owner: Account | null;
  scopes: string[];
  grantedAt: string;
}

export async function listAuthorizedApps(ctx: AppContext, userId: number): Promise<AuthorizedApp[]> {
  const grants = await store.listGrantsOfUser(ctx.db, userId);
  const apps = (await Promise.all(grants.map((g) => auth.findOauthAppById(ctx, g.oauth_app_id)))).flatMap((r) => (r ? [toOauthApp(r)] : []));
  const owners = await users.accountsByIds(ctx, [...new Set(apps.map((a) => a.ownerId))]);
  return grants.flatMap((g) => {
    const app = apps.find((a) => a.id === g.oauth_app_id);
    return app ? [{ app, owner: owners.get(app.ownerId) ?? null, scopes: parseScopes(g.scopes), grantedAt: g.updated_at }] : [];
  });
}

/** The user takes an app's access away: its grant and every token it holds for the user. */
export async function revokeAuthorizedApp(ctx: AppContext, userId: number, clientId: string): Promise<OauthApp> {
  const row = await auth.findOauthAppByClientId(ctx, clientId);
  if (!row || !await store.findGrant(ctx.db, userId, row.id)) throw new NotFoundError();
  await revoke(ctx, userId, row.id);
  return toOauthApp(row);
}
