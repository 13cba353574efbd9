// The one rule of SAML single sign-on enforcement: a member of an organization that
// enforces SSO reaches it (its repositories, its owner-only and member-only data)
// through a token only once the token was authorized for the organization. Site admins,
// browser sessions, installations and organizations without SSO are unaffected. The
// repository permission model (repos.access) and the organization viewer
// (orgs.permissions) both ask here, so every route inherits it.
import type { AppContext } from '../../context.ts';
import { isSiteAdmin, type Actor } from '../../domain/actor.ts';

declare module '../../events/bus.ts' {
  interface Providers {
    /** The sso module's: of these organizations, those enforcing SSO that have not authorized the token (id → authorization URL). */
    organizationSso: {
      refusals(ctx: AppContext, tokenId: number, orgIds: readonly number[]): Promise<Map<number, string>>;
    };
  }
}

/** Organizations (of `orgIds`, where the caller is a member) whose SSO refuses the caller's token: id → where to authorize it. */
export async function ssoRefusals(ctx: AppContext, actor: Actor, orgIds: readonly number[]): Promise<Map<number, string>> {
  if (!orgIds.length || actor.tokenId === null || isSiteAdmin(actor)) return new Map();
  if (actor.method !== 'token' && actor.method !== 'basic') return new Map();
  const provider = ctx.bus.provider('organizationSso');
  return provider ? provider.refusals(ctx, actor.tokenId, orgIds) : new Map();
}
