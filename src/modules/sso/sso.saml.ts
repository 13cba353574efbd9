// Wharf as a SAML service provider, through node-saml (no XML signature code of our
// own): AuthnRequests to the organization's identity provider, checks of its signed
// responses (signature, issuer, audience, time window, InResponseTo), and the SP
// metadata. Requests are remembered in the database, not in node-saml's memory cache,
// so that any Wharf process may receive the answer.
import { SAML, ValidateInResponseTo, type CacheItem, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { AppContext } from '../../context.ts';
import { isoSeconds } from '../../domain/clock.ts';
import type { SsoConfigRow } from './sso.store.ts';
import * as store from './sso.store.ts';

/** How long the identity provider has to answer a login request. */
export const REQUEST_SECONDS = 10 * 60;
/** Difference between the identity provider's clock and ours that is forgiven. */
const CLOCK_SKEW_MS = 60_000;

export interface ServiceProvider {
  entityId: string;
  acsUrl: string;
  metadataUrl: string;
}

export function serviceProviderOf(ctx: AppContext, orgLogin: string): ServiceProvider {
  const base = ctx.urls.api('orgs', orgLogin);
  return { entityId: base, acsUrl: `${base}/saml/consume`, metadataUrl: `${base}/sso/metadata` };
}

/** Who started a login: the request row remembers them, since the answer comes cross-site without cookies. */
export interface LoginStarter { orgId: number; userId: number; sessionHash: string }

/** node-saml's InResponseTo cache, kept in org_saml_requests. Entries are consumed by the service (once), not by node-saml. */
class RequestCache implements CacheProvider {
  constructor(private readonly ctx: AppContext, private readonly starter: LoginStarter | null) {}

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    if (!this.starter) return null;
    const now = this.ctx.clock.now();
    await store.deleteExpired(this.ctx.db, isoSeconds(now));
    await store.insertRequest(this.ctx.db, {
      request_id: key, org_id: this.starter.orgId, user_id: this.starter.userId, session_hash: this.starter.sessionHash,
      issued: value, expires_at: isoSeconds(new Date(now.getTime() + REQUEST_SECONDS * 1000)),
    });
    return { value, createdAt: now.getTime() };
  }

  async getAsync(key: string): Promise<string | null> {
    const row = await store.findOpenRequest(this.ctx.db, key, isoSeconds(this.ctx.clock.now()));
    return row?.issued ?? null;
  }

  // node-saml forgets a request after any answer; the service consumes it itself, atomically, after a valid one.
  async removeAsync(): Promise<string | null> { return null; }
}

/** node-saml, with time from Wharf's clock (the injectable one) rather than the system's. */
class ClockedSaml extends SAML {
  constructor(private readonly ctx: AppContext, options: ConstructorParameters<typeof SAML>[0]) { super(options); }

  protected override checkTimestampsValidityError(_nowMs: number, notBefore: string, notOnOrAfter: string, maxTimeLimitMs?: number): Error | null {
    return super.checkTimestampsValidityError(this.ctx.clock.now().getTime(), notBefore, notOnOrAfter, maxTimeLimitMs);
  }
}

function samlFor(ctx: AppContext, orgLogin: string, config: SsoConfigRow, starter: LoginStarter | null): ClockedSaml {
  const sp = serviceProviderOf(ctx, orgLogin);
  return new ClockedSaml(ctx, {
    entryPoint: config.idp_sso_url,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    audience: sp.entityId,
    idpCert: config.idp_certificate,
    idpIssuer: config.idp_entity_id,
    identifierFormat: null,
    // The assertion itself must carry the identity provider's signature.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    // Only answers to our own requests: no unsolicited (identity provider initiated) logins.
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_SECONDS * 1000,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    cacheProvider: new RequestCache(ctx, starter),
  });
}

/** The identity provider's address carrying a new AuthnRequest (HTTP-Redirect binding); RelayState comes back with the answer. */
export async function loginUrl(ctx: AppContext, orgLogin: string, config: SsoConfigRow, starter: LoginStarter, relayState: string): Promise<string> {
  return samlFor(ctx, orgLogin, config, starter).getAuthorizeUrlAsync(relayState, undefined, {});
}

export interface VerifiedLogin { profile: Profile; inResponseTo: string }

/** Checks a posted SAMLResponse; throws node-saml's error when it is not a valid answer to one of our open requests. */
export async function verifyResponse(ctx: AppContext, orgLogin: string, config: SsoConfigRow, samlResponse: string): Promise<VerifiedLogin> {
  const { profile } = await samlFor(ctx, orgLogin, config, null).validatePostResponseAsync({ SAMLResponse: samlResponse });
  const inResponseTo = typeof profile?.inResponseTo === 'string' ? profile.inResponseTo : null;
  if (!profile || !inResponseTo || !profile.nameID) throw new Error('The response names no user or answers no request');
  // node-saml checks the Issuer of logout messages only: the signed assertion's must be the configured identity provider.
  if (profile.issuer !== config.idp_entity_id) throw new Error(`Unexpected issuer ${String(profile.issuer)}`);
  return { profile, inResponseTo };
}

export function metadataXml(ctx: AppContext, orgLogin: string, config: SsoConfigRow): string {
  return samlFor(ctx, orgLogin, config, null).generateServiceProviderMetadata(null, null);
}
