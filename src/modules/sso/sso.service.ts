// SAML single sign-on for organizations: an owner sets the identity provider; members
// sign in there (linking their NameID as the organization's external identity of their
// Wharf account) and authorize their tokens for the organization. The enforcement on
// every organization resource is orgs.sso-gate, fed by `refusals` below.
import { X509Certificate } from 'node:crypto';
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, type Actor } from '../../domain/actor.ts';
import { isoSeconds, nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import * as auth from '../auth/auth.service.ts';
import { sha256Hex } from '../auth/secrets.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import * as users from '../users/users.service.ts';
import type { OrgSso, ProvisionedLink, SsoSettings } from './sso.model.ts';
import { loginUrl, metadataXml, verifyResponse } from './sso.saml.ts';
import * as store from './sso.store.ts';

declare module '../../events/bus.ts' {
  interface Providers {
    /** The scim module's: links a provisioned identity (userName = NameID) to the account signing in. */
    scimIdentityLink: (ctx: AppContext, orgId: number, nameId: string, userId: number) => Promise<ProvisionedLink>;
  }
}

/** How long a sign-in at the identity provider lets the browser authorize tokens for the organization. */
export const SSO_SESSION_SECONDS = 24 * 60 * 60;

function settingsOf(row: store.SsoConfigRow): SsoSettings {
  return {
    idpEntityId: row.idp_entity_id, idpSsoUrl: row.idp_sso_url, idpCertificate: row.idp_certificate,
    certificateFingerprint: new X509Certificate(row.idp_certificate).fingerprint256,
    createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

/** Whether the organization uses SAML single sign-on. */
export async function ssoEnabled(ctx: AppContext, orgId: number): Promise<boolean> {
  return (await store.findConfig(ctx.db, orgId)) !== null;
}

async function requireOwnedOrg(ctx: AppContext, actor: Actor, orgLogin: string): Promise<Organization> {
  requireScope(actor, ...orgs.SCOPES.admin);
  const org = await orgs.requireOrganization(ctx, orgLogin);
  await orgs.requireOrgOwner(ctx, actor, org);
  return org;
}

export async function getSso(ctx: AppContext, actor: Actor, orgLogin: string): Promise<OrgSso> {
  const org = await requireOwnedOrg(ctx, actor, orgLogin);
  const row = await store.findConfig(ctx.db, org.account.id);
  return { org, settings: row ? settingsOf(row) : null };
}

export interface SsoInput { idp_entity_id: string; sso_url: string; certificate: string }

/** A PEM certificate from PEM text or its bare base64 body (as metadata files carry it); null when it is not one. */
function certificatePem(raw: string): string | null {
  const body = raw.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+=*$/.test(body)) return null;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return null;
  }
}

function checkInput(input: SsoInput): { entityId: string; url: string; pem: string } {
  const errors: ValidationError['errors'] = [];
  const entityId = input.idp_entity_id.trim();
  if (!entityId) errors.push({ resource: 'SamlSso', field: 'idp_entity_id', code: 'missing_field' });
  let url: URL | null = null;
  try { url = new URL(input.sso_url); } catch { /* reported below */ }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    errors.push({ resource: 'SamlSso', field: 'sso_url', code: 'invalid', message: 'sso_url must be an http or https URL' });
  }
  const pem = certificatePem(input.certificate);
  if (!pem) errors.push({ resource: 'SamlSso', field: 'certificate', code: 'invalid', message: 'certificate must be an X.509 certificate (PEM or base64)' });
  if (errors.length) throw new ValidationError(errors);
  return { entityId, url: url!.toString(), pem: pem! };
}

