// The sso module's SQL: organizations' identity provider settings, members' external
// identities, sent AuthnRequests, SSO sessions of browsers and tokens' authorizations.
import type { Executor } from '../../db/database.ts';

export interface SsoConfigRow {
  org_id: number;
  idp_entity_id: string;
  idp_sso_url: string;
  idp_certificate: string;
  created_at: string;
  updated_at: string;
}

const CONFIG_COLUMNS = ['org_id', 'idp_entity_id', 'idp_sso_url', 'idp_certificate', 'created_at', 'updated_at'] as const;

export async function findConfig(db: Executor, orgId: number): Promise<SsoConfigRow | null> {
  return (await db.selectFrom('org_sso_configs').select(CONFIG_COLUMNS).where('org_id', '=', orgId).executeTakeFirst()) ?? null;
}

export async function upsertConfig(db: Executor, row: SsoConfigRow): Promise<void> {
  await db.insertInto('org_sso_configs').values(row)
    .onConflict((oc) => oc.column('org_id').doUpdateSet({
      idp_entity_id: row.idp_entity_id, idp_sso_url: row.idp_sso_url, idp_certificate: row.idp_certificate, updated_at: row.updated_at,
    }))
    .execute();
}

/** Turns SSO off: the settings, sessions, pending requests and token authorizations go; identities stay for when it is on again. */
export async function deleteConfig(db: Executor, orgId: number): Promise<boolean> {
  await db.deleteFrom('org_sso_token_authorizations').where('org_id', '=', orgId).execute();
  await db.deleteFrom('org_sso_sessions').where('org_id', '=', orgId).execute();
  await db.deleteFrom('org_saml_requests').where('org_id', '=', orgId).execute();
  const r = await db.deleteFrom('org_sso_configs').where('org_id', '=', orgId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Of `orgIds`, those enforcing SSO that have not authorized the token. */
export async function unauthorizedOrgs(db: Executor, tokenId: number, orgIds: readonly number[]): Promise<number[]> {
  const rows = await db.selectFrom('org_sso_configs')
    .leftJoin('org_sso_token_authorizations as a', (j) => j.onRef('a.org_id', '=', 'org_sso_configs.org_id').on('a.token_id', '=', tokenId))
    .select('org_sso_configs.org_id')
    .where('org_sso_configs.org_id', 'in', [...new Set(orgIds)])
    .where('a.id', 'is', null)
    .execute();
  return rows.map((r) => r.org_id);
}

// External identities

export interface IdentityRow { id: number; org_id: number; user_id: number; name_id: string; created_at: string }

export async function findIdentityByName(db: Executor, orgId: number, nameIdKey: string): Promise<IdentityRow | null> {
  return (await db.selectFrom('org_external_identities').select(['id', 'org_id', 'user_id', 'name_id', 'created_at'])
    .where('org_id', '=', orgId).where('name_id_key', '=', nameIdKey).executeTakeFirst()) ?? null;
}

export async function findIdentityOfUser(db: Executor, orgId: number, userId: number): Promise<IdentityRow | null> {
  return (await db.selectFrom('org_external_identities').select(['id', 'org_id', 'user_id', 'name_id', 'created_at'])
    .where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst()) ?? null;
}

export async function insertIdentity(db: Executor, orgId: number, userId: number, nameId: string, now: string): Promise<void> {
  await db.insertInto('org_external_identities')
    .values({ org_id: orgId, user_id: userId, name_id: nameId, name_id_key: nameId.toLowerCase(), created_at: now }).execute();
}

/** Unlinks the user's identity and ends what it opened: SSO sessions and the user's token authorizations. */
export async function deleteIdentityOfUser(db: Executor, orgId: number, userId: number): Promise<void> {
  await db.deleteFrom('org_external_identities').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
  await db.deleteFrom('org_sso_sessions').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
  await db.deleteFrom('org_sso_token_authorizations').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
}

// AuthnRequests (node-saml's InResponseTo cache)

export interface RequestRow { request_id: string; org_id: number; user_id: number; session_hash: string; issued: string; expires_at: string }

/** Forgets requests past their time (an answer to one is refused anyway) and SSO sessions that ended. */
export async function deleteExpired(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('org_saml_requests').where('expires_at', '<=', now).execute();
  await db.deleteFrom('org_sso_sessions').where('expires_at', '<=', now).execute();
}

export async function insertRequest(db: Executor, row: RequestRow): Promise<void> {
  await db.insertInto('org_saml_requests').values({ ...row, consumed_at: null }).execute();
}

/** A request not yet answered and not expired. */
export async function findOpenRequest(db: Executor, requestId: string, now: string): Promise<RequestRow | null> {
  return (await db.selectFrom('org_saml_requests').select(['request_id', 'org_id', 'user_id', 'session_hash', 'issued', 'expires_at'])
    .where('request_id', '=', requestId).where('consumed_at', 'is', null).where('expires_at', '>', now).executeTakeFirst()) ?? null;
}

/** Marks the request answered; false when it already was (a replayed response). The row stays: its id is never accepted again. */
export async function consumeRequest(db: Executor, requestId: string, now: string): Promise<boolean> {
  const r = await db.updateTable('org_saml_requests').set({ consumed_at: now })
    .where('request_id', '=', requestId).where('consumed_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// SSO sessions and token authorizations

export async function upsertSession(db: Executor, sessionHash: string, orgId: number, userId: number, expiresAt: string): Promise<void> {
  await db.insertInto('org_sso_sessions').values({ session_hash: sessionHash, org_id: orgId, user_id: userId, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['session_hash', 'org_id']).doUpdateSet({ user_id: userId, expires_at: expiresAt }))
    .execute();
}

export async function hasSession(db: Executor, sessionHash: string, orgId: number, userId: number, now: string): Promise<boolean> {
  const row = await db.selectFrom('org_sso_sessions').select('org_id')
    .where('session_hash', '=', sessionHash).where('org_id', '=', orgId).where('user_id', '=', userId).where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

export async function authorizeToken(db: Executor, orgId: number, tokenId: number, userId: number, now: string): Promise<void> {
  await db.insertInto('org_sso_token_authorizations').values({ org_id: orgId, token_id: tokenId, user_id: userId, authorized_at: now })
    .onConflict((oc) => oc.columns(['org_id', 'token_id']).doNothing())
    .execute();
}

export interface AuthorizationRow { id: number; token_id: number; user_id: number; authorized_at: string }

export async function listAuthorizations(db: Executor, orgId: number, userId: number | undefined, limit: number, offset: number): Promise<AuthorizationRow[]> {
  let q = db.selectFrom('org_sso_token_authorizations').select(['id', 'token_id', 'user_id', 'authorized_at']).where('org_id', '=', orgId);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  return q.orderBy('id').limit(limit).offset(offset).execute();
}

export async function countAuthorizations(db: Executor, orgId: number, userId: number | undefined): Promise<number> {
  let q = db.selectFrom('org_sso_token_authorizations').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export async function deleteAuthorization(db: Executor, orgId: number, id: number): Promise<boolean> {
  const r = await db.deleteFrom('org_sso_token_authorizations').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
