// Apps acting for users: the user authorizes the app (the web flow of the oauth module),
// the app exchanges the code for a user-to-server token, optionally expiring (8 hours,
// with a refresh token good for about 6 months that rotates both), and the token
// authenticates as the user within the app's installations.
import { randomBytes } from 'node:crypto';
import { inTransaction, type AppContext } from '../../context.ts';
import { userToServerActor, type Actor, type InstallationReach } from '../../domain/actor.ts';
import { isoSeconds, nowIso } from '../../domain/clock.ts';
import { BadCredentialsError, ForbiddenError } from '../../domain/errors.ts';
import { hashesEqual, newRefreshToken, newUserToServerToken, sha256Hex } from '../auth/secrets.ts';
import * as users from '../users/users.service.ts';
import { levelAtLeast, type Permissions } from './app-permissions.ts';
import type { App } from './apps.model.ts';
import { toApp } from './apps.service.ts';
import * as appStore from './apps.store.ts';
import * as installStore from './installations.store.ts';
import { repositoryIdsOf, toInstallation } from './installations.service.ts';
import * as store from './user-tokens.store.ts';

/** Upstream's lifetimes: 8 hours for the token, 6 months (in seconds, as upstream answers) for its refresh token. */
export const USER_TOKEN_SECONDS = 8 * 60 * 60;
export const REFRESH_TOKEN_SECONDS = 15_897_600;
/** A code is good for one exchange within 10 minutes, as OAuth apps' codes. */
export const USER_CODE_SECONDS = 10 * 60;

/** The app of a client id (a GitHub App's, not an OAuth app's), or null. */
export async function findAppByClientId(ctx: AppContext, clientId: string | undefined): Promise<App | null> {
  if (!clientId) return null;
  const row = await appStore.findAppByClientId(ctx.db, clientId);
  return row ? toApp(row) : null;
}

export async function clientSecretMatches(ctx: AppContext, app: App, secret: string | undefined): Promise<boolean> {
  if (!secret) return false;
  const hash = await appStore.clientSecretHashOf(ctx.db, app.id);
  return hash !== undefined && hashesEqual(hash, sha256Hex(secret));
}

/** Whether the user authorized the app before (then the flow does not ask again). */
export function isAuthorized(ctx: AppContext, appId: number, userId: number): Promise<boolean> {
  return store.isAuthorized(ctx.db, appId, userId);
}

/** The user authorizes the app without a code (the device flow): remembered, as the web flow remembers it. */
export async function recordAuthorization(ctx: AppContext, appId: number, userId: number): Promise<void> {
  await store.recordAuthorization(ctx.db, appId, userId, nowIso(ctx.clock));
}

/** The user authorizes the app: remembered, and a one-time code bound to the redirect URI and PKCE challenge. */
export async function authorize(ctx: AppContext, appId: number, userId: number, redirectUri: string, codeChallenge: string | null): Promise<string> {
  const code = randomBytes(20).toString('hex');
  const now = ctx.clock.now();
  await inTransaction(ctx, async (tx) => {
    await store.recordAuthorization(tx.db, appId, userId, isoSeconds(now));
    await store.deleteExpiredCodes(tx.db, isoSeconds(now));
    await store.insertCode(tx.db, {
      code_hash: sha256Hex(code), app_id: appId, user_id: userId, redirect_uri: redirectUri, code_challenge: codeChallenge,
      expires_at: isoSeconds(new Date(now.getTime() + USER_CODE_SECONDS * 1000)),
    });
  });
  return code;
}

export interface TakenCode {
  userId: number;
  redirectUri: string;
  codeChallenge: string | null;
}

/** Takes a code of the app away; null when unknown, another app's, or expired. */
export async function takeCode(ctx: AppContext, appId: number, code: string): Promise<TakenCode | null> {
  const row = await store.takeCode(ctx.db, sha256Hex(code), appId);
  if (!row || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) return null;
  return { userId: row.user_id, redirectUri: row.redirect_uri, codeChallenge: row.code_challenge };
}

export interface IssuedUserToken {
  token: string;
  /** Seconds; null when the app's user tokens do not expire. */
  expiresIn: number | null;
  refreshToken: string | null;
  refreshTokenExpiresIn: number | null;
}

/** A new user-to-server token of the app for the user (with a refresh token when the app's expire). */
export async function issueUserToken(ctx: AppContext, app: App, userId: number): Promise<IssuedUserToken> {
  const token = newUserToServerToken();
  const refreshToken = app.userTokensExpire ? newRefreshToken() : null;
  const now = ctx.clock.now();
  const at = (seconds: number) => isoSeconds(new Date(now.getTime() + seconds * 1000));
  await store.deleteDeadTokens(ctx.db, isoSeconds(now));
  await store.insertToken(ctx.db, {
    app_id: app.id, user_id: userId, token_hash: sha256Hex(token), token_last_eight: token.slice(-8),
    refresh_token_hash: refreshToken ? sha256Hex(refreshToken) : null,
    expires_at: refreshToken ? at(USER_TOKEN_SECONDS) : null, refresh_token_expires_at: refreshToken ? at(REFRESH_TOKEN_SECONDS) : null,
    target_id: null, repository_ids: null, permissions: null, created_at: isoSeconds(now), updated_at: isoSeconds(now),
  });
  return {
    token, expiresIn: refreshToken ? USER_TOKEN_SECONDS : null,
    refreshToken, refreshTokenExpiresIn: refreshToken ? REFRESH_TOKEN_SECONDS : null,
  };
}