/** Turns SSO on (or replaces the identity provider's settings). */
export async function setSso(ctx: AppContext, actor: Actor, orgLogin: string, input: SsoInput): Promise<OrgSso> {
  const org = await requireOwnedOrg(ctx, actor, orgLogin);
  const { entityId, url, pem } = checkInput(input);
  const now = nowIso(ctx.clock);
  await store.upsertConfig(ctx.db, { org_id: org.account.id, idp_entity_id: entityId, idp_sso_url: url, idp_certificate: pem, created_at: now, updated_at: now });
  return { org, settings: settingsOf((await store.findConfig(ctx.db, org.account.id))!) };
}

/** Turns SSO off; linked identities are kept for when it is turned on again. */
export async function removeSso(ctx: AppContext, actor: Actor, orgLogin: string): Promise<void> {
  const org = await requireOwnedOrg(ctx, actor, orgLogin);
  if (!(await inTransaction(ctx, (tx) => store.deleteConfig(tx.db, org.account.id)))) throw new NotFoundError();
}

async function requireConfig(ctx: AppContext, orgLogin: string): Promise<{ org: Organization; config: store.SsoConfigRow }> {
  const org = await orgs.requireOrganization(ctx, orgLogin);
  const config = await store.findConfig(ctx.db, org.account.id);
  if (!config) throw new NotFoundError();
  return { org, config };
}

/** An organization that uses SAML single sign-on (404 otherwise). */
export async function getSsoOrganization(ctx: AppContext, orgLogin: string): Promise<Organization> {
  return (await requireConfig(ctx, orgLogin)).org;
}

export async function serviceProviderMetadata(ctx: AppContext, orgLogin: string): Promise<string> {
  const { org, config } = await requireConfig(ctx, orgLogin);
  return metadataXml(ctx, org.account.login, config);
}

/** The browser signed in on Wharf's pages (user and its session cookie's value). */
export interface Browser { userId: number; sessionToken: string }

/** Starts a login at the identity provider for the signed-in browser: the address to send it to. */
export async function startLogin(ctx: AppContext, browser: Browser, orgLogin: string, relayState: string): Promise<string> {
  const { org, config } = await requireConfig(ctx, orgLogin);
  return loginUrl(ctx, org.account.login, config, { orgId: org.account.id, userId: browser.userId, sessionHash: sha256Hex(browser.sessionToken) }, relayState);
}

export class SamlRejectedError extends ForbiddenError {}

/** Whether the browser signed in at the organization's identity provider recently (and may authorize tokens). */
export async function hasSsoSession(ctx: AppContext, browser: Browser, orgId: number): Promise<boolean> {
  return store.hasSession(ctx.db, sha256Hex(browser.sessionToken), orgId, browser.userId, nowIso(ctx.clock));
}

/**
 * The identity provider's answer (the assertion consumer service): a valid, signed,
 * unexpired answer to one of our open requests, used once, links its NameID to the
 * account that started the login and opens an SSO session for that browser.
 */
export async function completeLogin(ctx: AppContext, orgLogin: string, samlResponse: string): Promise<{ org: Organization; userId: number }> {
  const { org, config } = await requireConfig(ctx, orgLogin);
  let verified;
  try {
    verified = await verifyResponse(ctx, org.account.login, config, samlResponse);
  } catch (err) {
    ctx.log.info({ err, org: org.account.login }, 'SAML response refused');
    throw new SamlRejectedError('The identity provider\'s response could not be verified.');
  }
  const now = nowIso(ctx.clock);
  return inTransaction(ctx, async (tx) => {
    const request = await store.findOpenRequest(tx.db, verified.inResponseTo, now);
    // A second use of the same response (replay), or an answer to another organization's request.
    if (!request || request.org_id !== org.account.id || !(await store.consumeRequest(tx.db, request.request_id, now))) {
      throw new SamlRejectedError('This sign-in response was already used or does not answer a request of this organization.');
    }
    await linkIdentity(tx, org.account.id, request.user_id, verified.profile.nameID, now);
    const expires = isoSeconds(new Date(tx.clock.now().getTime() + SSO_SESSION_SECONDS * 1000));
    await store.upsertSession(tx.db, request.session_hash, org.account.id, request.user_id, expires);
    return { org, userId: request.user_id };
  });
}

