// OAuth apps as the domain sees them (the client secret is only ever a hash, never here).
import type { Account } from '../users/users.model.ts';

export interface OauthApp {
  id: number;
  ownerId: number;
  name: string;
  /** Homepage URL. */
  url: string | null;
  callbackUrl: string | null;
  description: string | null;
  clientId: string;
  createdAt: string;
  updatedAt: string;
}

export interface OwnedOauthApp {
  app: OauthApp;
  owner: Account | null;
}

/** An app with its client secret, the one time it is shown (creation, regeneration). */
export interface OauthAppWithSecret {
  app: OauthApp;
  clientSecret: string;
}

/** A valid request to authorize an app, as GET /login/oauth/authorize describes it. */
export interface AuthorizationRequest {
  app: OauthApp;
  /** A GitHub App's client id (user-to-server tokens, no scopes) rather than an OAuth app's. */
  githubApp: boolean;
  owner: Account | null;
  redirectUri: string;
  /** Known scopes only, each once; unknown names are dropped (as upstream ignores them). */
  scopes: string[];
  state: string | null;
  /** PKCE S256 challenge, or null. */
  codeChallenge: string | null;
  /** The login the app suggested (`login`), or null. */
  login: string | null;
}

/**
 * A request that cannot be sent back to the app (unknown client, redirect_uri outside
 * the callback): the user sees why, and is never redirected.
 */
export class AuthorizeRefusal extends Error {}

/** The `error` values of the token endpoint, as upstream names them. */
export type TokenErrorCode =
  | 'incorrect_client_credentials' | 'redirect_uri_mismatch' | 'bad_verification_code' | 'unsupported_grant_type'
  | 'authorization_pending' | 'slow_down' | 'expired_token' | 'access_denied' | 'incorrect_device_code' | 'invalid_request'
  | 'bad_refresh_token';

/** An expiring user-to-server token's lifetimes and refresh token (GitHub Apps that expire their tokens). */
export interface TokenExpiry {
  expiresIn: number;
  refreshToken: string;
  refreshTokenExpiresIn: number;
}

/** What POST /login/oauth/access_token answers: a token, or an error in the body (HTTP 200, as upstream). */
export type TokenOutcome =
  | { kind: 'token'; accessToken: string; scopes: string[]; expiry?: TokenExpiry }
  | { kind: 'error'; error: TokenErrorCode; description: string; interval?: number };