/**
 * grant_type=refresh_token: the refresh token (single use, within its lifetime) buys a
 * new token and a new refresh token; the old pair stops working. Null when refused.
 */
export async function refreshUserToken(ctx: AppContext, app: App, refreshToken: string): Promise<IssuedUserToken | null> {
  if (!app.userTokensExpire || refreshToken.length > 200) return null;
  return inTransaction(ctx, async (tx) => {
    const row = await store.takeByRefreshHash(tx.db, app.id, sha256Hex(refreshToken));
    if (!row || row.refresh_token_expires_at === null || Date.parse(row.refresh_token_expires_at) <= tx.clock.now().getTime()) return null;
    return issueUserToken(tx, app, row.user_id);
  });
}

// ---------------------------------------------------------------- authenticating

export interface TokenScope {
  targetId: number;
  repositoryIds: readonly number[] | null;
  permissions: Permissions | null;
}

/** The lower of two permission sets, name by name (what both allow). */
function narrowPermissions(installation: Permissions, asked: Permissions): Permissions {
  const out: Permissions = {};
  for (const [name, level] of Object.entries(asked)) {
    const has = installation[name];
    if (has !== undefined) out[name] = levelAtLeast(has, level) ? level : has;
  }
  return out;
}

/** The app's live installations as a user token reaches through them, narrowed by a scoped token's scope. */
export async function reachOf(ctx: AppContext, appId: number, scope: TokenScope | null): Promise<InstallationReach[]> {
  let rows = await installStore.liveInstallationsOfApp(ctx.db, appId);
  if (scope) rows = rows.filter((r) => r.account_id === scope.targetId);
  const accounts = await users.accountsByIds(ctx, rows.map((r) => r.account_id));
  const selected = await installStore.selectionsOf(ctx.db, rows.filter((r) => r.repository_selection === 'selected').map((r) => r.id));
  const out: InstallationReach[] = [];
  for (const row of rows) {
    const account = accounts.get(row.account_id);
    if (!account) continue;
    const installation = toInstallation(row);
    let repositoryIds: Set<number> | null = row.repository_selection === 'selected'
      ? new Set(selected.filter((s) => s.installation_id === row.id).map((s) => s.repository_id)) : null;
    if (scope?.repositoryIds) {
      const within = repositoryIds ?? new Set(await repositoryIdsOf(ctx, installation));
      repositoryIds = new Set(scope.repositoryIds.filter((id) => within.has(id)));
    }
    const permissions = scope?.permissions ? narrowPermissions(installation.permissions, scope.permissions) : installation.permissions;
    out.push({ accountId: account.id, accountLogin: account.login.toLowerCase(), permissions, repositoryIds });
  }
  return out;
}

export interface UserTokenRecord {
  id: number;
  appId: number;
  userId: number;
  tokenLastEight: string;
  tokenHash: string;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  scope: TokenScope | null;
}

export function toRecord(row: store.UserTokenRow): UserTokenRecord {
  return {
    id: row.id, appId: row.app_id, userId: row.user_id, tokenLastEight: row.token_last_eight, tokenHash: row.token_hash,
    expiresAt: row.expires_at, createdAt: row.created_at, updatedAt: row.updated_at,
    scope: row.target_id === null ? null : {
      targetId: row.target_id,
      repositoryIds: row.repository_ids === null ? null : JSON.parse(row.repository_ids) as number[],
      permissions: row.permissions === null ? null : JSON.parse(row.permissions) as Permissions,
    },
  };
}

/** The live user-to-server token of this value, or null (unknown or expired). */
export async function findLiveToken(ctx: AppContext, token: string): Promise<UserTokenRecord | null> {
  if (token.length > 200) return null;
  const row = await store.findTokenByHash(ctx.db, sha256Hex(token));
  if (!row || (row.expires_at !== null && Date.parse(row.expires_at) <= ctx.clock.now().getTime())) return null;
  return toRecord(row);
}

/** The actor of a user-to-server token: 401 when unknown or expired, 403 for a suspended user. */
export async function authenticateUserToken(ctx: AppContext, token: string, ip: string): Promise<Actor> {
  const record = await findLiveToken(ctx, token);
  if (!record) throw new BadCredentialsError();
  const user = (await users.accountsByIds(ctx, [record.userId])).get(record.userId);
  if (!user) throw new BadCredentialsError();
  if (user.suspendedAt !== null) throw new ForbiddenError('Sorry. Your account was suspended.');
  const reach = await reachOf(ctx, record.appId, record.scope);
  return userToServerActor({ id: user.id, login: user.login, siteAdmin: user.siteAdmin }, record.appId, reach, ip);
}

/** Stores a scoped token narrowed from `from` (same user, app and expiry; no refresh token). */
export async function insertScopedToken(ctx: AppContext, from: UserTokenRecord, scope: TokenScope): Promise<{ token: string; record: UserTokenRecord }> {
  const token = newUserToServerToken();
  const now = nowIso(ctx.clock);
  const row = await store.insertToken(ctx.db, {
    app_id: from.appId, user_id: from.userId, token_hash: sha256Hex(token), token_last_eight: token.slice(-8),
    refresh_token_hash: null, expires_at: from.expiresAt, refresh_token_expires_at: null, target_id: scope.targetId,
    repository_ids: scope.repositoryIds ? JSON.stringify(scope.repositoryIds) : null,
    permissions: scope.permissions ? JSON.stringify(scope.permissions) : null, created_at: now, updated_at: now,
  });
  return { token, record: toRecord(row) };
}
