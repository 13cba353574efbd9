// Turns an app's credentials into an actor: its JSON web token (the app itself) and its
// installation access tokens (the app acting in one installation). The auth module asks
// here first for any bearer value of these shapes.
import type { AppContext } from '../../context.ts';
import { appActor, type Actor } from '../../domain/actor.ts';
import { epochSeconds } from '../../domain/clock.ts';
import { BadCredentialsError } from '../../domain/errors.ts';
import { isInstallationToken } from '../auth/secrets.ts';
import { checkTimes, looksLikeJwt, MESSAGES, parseAppJwt, signedByOneOf } from './app-jwt.ts';
import { findAppByIssuer, publicKeysOf } from './apps.service.ts';
import { authenticateInstallationToken } from './installation-tokens.service.ts';

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
  if (jwtAllowed && looksLikeJwt(token)) return authenticateAppJwt(ctx, token, ip);
  return null;
}
