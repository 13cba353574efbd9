// The authorization web flow: the request an app sends the user with, the user's
// approval (remembered as a grant), the code, and its exchange for a token.
import { createHash, randomBytes } from 'node:crypto';
import { inTransaction, type AppContext } from '../../context.ts';
import { isoSeconds } from '../../domain/clock.ts';
import { expandScopes, formatScopes, isKnownScope, parseScopes } from '../../domain/scopes.ts';
import * as auth from '../auth/auth.service.ts';
import { hashesEqual, sha256Hex } from '../auth/secrets.ts';
import * as users from '../users/users.service.ts';
import * as appUsers from '../apps/user-tokens.service.ts';
import type { App } from '../apps/apps.model.ts';
import { AuthorizeRefusal, type AuthorizationRequest, type OauthApp, type TokenOutcome } from './oauth.model.ts';
import { toOauthApp } from './oauth-apps.service.ts';
import * as store from './oauth.store.ts';
import { findClientApp } from './public-apps.ts';
import { allowedRedirect } from './redirect-uri.ts';

/** A code is good for one exchange within this time (upstream: 10 minutes). */
export const CODE_TTL_SECONDS = 10 * 60;
const MAX_SCOPES = 64;

/** `scope` as apps send it: names separated by spaces or commas; unknown names are left out. */
export function requestedScopes(raw: string | undefined): string[] {
  const names = (raw ?? '').split(/[\s,]+/).filter(Boolean).slice(0, MAX_SCOPES);
  return [...new Set(names.filter(isKnownScope))];
}

export interface AuthorizeQuery {
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  login?: string;
  allow_signup?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

/** A GitHub App as the flows show it (its homepage is the external URL). */
export function clientOfApp(app: App): OauthApp {
  return {
    id: app.id, ownerId: app.ownerId, name: app.name, url: app.externalUrl, callbackUrl: app.callbackUrl,
    description: app.description, clientId: app.clientId, createdAt: app.createdAt, updatedAt: app.updatedAt,
  };
}

/** The client of a flow: an OAuth app, or a GitHub App (then `githubApp` is it, and its tokens are user-to-server tokens). */
export interface FlowClient {
  app: OauthApp;
  githubApp: App | null;
}

/** The OAuth app or GitHub App of a client id, as the flows see it. */
export async function findClient(ctx: AppContext, clientId: string | undefined): Promise<FlowClient | null> {
  const row = await findClientApp(ctx, clientId);
  if (row) return { app: toOauthApp(row), githubApp: null };
  const app = await appUsers.findAppByClientId(ctx, clientId);
  return app ? { app: clientOfApp(app), githubApp: app } : null;
}

export async function describeRequest(ctx: AppContext, q: AuthorizeQuery): Promise<AuthorizationRequest> {
  const client = await findClient(ctx, q.client_id);
  if (!client) throw new AuthorizeRefusal('The client_id is not the client id of an OAuth app registered on this Wharf.');
  const redirectUri = allowedRedirect(client.app.callbackUrl, q.redirect_uri);
  if (!redirectUri) throw new AuthorizeRefusal('The redirect_uri is not within the callback URL registered for this application.');
  let codeChallenge: string | null = null;
  if (q.code_challenge !== undefined || q.code_challenge_method !== undefined) {
    // RFC 7636: 43 to 128 characters of base64url; S256 only, as upstream.
    if (q.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43,128}$/.test(q.code_challenge ?? '')) {
      throw new AuthorizeRefusal('PKCE needs code_challenge_method=S256 and a code_challenge of 43 to 128 base64url characters.');
    }
    codeChallenge = q.code_challenge!;
  }
  const { app } = client;
  const githubApp = client.githubApp !== null;
  const owner = (await users.accountsByIds(ctx, [app.ownerId])).get(app.ownerId) ?? null;
  // A GitHub App's token holds no scopes: its installations' permissions say what it may do.
  const scopes = githubApp ? [] : requestedScopes(q.scope);
  return { app, githubApp, owner, redirectUri, scopes, state: q.state ?? null, codeChallenge, login: q.login ?? null };
}

