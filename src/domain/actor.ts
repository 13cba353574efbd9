// Who is calling, and with which rights. Built once per request by src/http/auth.ts
// (or by the GraphQL endpoint) and passed to every service call.
import { AuthenticationRequiredError, BadCredentialsError, MissingScopeError } from './errors.ts';
import type { AppContext } from '../context.ts';
import { ALL_SCOPES, expandedScopesOf } from './scopes.ts';

/**
 * 'session': a signed-in browser on Wharf's own pages, never an API request.
 * 'app': an app's JSON web token (the app itself); 'installation': an installation
 * access token (the app acting in one account, within the installation's grant);
 * 'user_to_server': an app's user access token (the app acting for a user, within both
 * the user's access and the app's installations).
 * 'ssh_key': a user's SSH key (git over SSH); 'deploy_key': a repository's deploy key.
 */
export type AuthMethod = 'anonymous' | 'basic' | 'token' | 'oauth_app' | 'session' | 'app' | 'installation' | 'user_to_server' | 'ssh_key' | 'deploy_key';

/** One installation a user-to-server token reaches through: its account, permissions and repositories. */
export interface InstallationReach {
  accountId: number;
  /** Lower-case login of the account (routes name accounts by login). */
  accountLogin: string;
  permissions: Readonly<Record<string, 'read' | 'write' | 'admin'>>;
  /** null: every repository of the account. */
  repositoryIds: ReadonlySet<number> | null;
}

/** The app behind an 'app' or 'installation' actor. */
export interface ActorIntegration {
  appId: number;
  /** Set for installation tokens only. */
  installationId: number | null;
  /** The installation token's row (for DELETE /installation/token). */
  installationTokenId: number | null;
  /** What the installation token may do: permission name → level (null for the app's JWT). */
  permissions: Readonly<Record<string, 'read' | 'write' | 'admin'>> | null;
  /** The repositories the installation token reaches (null for the app's JWT). */
  repositoryIds: ReadonlySet<number> | null;
  /** A user-to-server token's installations (absent for the app's own credentials). */
  reach?: readonly InstallationReach[];
}

/** The deploy key behind a 'deploy_key' actor: one repository, read or write. */
export interface ActorDeployKey {
  keyId: number;
  repositoryId: number;
  readOnly: boolean;
}

export interface ActorUser {
  id: number;
  login: string;
  siteAdmin: boolean;
}

export interface Actor {
  method: AuthMethod;
  /** The user acting; null for anonymous callers and OAuth apps. */
  user: ActorUser | null;
  tokenId: number | null;
  /** Scopes as granted (for the X-OAuth-Scopes header). */
  grantedScopes: readonly string[];
  /** Granted scopes with implied children. */
  scopes: ReadonlySet<string>;
  oauthAppId: number | null;
  /** The app of a JSON web token or installation token; null for everyone else. */
  integration: ActorIntegration | null;
  /** Client address, for rate limiting anonymous callers. */
  ip: string;
  /** The deploy key of a 'deploy_key' actor; absent for everyone else. */
  deployKey?: ActorDeployKey;
}

export function anonymousActor(ip: string): Actor {
  return { method: 'anonymous', user: null, tokenId: null, grantedScopes: [], scopes: new Set(), oauthAppId: null, integration: null, ip };
}

export function userActor(
  user: ActorUser, method: 'basic' | 'token', tokenId: number, grantedScopes: readonly string[], ip: string,
): Actor {
  return { method, user, tokenId, grantedScopes, scopes: expandedScopesOf(grantedScopes), oauthAppId: null, integration: null, ip };
}

/** The user signed in on Wharf's pages: the account holder, so no scope limits it. */
export function sessionActor(user: ActorUser, ip: string): Actor {
  return { method: 'session', user, tokenId: null, grantedScopes: [], scopes: expandedScopesOf(ALL_SCOPES), oauthAppId: null, integration: null, ip };
}

export function oauthAppActor(appId: number, ip: string): Actor {
  return { method: 'oauth_app', user: null, tokenId: null, grantedScopes: [], scopes: new Set(), oauthAppId: appId, integration: null, ip };
}

/** An app authenticated by its JSON web token. */
export function appActor(appId: number, ip: string): Actor {
  return { method: 'app', user: null, tokenId: null, grantedScopes: [], scopes: new Set(), oauthAppId: null, integration: { appId, installationId: null, installationTokenId: null, permissions: null, repositoryIds: null }, ip };
}

/**
 * An app acting in one installation through an installation access token, as its bot
 * user. It holds no OAuth scopes to show but passes every scope check: what it may do is
 * its installation's permissions (src/http/app-permission.ts) on its repositories
 * (repos.access), checked instead.
 */
export function installationActor(
  bot: ActorUser, appId: number, installationId: number, tokenId: number,
  permissions: Readonly<Record<string, 'read' | 'write' | 'admin'>>, repositoryIds: ReadonlySet<number>, ip: string,
): Actor {
  return {
    method: 'installation', user: bot, tokenId: null, grantedScopes: [], scopes: expandedScopesOf(ALL_SCOPES), oauthAppId: null,
    integration: { appId, installationId, installationTokenId: tokenId, permissions, repositoryIds }, ip,
  };
}

