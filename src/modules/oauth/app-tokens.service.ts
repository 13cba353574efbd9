// What an app does with the tokens it obtained, authenticated by its client id and
// secret (POST/PATCH/DELETE /applications/{client_id}/token, DELETE …/grant): an OAuth
// app's tokens here, a GitHub App's user-to-server tokens through the apps module; and
// what a user does with the OAuth apps it authorized (the settings page).
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { parseScopes } from '../../domain/scopes.ts';
import type { App } from '../apps/apps.model.ts';
import { requireApp } from '../apps/apps.service.ts';
import * as appTokens from '../apps/user-token-management.service.ts';
import type { UserTokenRecord } from '../apps/user-tokens.service.ts';
import * as auth from '../auth/auth.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import type { OauthApp } from './oauth.model.ts';
import { toOauthApp } from './oauth-apps.service.ts';
import * as store from './oauth.store.ts';

/** A token as the authorization record shows it, whichever kind of app holds it. */
export interface AuthorizedToken {
  id: number;
  scopes: string[];
  tokenLastEight: string;
  tokenHash: string;
  note: string | null;
  noteUrl: string | null;
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
}

export interface AppAuthorization {
  /** The token itself: the one checked, or the new one of a reset. */
  token: string;
  record: AuthorizedToken;
  app: { clientId: string; name: string; url: string | null };
  user: Account;
}

function oauthTokenOf(r: auth.IssuedToken['record']): AuthorizedToken {
  return {
    id: r.id, scopes: parseScopes(r.scopes), tokenLastEight: r.token_last_eight, tokenHash: r.token_hash, note: r.note,
    noteUrl: r.note_url, createdAt: r.created_at, updatedAt: r.updated_at, expiresAt: r.expires_at,
  };
}

/** A GitHub App's user-to-server token holds no scopes: its installations' permissions say what it may do. */
function userTokenOf(r: UserTokenRecord): AuthorizedToken {
  return {
    id: r.id, scopes: [], tokenLastEight: r.tokenLastEight, tokenHash: r.tokenHash, note: null, noteUrl: null,
    createdAt: r.createdAt, updatedAt: r.updatedAt, expiresAt: r.expiresAt,
  };
}

type CallingClient = { kind: 'oauth'; app: OauthApp } | { kind: 'github'; app: App };

/**
 * The app whose client id and secret authenticated the request, when it is the app of
 * the path; 404 otherwise (as upstream: another app's tokens are nobody else's business).
 */
async function requireCallingClient(ctx: AppContext, actor: Actor, clientId: string): Promise<CallingClient> {
  if (actor.method !== 'oauth_app') throw new NotFoundError();
  if (actor.oauthAppId === null) {
    // A GitHub App's client credentials (app-auth.service's appClientActor).
    const app = actor.integration ? await requireApp(ctx, actor.integration.appId) : null;
    if (!app || app.clientId !== clientId) throw new NotFoundError();
    return { kind: 'github', app };
  }
  const row = await auth.findOauthAppById(ctx, actor.oauthAppId);
  if (!row || row.client_id !== clientId) throw new NotFoundError();
  return { kind: 'oauth', app: toOauthApp(row) };
}

function checkTokenInput(accessToken: string): void {
  if (!accessToken || accessToken.length > 255) throw ValidationError.field('OauthAccess', 'access_token', 'invalid');
}

async function requireUser(ctx: AppContext, userId: number): Promise<Account> {
  const user = (await users.accountsByIds(ctx, [userId])).get(userId);
  if (!user) throw new NotFoundError();
  return user;
}

async function requireAppToken(ctx: AppContext, app: OauthApp, accessToken: string): Promise<{ record: auth.IssuedToken['record']; user: Account }> {
  const record = await auth.findAppToken(ctx, app.id, accessToken);
  if (!record) throw new NotFoundError();
  return { record, user: await requireUser(ctx, record.user_id) };
}

function githubAppOf(app: App): AppAuthorization['app'] {
  return { clientId: app.clientId, name: app.name, url: app.externalUrl };
}

export async function checkToken(ctx: AppContext, actor: Actor, clientId: string, accessToken: string): Promise<AppAuthorization> {
  const client = await requireCallingClient(ctx, actor, clientId);
  checkTokenInput(accessToken);
  if (client.kind === 'github') {
    const record = await appTokens.checkUserToken(ctx, client.app, accessToken);
    if (!record) throw new NotFoundError();
    return { token: accessToken, record: userTokenOf(record), app: githubAppOf(client.app), user: await requireUser(ctx, record.userId) };
  }
  const { record, user } = await requireAppToken(ctx, client.app, accessToken);
  return { token: accessToken, record: oauthTokenOf(record), app: client.app, user };
}

/** A new token with the same scopes; the old one stops working at once. */
export async function resetToken(ctx: AppContext, actor: Actor, clientId: string, accessToken: string): Promise<AppAuthorization> {
  const client = await requireCallingClient(ctx, actor, clientId);
  checkTokenInput(accessToken);
  if (client.kind === 'github') {
    const reset = await appTokens.resetUserToken(ctx, client.app, accessToken);
    if (!reset) throw new NotFoundError();
    return { token: reset.token, record: userTokenOf(reset.record), app: githubAppOf(client.app), user: await requireUser(ctx, reset.record.userId) };
  }
  const app = client.app;
  return inTransaction(ctx, async (tx) => {
    const { record, user } = await requireAppToken(tx, app, accessToken);
    // Deleted first and checked: of two resets at once, only one gets a new token.
    if (!await auth.deleteToken(tx, record.id)) throw new NotFoundError();
    const issued = await auth.issueToken(tx, { userId: user.id, scopes: parseScopes(record.scopes), kind: 'oauth', oauthAppId: app.id, note: record.note, noteUrl: record.note_url });
    return { token: issued.token, record: oauthTokenOf(issued.record), app, user };
  });
}

export async function deleteToken(ctx: AppContext, actor: Actor, clientId: string, accessToken: string): Promise<void> {
  const client = await requireCallingClient(ctx, actor, clientId);
  checkTokenInput(accessToken);
  if (client.kind === 'github') {
    if (!await appTokens.deleteUserToken(ctx, client.app, accessToken)) throw new NotFoundError();
    return;
  }
  const { record } = await requireAppToken(ctx, client.app, accessToken);
  if (!await auth.deleteToken(ctx, record.id)) throw new NotFoundError();
}

/** Revokes the grant of the token's user: every token of that user for the app, and the approval. */
export async function deleteGrant(ctx: AppContext, actor: Actor, clientId: string, accessToken: string): Promise<void> {
  const client = await requireCallingClient(ctx, actor, clientId);
  checkTokenInput(accessToken);
  if (client.kind === 'github') {
    if (!await appTokens.revokeUserGrant(ctx, client.app, accessToken)) throw new NotFoundError();
    return;
  }
  const { user } = await requireAppToken(ctx, client.app, accessToken);
  await revoke(ctx, user.id, client.app.id);
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