/** Whether the user approved this app before for these scopes or wider ones (then nobody is asked again). */
export async function isGranted(ctx: AppContext, userId: number, req: AuthorizationRequest): Promise<boolean> {
  if (req.githubApp) return appUsers.isAuthorized(ctx, req.app.id, userId);
  const grant = await store.findGrant(ctx.db, userId, req.app.id);
  if (!grant) return false;
  const granted = expandScopes(parseScopes(grant.scopes));
  return req.scopes.every((s) => granted.has(s));
}

/**
 * The user approves: the grant widens to cover the scopes asked for, and a code for
 * exactly those scopes is made, bound to the app, the redirect URI and the PKCE challenge.
 */
export async function approve(ctx: AppContext, userId: number, req: AuthorizationRequest): Promise<string> {
  if (req.githubApp) return appUsers.authorize(ctx, req.app.id, userId, req.redirectUri, req.codeChallenge);
  const code = randomBytes(20).toString('hex');
  const now = ctx.clock.now();
  await inTransaction(ctx, async (tx) => {
    const previous = await store.findGrant(tx.db, userId, req.app.id);
    const scopes = [...new Set([...parseScopes(previous?.scopes ?? ''), ...req.scopes])];
    await store.upsertGrant(tx.db, userId, req.app.id, formatScopes(scopes), isoSeconds(now));
    await store.deleteExpiredCodes(tx.db, isoSeconds(now));
    await store.insertCode(tx.db, {
      code_hash: sha256Hex(code), oauth_app_id: req.app.id, user_id: userId, redirect_uri: req.redirectUri,
      scopes: formatScopes(req.scopes), code_challenge: req.codeChallenge,
      expires_at: isoSeconds(new Date(now.getTime() + CODE_TTL_SECONDS * 1000)),
    });
  });
  return code;
}

