// Turns an app's credentials into an actor: its JSON web token (the app itself) and,
// once installations land, its installation access tokens.
import type { AppContext } from '../../context.ts';
import { appActor, type Actor } from '../../domain/actor.ts';
import { epochSeconds } from '../../domain/clock.ts';
import { BadCredentialsError } from '../../domain/errors.ts';
import { checkTimes, MESSAGES, parseAppJwt, signedByOneOf } from './app-jwt.ts';
import { findAppByIssuer, publicKeysOf } from './apps.service.ts';

export { looksLikeJwt } from './app-jwt.ts';

export async function authenticateAppJwt(ctx: AppContext, token: string, ip: string): Promise<Actor> {
  const jwt = parseAppJwt(token);
  const app = await findAppByIssuer(ctx, jwt.iss);
  if (!app) throw new BadCredentialsError(MESSAGES.unknownIssuer);
  if (!signedByOneOf(jwt, await publicKeysOf(ctx, app.id))) throw new BadCredentialsError(MESSAGES.undecodable);
  checkTimes(jwt, epochSeconds(ctx.clock));
  return appActor(app.id, ip);
}