/** A user over SSH with one of their keys: the account holder, so no scope limits it. */
export function sshKeyActor(user: ActorUser, ip: string): Actor {
  return { method: 'ssh_key', user, tokenId: null, grantedScopes: [], scopes: expandedScopesOf(ALL_SCOPES), oauthAppId: null, integration: null, ip };
}

/**
 * A deploy key over SSH. Its access is the key's alone (repos.access); `user` is who
 * its pushes are recorded as (the one who added it, else the repository's owner), and
 * none of that user's own rights come with it.
 */
export function deployKeyActor(recordedAs: ActorUser, key: ActorDeployKey, ip: string): Actor {
  return { method: 'deploy_key', user: recordedAs, tokenId: null, grantedScopes: [], scopes: new Set(), oauthAppId: null, integration: null, ip, deployKey: key };
}

/**
 * An app acting for a user through a user-to-server token. Like an installation token it
 * shows no OAuth scopes and passes scope checks; what it may do is the user's access
 * narrowed by the app's installations (`reach`): the route's permission
 * (src/http/app-permission.ts) and the repository role (repos.access) are both capped.
 * `permissions` is the union of the installations' (for routes naming no account).
 */
export function userToServerActor(
  user: ActorUser, appId: number, reach: readonly InstallationReach[], ip: string,
): Actor {
  const union: Record<string, 'read' | 'write' | 'admin'> = {};
  const rank = { read: 1, write: 2, admin: 3 } as const;
  for (const r of reach) {
    for (const [name, level] of Object.entries(r.permissions)) if (!union[name] || rank[union[name]] < rank[level]) union[name] = level;
  }
  return {
    method: 'user_to_server', user, tokenId: null, grantedScopes: [], scopes: expandedScopesOf(ALL_SCOPES), oauthAppId: null,
    integration: { appId, installationId: null, installationTokenId: null, permissions: union, repositoryIds: null, reach }, ip,
  };
}

/**
 * A GitHub App identified by its client id and secret (Basic): the app only, no user, as
 * an OAuth app's credentials are (public data; the /applications/{client_id} endpoints).
 */
export function appClientActor(appId: number, ip: string): Actor {
  return { method: 'oauth_app', user: null, tokenId: null, grantedScopes: [], scopes: new Set(), oauthAppId: null, integration: { appId, installationId: null, installationTokenId: null, permissions: null, repositoryIds: null }, ip };
}

/** Upstream's answer when an endpoint that needs the app's JSON web token gets other credentials. */
export const JWT_REQUIRED_MESSAGE = 'A JSON web token could not be decoded';

/**
 * The 401 for an app's JSON web token on any endpoint but the app's own. Upstream's
 * exact words are not published (older answers said only "Bad credentials"); this one
 * names the JWT so that an app author sees at once which token to send instead.
 */
export const JWT_NOT_ACCEPTED_MESSAGE =
  "'Authorization' header is using a JSON web token, which authenticates the app only on its own endpoints (/app, /app/installations …); use an installation access token here";

/** The app of a JSON web token; 401 as upstream for any other caller. */
export function requireAppActor(actor: Actor): number {
  if (actor.method !== 'app' || !actor.integration) throw new BadCredentialsError(JWT_REQUIRED_MESSAGE);
  return actor.integration.appId;
}

/**
 * The app doing the work when it acts through one of its tokens (an installation token,
 * or a user-to-server token for a user): what upstream shows as performed_via_github_app.
 * Its JSON web token does no such work, and a user's own credentials name no app.
 */
export function actingAppId(actor: Actor): number | null {
  return actor.method === 'installation' || actor.method === 'user_to_server' ? actor.integration?.appId ?? null : null;
}

export function hasScope(actor: Actor, ...accepted: string[]): boolean {
  return accepted.some((s) => actor.scopes.has(s));
}

/** The acting user, or AuthenticationRequiredError. */
export function requireUser(actor: Actor): ActorUser {
  if (!actor.user) throw new AuthenticationRequiredError();
  return actor.user;
}

/** Throws MissingScopeError unless the actor holds one of the accepted scopes. */
export function requireScope(actor: Actor, ...accepted: string[]): void {
  if (!hasScope(actor, ...accepted)) throw new MissingScopeError(accepted);
}

export function isSiteAdmin(actor: Actor): boolean {
  return actor.user?.siteAdmin === true;
}

/** What a request presents to prove who it is (the HTTP layer reads it off the request). */
export type Credentials =
  | { kind: 'none' }
  | { kind: 'token'; token: string }
  | { kind: 'basic'; login: string; password: string };

/** Turns credentials into an actor; app.ts hands the auth module's to the HTTP layer. */
export type Authenticator = (ctx: AppContext, creds: Credentials, ip: string) => Promise<Actor>;