/** Where the user goes back to: the redirect URI with `code` (or `error`) and `state` added. */
export function callbackUrl(req: AuthorizationRequest, params: Record<string, string>): string {
  const url = new URL(req.redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (req.state !== null) url.searchParams.set('state', req.state);
  return url.toString();
}

export const ERROR_DESCRIPTIONS = {
  incorrect_client_credentials: 'The client_id and/or client_secret passed are incorrect.',
  redirect_uri_mismatch: 'The redirect_uri MUST match the registered callback URL for this application.',
  bad_verification_code: 'The code passed is incorrect or expired.',
  unsupported_grant_type: 'The grant type is not supported.',
  authorization_pending: 'The authorization request is still pending.',
  slow_down: 'Too many requests have been made in the same timeframe.',
  expired_token: 'The `device_code` has expired.',
  access_denied: 'The authorization request was denied.',
  incorrect_device_code: 'The device_code provided is not valid.',
  invalid_request: 'The request is missing a required parameter.',
  bad_refresh_token: 'The refresh token passed is incorrect or expired.',
} as const;

export function tokenError(error: keyof typeof ERROR_DESCRIPTIONS, interval?: number): TokenOutcome {
  return { kind: 'error', error, description: ERROR_DESCRIPTIONS[error], ...(interval !== undefined ? { interval } : {}) };
}

export interface CodeExchange {
  client_id?: string;
  client_secret?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
}

function pkceMatches(challenge: string, verifier: string | undefined): boolean {
  if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = createHash('sha256').update(verifier).digest('base64url');
  return hashesEqual(Buffer.from(computed).toString('hex'), Buffer.from(challenge).toString('hex'));
}

/** A URI in URL's canonical spelling (host case, default port), so equal addresses compare equal. */
function normalUri(raw: string): string {
  try {
    return new URL(raw).toString();
  } catch {
    return raw;
  }
}

/** Exchanges a code for a token holding exactly the scopes approved with it. */
export async function exchangeCode(ctx: AppContext, input: CodeExchange): Promise<TokenOutcome> {
  const ghApp = await appUsers.findAppByClientId(ctx, input.client_id);
  if (ghApp) return exchangeAppCode(ctx, ghApp, input);
  const row = await findClientApp(ctx, input.client_id);
  if (!row || !input.client_secret || !auth.clientSecretMatches(row, input.client_secret)) return tokenError('incorrect_client_credentials');
  if (!input.code || input.code.length > 200) return tokenError('bad_verification_code');
  return inTransaction(ctx, async (tx) => {
    const code = await store.takeCode(tx.db, sha256Hex(input.code!), row.id);
    if (!code || Date.parse(code.expires_at) <= tx.clock.now().getTime()) return tokenError('bad_verification_code');
    if (input.redirect_uri !== undefined && input.redirect_uri !== '' && normalUri(input.redirect_uri) !== normalUri(code.redirect_uri)) {
      return tokenError('redirect_uri_mismatch');
    }
    if (code.code_challenge !== null && !pkceMatches(code.code_challenge, input.code_verifier)) return tokenError('bad_verification_code');
    const scopes = parseScopes(code.scopes);
    const issued = await auth.issueToken(tx, { userId: code.user_id, scopes, kind: 'oauth', oauthAppId: row.id });
    return { kind: 'token', accessToken: issued.token, scopes };
  });
}

/** An issued user-to-server token as the token endpoint answers it. */
export function userTokenOutcome(issued: appUsers.IssuedUserToken): TokenOutcome {
  const { expiresIn, refreshToken, refreshTokenExpiresIn } = issued;
  const expiry = expiresIn !== null && refreshToken !== null && refreshTokenExpiresIn !== null ? { expiresIn, refreshToken, refreshTokenExpiresIn } : undefined;
  return { kind: 'token', accessToken: issued.token, scopes: [], ...(expiry ? { expiry } : {}) };
}

/** A GitHub App's code becomes a user-to-server token (expiring with a refresh token when the app says so). */
async function exchangeAppCode(ctx: AppContext, app: App, input: CodeExchange): Promise<TokenOutcome> {
  if (!await appUsers.clientSecretMatches(ctx, app, input.client_secret)) return tokenError('incorrect_client_credentials');
  if (!input.code || input.code.length > 200) return tokenError('bad_verification_code');
  return inTransaction(ctx, async (tx) => {
    const code = await appUsers.takeCode(tx, app.id, input.code!);
    if (!code) return tokenError('bad_verification_code');
    if (input.redirect_uri !== undefined && input.redirect_uri !== '' && normalUri(input.redirect_uri) !== normalUri(code.redirectUri)) {
      return tokenError('redirect_uri_mismatch');
    }
    if (code.codeChallenge !== null && !pkceMatches(code.codeChallenge, input.code_verifier)) return tokenError('bad_verification_code');
    return userTokenOutcome(await appUsers.issueUserToken(tx, app, code.userId));
  });
}

/** grant_type=refresh_token: a GitHub App's refresh token buys a new pair; the old pair stops working. */
export async function refreshToken(ctx: AppContext, input: { client_id?: string; client_secret?: string; refresh_token?: string }): Promise<TokenOutcome> {
  const app = await appUsers.findAppByClientId(ctx, input.client_id);
  // OAuth apps' tokens never expire: they have no refresh grant.
  if (!app && await findClientApp(ctx, input.client_id)) return tokenError('unsupported_grant_type');
  if (!app || !await appUsers.clientSecretMatches(ctx, app, input.client_secret)) return tokenError('incorrect_client_credentials');
  if (!input.refresh_token) return tokenError('bad_refresh_token');
  const issued = await appUsers.refreshUserToken(ctx, app, input.refresh_token);
  return issued ? userTokenOutcome(issued) : tokenError('bad_refresh_token');
}