async function linkIdentity(ctx: AppContext, orgId: number, userId: number, nameId: string, now: string): Promise<void> {
  const key = nameId.toLowerCase();
  const byName = await store.findIdentityByName(ctx.db, orgId, key);
  if (byName && byName.user_id !== userId) throw new SamlRejectedError('This identity is linked to another account of the organization.');
  const mine = await store.findIdentityOfUser(ctx.db, orgId, userId);
  if (mine && mine.name_id.toLowerCase() !== key) throw new SamlRejectedError('Your account is linked to another identity of this organization.');
  const link = ctx.bus.provider('scimIdentityLink');
  const provisioned = link ? await link(ctx, orgId, nameId, userId) : 'none';
  if (provisioned === 'taken') throw new SamlRejectedError('This provisioned identity belongs to another account.');
  // A provisioned identity is the invitation: signing in accepts it.
  if (provisioned === 'linked') await orgs.admitMember(ctx, orgId, userId, userId);
  else if (!(await orgs.isActiveMember(ctx, orgId, userId))) throw new SamlRejectedError('You are not a member of this organization.');
  if (!mine) await store.insertIdentity(ctx.db, orgId, userId, nameId, now);
}

/** The token the browser's user asks to authorize, if it is theirs. */
export async function requireOwnToken(ctx: AppContext, browser: Browser, tokenId: number): Promise<{ id: number; lastEight: string; note: string | null }> {
  const token = (await auth.tokensByIds(ctx, [tokenId])).get(tokenId);
  if (!token || token.user_id !== browser.userId) throw new NotFoundError();
  return { id: token.id, lastEight: token.token_last_eight, note: token.note };
}

/** Authorizes the user's token for the organization; needs a recent sign-in at its identity provider from this browser. */
export async function authorizeToken(ctx: AppContext, browser: Browser, orgLogin: string, tokenId: number): Promise<Organization> {
  const { org } = await requireConfig(ctx, orgLogin);
  await requireOwnToken(ctx, browser, tokenId);
  if (!(await hasSsoSession(ctx, browser, org.account.id))) throw new ForbiddenError('Sign in through the organization\'s single sign-on first.');
  await store.authorizeToken(ctx.db, org.account.id, tokenId, browser.userId, nowIso(ctx.clock));
  return org;
}

/** Where a refused token is sent: the organization's SSO page, which authorizes it after a sign-in there. */
export function authorizationUrl(ctx: AppContext, orgLogin: string, tokenId: number): string {
  return `${ctx.urls.api('orgs', orgLogin, 'sso')}?authorization_request=${tokenId}`;
}

/** For orgs.sso-gate: of `orgIds`, those enforcing SSO that have not authorized the token, with where to authorize it. */
export async function refusals(ctx: AppContext, tokenId: number, orgIds: readonly number[]): Promise<Map<number, string>> {
  const ids = await store.unauthorizedOrgs(ctx.db, tokenId, orgIds);
  if (!ids.length) return new Map();
  const accounts = await users.accountsByIds(ctx, ids);
  return new Map(ids.flatMap((id) => {
    const a = accounts.get(id);
    return a ? [[id, authorizationUrl(ctx, a.login, tokenId)] as const] : [];
  }));
}

/** The account whose external identity in the organization is `nameId`, if one is linked. */
export async function userOfIdentity(ctx: AppContext, orgId: number, nameId: string): Promise<number | null> {
  return (await store.findIdentityByName(ctx.db, orgId, nameId.toLowerCase()))?.user_id ?? null;
}

/** Removes the user's external identity in the organization (deprovisioning), with their SSO sessions and token authorizations. */
export async function unlinkIdentity(ctx: AppContext, orgId: number, userId: number): Promise<void> {
  await store.deleteIdentityOfUser(ctx.db, orgId, userId);
}
