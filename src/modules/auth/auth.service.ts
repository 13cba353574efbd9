// Who a request is: tokens, Basic logins, OAuth app credentials; and issuing tokens.
import { inTransaction, type AppContext } from '../../context.ts';
import { anonymousActor, oauthAppActor, userActor, type Actor, type Credentials } from '../../domain/actor.ts';
import { epochSeconds, nowIso } from '../../domain/clock.ts';
import { BadCredentialsError, ForbiddenError, ValidationError } from '../../domain/errors.ts';
import { formatScopes, isKnownScope, parseScopes } from '../../domain/scopes.ts';
import * as store from './auth.store.ts';
import { hashesEqual, newClientId, newClientSecret, newPersonalToken, sha256Hex } from './secrets.ts';


/** last_used_at is refreshed at most this often, to keep writes off the read path. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export async function authenticate(ctx: AppContext, creds: Credentials, ip: string): Promise<Actor> {
  switch (creds.kind) {
    case 'none': return anonymousActor(ip);
    case 'token': {
      const actor = await actorForToken(ctx, creds.token, 'token', ip);
      if (!actor) throw new BadCredentialsError();
      return actor;
    }
    case 'basic': return authenticateBasic(ctx, creds.login, creds.password, ip);
  }
}

async function authenticateBasic(ctx: AppContext, login: string, password: string, ip: string): Promise<Actor> {
  const { maxFailures, windowSeconds } = ctx.config.loginLockout;
  const loginLower = login.toLowerCase();
  const now = epochSeconds(ctx.clock);
  // Every attempt counts as a failure before it is checked, in one atomic statement, and
  // a correct one gives its count back: however many arrive at once, at most
  // maxFailures of them are ever checked in a window (reading the count first and
  // recording the failure after let parallel guesses through on PostgreSQL).
  // Upstream's rule: once locked, every attempt for the login is refused, valid or not.
  if (await store.countAttempt(ctx.db, loginLower, now, windowSeconds) > maxFailures) {
    throw new ForbiddenError('Maximum number of login attempts exceeded. Please try again later.');
  }
  const app = await store.findOauthAppByClientId(ctx.db, login);
  if (app && hashesEqual(app.client_secret_hash, sha256Hex(password))) {
    await store.forgiveAttempt(ctx.db, loginLower);
    return oauthAppActor(app.id, ip);
  }
  const actor = await actorForToken(ctx, password, 'basic', ip);
  if (actor && actor.user!.login.toLowerCase() === loginLower) {
    await store.forgiveAttempt(ctx.db, loginLower);
    return actor;
  }
  throw new BadCredentialsError();
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
  kind: 'personal' | 'impersonation';
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
    oauthAppId: null,
    expiresAt: req.expiresAt ?? null,
    now: nowIso(ctx.clock),
  });
  return { token, record };
}
export function revokeTokens(ctx: AppContext, userId: number, kind?: 'personal' | 'impersonation'): Promise<number> {
  return store.deleteTokensOfUser(ctx.db, userId, kind);
}

export interface IssuedOauthApp {
  app: store.OauthAppRow;
  clientSecret: string;
}

export async function registerOauthApp(
  ctx: AppContext, ownerId: number, name: string, url: string | null, callbackUrl: string | null,
): Promise<IssuedOauthApp> {
  if (!name.trim()) throw ValidationError.field('OauthApplication', 'name', 'missing_field');
  const clientSecret = newClientSecret();
  const now = nowIso(ctx.clock);
  const app = await inTransaction(ctx, (tx) => store.insertOauthApp(tx.db, {
    owner_id: ownerId, name, url, callback_url: callbackUrl, client_id: newClientId(),
    client_secret_hash: sha256Hex(clientSecret), created_at: now, updated_at: now,
  }));
  return { app, clientSecret };
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
