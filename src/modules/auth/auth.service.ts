// Who a request is: tokens, Basic logins, OAuth app credentials; and issuing tokens.
import { inTransaction, type AppContext } from '../../context.ts';
import { anonymousActor, oauthAppActor, userActor, type Actor, type Credentials } from '../../domain/actor.ts';
import { epochSeconds, isoSeconds, nowIso } from '../../domain/clock.ts';
import { BadCredentialsError, ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { formatScopes, isKnownScope, parseScopes } from '../../domain/scopes.ts';
import * as users from '../users/users.service.ts';
import { authenticateAppClient, authenticateAppCredential } from '../apps/app-auth.service.ts';
import * as store from './auth.store.ts';
import { hashesEqual, newClientId, newClientSecret, newPersonalToken, sha256Hex } from './secrets.ts';


/** last_used_at is refreshed at most this often, to keep writes off the read path. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export async function authenticate(ctx: AppContext, creds: Credentials, ip: string): Promise<Actor> {
  switch (creds.kind) {
    case 'none': return anonymousActor(ip);
    case 'token': {
      // An app's JSON web token and installation tokens have shapes of their own; the apps module checks them.
      const appActor = await authenticateAppCredential(ctx, creds.token, ip, true);
      if (appActor) return appActor;
      const actor = await actorForToken(ctx, creds.token, 'token', ip);
      if (!actor) throw new BadCredentialsError();
      return actor;
    }
    case 'basic': return authenticateBasic(ctx, creds.login, creds.password, ip);
  }
}

/**
 * Basic: a token as the password, or an OAuth app's client id and secret. As upstream,
 * a token is accepted under any user name (`x-access-token` from gh's credential helper,
 * `oauth2`, the login, anything): the token says whose it is. The lockout counts by the
 * named login (or client id) when an account or app of that name exists, so a wrong
 * name never locks out a token's owner, and a name nobody has locks out nobody; a
 * token presented under its owner's own login keeps upstream's rule (refused while
 * that login is locked).
 */
async function authenticateBasic(ctx: AppContext, login: string, password: string, ip: string): Promise<Actor> {
  // git sends an installation token as the password (x-access-token:<token>), as upstream.
  const installation = await authenticateAppCredential(ctx, password, ip, false);
  if (installation) return installation;
  const tokenActor = await actorForToken(ctx, password, 'basic', ip);
  const ownLogin = tokenActor !== null && tokenActor.user!.login.toLowerCase() === login.toLowerCase();
  if (tokenActor && !ownLogin) return tokenActor;
  const app = await store.findOauthAppByClientId(ctx.db, login);
  // A GitHub App's client id and secret identify the app, as an OAuth app's do.
  const ghApp = app || tokenActor ? 'unknown' : await authenticateAppClient(ctx, login, password, ip);
  const counted = ownLogin || app !== undefined || ghApp !== 'unknown' || await users.findAccount(ctx, login) !== null;
  if (counted && !await countLoginAttempt(ctx, login)) {
    throw new ForbiddenError(LOCKED_OUT_MESSAGE);
  }
  const actor = tokenActor ?? (app && clientSecretMatches(app, password) ? oauthAppActor(app.id, ip) : ghApp === 'unknown' ? null : ghApp);
  if (!actor) throw new BadCredentialsError();
  await forgiveLoginAttempt(ctx, login);
  return actor;
}

export const LOCKED_OUT_MESSAGE = 'Maximum number of login attempts exceeded. Please try again later.';

/**
 * Counts a login attempt (Basic or the sign-in form: one lockout for both) and says
 * whether it may be checked at all. Every attempt counts as a failure before it is
 * checked, in one atomic statement, and a correct one gives its count back
 * (forgiveLoginAttempt): however many arrive at once, at most maxFailures of them are
 * ever checked in a window (reading the count first and recording the failure after
 * let parallel guesses through on PostgreSQL). Upstream's rule: once locked, every
 * attempt for the login is refused, valid or not.
 */
export async function countLoginAttempt(ctx: AppContext, login: string): Promise<boolean> {
  const { maxFailures, windowSeconds } = ctx.config.loginLockout;
  return await store.countAttempt(ctx.db, login.toLowerCase(), epochSeconds(ctx.clock), windowSeconds) <= maxFailures;
}

export function forgiveLoginAttempt(ctx: AppContext, login: string): Promise<void> {
  return store.forgiveAttempt(ctx.db, login.toLowerCase());
}

export function clientSecretMatches(app: store.OauthAppRow, secret: string): boolean {
  return hashesEqual(app.client_secret_hash, sha256Hex(secret));
}

async function actorForToken(
  ctx: AppContext, token: string, method: 'basic' | 'token', ip: string,
): Promise<Actor | null> {
  const row = await store.findTokenByHash(ctx.db, sha256Hex(token));
  if (!row) return null;
  const now = ctx.clock.now();
  if (row.expires_at && Date.parse(row.expires_at) <= now.getTime()) return null;
  if (row.suspended_at) throw new ForbiddenError('Sorry. Your account was suspended.');
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > TOUCH_INTERVAL_MS) {
    await store.touchToken(ctx.db, row.token_id, nowIso(ctx.clock));
  }
  return userActor(
    { id: row.user_id, login: row.login, siteAdmin: row.site_admin === 1 },
    method, row.token_id, parseScopes(row.scopes), ip,
  );
}

