// Turns an app's credentials into an actor: its JSON web token (the app itself), its
// installation access tokens (the app acting in one installation), its user-to-server
// tokens (the app acting for a user) and its client id and secret (Basic). The auth
// module asks here first for any value of these shapes.
import type { AppContext } from '../../context.ts';
import { appActor, appClientActor, type Actor } from '../../domain/actor.ts';
import { epochSeconds } from '../../domain/clock.ts';
import { BadCredentialsError } from '../../domain/errors.ts';
import { isInstallationToken, isUserToServerToken } from '../auth/secrets.ts';
import { checkTimes, looksLikeJwt, MESSAGES, parseAppJwt, signedByOneOf } from './app-jwt.ts';
import { findAppByIssuer, publicKeysOf } from './apps.service.ts';
import { authenticateInstallationToken } from './installation-tokens.service.ts';
import { authenticateUserToken, clientSecretMatches, findAppByClientId } from './user-tokens.service.ts';

async function authenticateAppJwt(ctx: AppContext, token: string, ip: string): Promise<Actor> {
  const jwt = parseAppJwt(token);
  const app = await findAppByIssuer(ctx, jwt.iss);
  if (!app) throw new BadCredentialsError(MESSAGES.unknownIssuer);
  if (!signedByOneOf(jwt, await publicKeysOf(ctx, app.id))) throw new BadCredentialsError(MESSAGES.undecodable);
  checkTimes(jwt, epochSeconds(ctx.clock));
  return appActor(app.id, ip);
}

/** The actor of an app credential, or null when the value is not one (a user's token, say). */
export async function authenticateAppCredential(ctx: AppContext, token: string, ip: string, jwtAllowed: boolean): Promise<Actor | null> {
  if (isInstallationToken(token)) return authenticateInstallationToken(ctx, token, ip);
  if (isUserToServerToken(token)) return authenticateUserToken(ctx, token, ip);
  if (jwtAllowed && looksLikeJwt(token)) return authenticateAppJwt(ctx, token, ip);
  return null;
}

/**
 * Basic with an app's client id: 'unknown' when no app has that client id (the caller
 * tries OAuth apps), else the app's actor, or null for a wrong secret.
 */
export async function authenticateAppClient(ctx: AppContext, clientId: string, secret: string, ip: string): Promise<Actor | null | 'unknown'> {
  const app = await findAppByClientId(ctx, clientId);
  if (!app) return 'unknown';
  return await clientSecretMatches(ctx, app, secret) ? appClientActor(app.id, ip) : null;
}