export interface IssuedToken {
  token: string;
  record: store.TokenRow;
}

export interface TokenRequest {
  userId: number;
  scopes: readonly string[];
  note?: string | null;
  noteUrl?: string | null;
  kind: 'personal' | 'impersonation' | 'oauth';
  /** The OAuth app that obtained the token (kind 'oauth'). */
  oauthAppId?: number | null;
  expiresAt?: string | null;
}

/** Validates the scopes, stores the hash, and returns the token: the only time it is visible. */
export async function issueToken(ctx: AppContext, req: TokenRequest): Promise<IssuedToken> {
  const unknown = req.scopes.filter((s) => !isKnownScope(s));
  if (unknown.length > 0) {
    throw new ValidationError(unknown.map((s) => ({
      resource: 'OauthAccess', field: 'scopes', code: 'invalid' as const, value: s, message: `Unknown scope: ${s}`,
    })));
  }
  const token = newPersonalToken();
  const record = await store.insertToken(ctx.db, {
    userId: req.userId,
    hash: sha256Hex(token),
    lastEight: token.slice(-8),
    scopes: formatScopes([...new Set(req.scopes)]),
    note: req.note ?? null,
    noteUrl: req.noteUrl ?? null,
    kind: req.kind,
    oauthAppId: req.oauthAppId ?? null,
    expiresAt: req.expiresAt ?? null,
    now: nowIso(ctx.clock),
  });
  return { token, record };
}
// ---------------------------------------------------------------- personal access tokens (settings pages)

/** The lifetimes the token form offers, in days; null never expires (as upstream's choices). */
export const TOKEN_LIFETIMES: readonly (number | null)[] = [7, 30, 60, 90, null];
/** Upstream's limit on a token's note. */
const MAX_NOTE_LENGTH = 255;

export interface PersonalToken {
  id: number;
  note: string;
  scopes: string[];
  lastEight: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  expired: boolean;
}

/** The user's personal access tokens, newest first: what each may do, never its value. */
export async function listPersonalTokens(ctx: AppContext, userId: number): Promise<PersonalToken[]> {
  const now = ctx.clock.now().getTime();
  return (await store.listPersonalTokens(ctx.db, userId)).map((t) => ({
    id: t.id, note: t.note ?? '', scopes: parseScopes(t.scopes), lastEight: t.token_last_eight,
    expiresAt: t.expires_at, lastUsedAt: t.last_used_at, createdAt: t.created_at,
    expired: t.expires_at !== null && Date.parse(t.expires_at) <= now,
  }));
}

export interface NewPersonalToken {
  note: string;
  scopes: readonly string[];
  /** Days until it expires (one of TOKEN_LIFETIMES), null for never. */
  lifetimeDays: number | null;
}

/** Issues a personal access token for the user; the value is returned this once only. */
export async function createPersonalToken(ctx: AppContext, userId: number, input: NewPersonalToken): Promise<IssuedToken> {
  const note = input.note.trim();
  if (!note) throw ValidationError.field('OauthAccess', 'note', 'missing_field', "Note can't be blank");
  if (note.length > MAX_NOTE_LENGTH) throw ValidationError.field('OauthAccess', 'note', 'invalid', `Note is too long (maximum is ${MAX_NOTE_LENGTH} characters)`);
  if (!TOKEN_LIFETIMES.includes(input.lifetimeDays)) throw ValidationError.field('OauthAccess', 'expires_at', 'invalid', 'Expiration is not one of the choices offered');
  const expiresAt = input.lifetimeDays === null ? null : isoSeconds(new Date(ctx.clock.now().getTime() + input.lifetimeDays * 86_400_000));
  return issueToken(ctx, { userId, scopes: input.scopes, note, kind: 'personal', expiresAt });
}

/** Revokes one of the user's own personal access tokens; any other id is not found. */
export async function revokePersonalToken(ctx: AppContext, userId: number, tokenId: number): Promise<void> {
  if (!(await store.deletePersonalToken(ctx.db, userId, tokenId))) throw new NotFoundError();
}

export function revokeTokens(ctx: AppContext, userId: number, kind?: 'personal' | 'impersonation'): Promise<number> {
  return store.deleteTokensOfUser(ctx.db, userId, kind);
}

export interface IssuedOauthApp {
  app: store.OauthAppRow;
  clientSecret: string;
}

export interface OauthAppFields {
  name: string;
  url: string | null;
  callbackUrl: string | null;
  description?: string | null;
}

export async function registerOauthApp(
  ctx: AppContext, ownerId: number, name: string, url: string | null, callbackUrl: string | null, description: string | null = null,
): Promise<IssuedOauthApp> {
  if (!name.trim()) throw ValidationError.field('OauthApplication', 'name', 'missing_field');
  const clientSecret = newClientSecret();
  const now = nowIso(ctx.clock);
  const app = await inTransaction(ctx, (tx) => store.insertOauthApp(tx.db, {
    owner_id: ownerId, name, url, callback_url: callbackUrl, client_id: newClientId(),
    client_secret_hash: sha256Hex(clientSecret), description, created_at: now, updated_at: now,
  }));
  return { app, clientSecret };
}

/** Registers an app under a client id and secret fixed by someone else (a public client's). */
export async function adoptOauthApp(
  ctx: AppContext, ownerId: number, clientId: string, clientSecret: string, fields: OauthAppFields,
): Promise<store.OauthAppRow> {
  const found = await store.findOauthAppByClientId(ctx.db, clientId);
  if (found) return found;
  const now = nowIso(ctx.clock);
  return store.insertOauthApp(ctx.db, {
    owner_id: ownerId, name: fields.name, url: fields.url, callback_url: fields.callbackUrl, client_id: clientId,
    client_secret_hash: sha256Hex(clientSecret), description: fields.description ?? null, created_at: now, updated_at: now,
  });
}

export async function findOauthAppByClientId(ctx: AppContext, clientId: string): Promise<store.OauthAppRow | null> {
  return (await store.findOauthAppByClientId(ctx.db, clientId)) ?? null;
}

export async function findOauthAppById(ctx: AppContext, id: number): Promise<store.OauthAppRow | null> {
  return (await store.findOauthAppById(ctx.db, id)) ?? null;
}

export function listOauthAppsOfOwner(ctx: AppContext, ownerId: number): Promise<store.OauthAppRow[]> {
  return store.listOauthAppsOfOwner(ctx.db, ownerId);
}

export function listOauthApps(ctx: AppContext, sinceId: number, limit: number): Promise<store.OauthAppRow[]> {
  return store.listOauthApps(ctx.db, sinceId, limit);
}

export async function updateOauthApp(ctx: AppContext, id: number, fields: OauthAppFields): Promise<store.OauthAppRow> {
  if (!fields.name.trim()) throw ValidationError.field('OauthApplication', 'name', 'missing_field');
  const app = await store.updateOauthApp(ctx.db, id, {
    name: fields.name, url: fields.url, callback_url: fields.callbackUrl, description: fields.description ?? null,
  }, nowIso(ctx.clock));
  if (!app) throw new NotFoundError();
  return app;
}

/** A new client secret; the old one stops working at once. */
export async function resetOauthAppSecret(ctx: AppContext, id: number): Promise<IssuedOauthApp> {
  const clientSecret = newClientSecret();
  const app = await store.updateOauthApp(ctx.db, id, { client_secret_hash: sha256Hex(clientSecret) }, nowIso(ctx.clock));
  if (!app) throw new NotFoundError();
  return { app, clientSecret };
}

/** Deletes the app; its tokens, grants and codes go with it (foreign keys cascade). */
export async function deleteOauthApp(ctx: AppContext, id: number): Promise<boolean> {
  return store.deleteOauthApp(ctx.db, id);
}

/** The token `token` if app `appId` obtained it, else null. */
export async function findAppToken(ctx: AppContext, appId: number, token: string): Promise<store.TokenRow | null> {
  return (await store.findAppTokenByHash(ctx.db, appId, sha256Hex(token))) ?? null;
}

/** Tokens by id (without their hashes), for other modules that show or check a token. */
export async function tokensByIds(ctx: AppContext, ids: readonly number[]): Promise<Map<number, Awaited<ReturnType<typeof store.findTokensByIds>>[number]>> {
  return new Map((await store.findTokensByIds(ctx.db, ids)).map((t) => [t.id, t]));
}

export function deleteToken(ctx: AppContext, tokenId: number): Promise<boolean> {
  return store.deleteToken(ctx.db, tokenId);
}

export function deleteAppTokensOfUser(ctx: AppContext, userId: number, appId: number): Promise<number> {
  return store.deleteAppTokensOfUser(ctx.db, userId, appId);
}

/** Stores a token whose value the operator chose (WHARF_ADMIN_TOKEN); unchanged if already held. */
export async function adoptToken(
  ctx: AppContext, userId: number, token: string, scopes: readonly string[], note: string,
): Promise<void> {
  const hash = sha256Hex(token);
  if (await store.findTokenByHash(ctx.db, hash)) return;
  await store.insertToken(ctx.db, {
    userId, hash, lastEight: token.slice(-8), scopes: formatScopes(scopes), note, noteUrl: null,
    kind: 'personal', oauthAppId: null, expiresAt: null, now: nowIso(ctx.clock),
  });
}
