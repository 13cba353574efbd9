// SQL of the OAuth flows: grants (what a user approved for an app), authorization
// codes and device codes. Codes are stored as hashes only.
import type { Executor } from '../../db/database.ts';
import type { OauthCodesTable, OauthDeviceCodesTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';

export async function findGrant(db: Executor, userId: number, appId: number): Promise<{ scopes: string } | undefined> {
  return db.selectFrom('oauth_grants').select('scopes').where('user_id', '=', userId).where('oauth_app_id', '=', appId).executeTakeFirst();
}

export async function upsertGrant(db: Executor, userId: number, appId: number, scopes: string, now: string): Promise<void> {
  await db.insertInto('oauth_grants').values({ user_id: userId, oauth_app_id: appId, scopes, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'oauth_app_id']).doUpdateSet({ scopes, updated_at: now }))
    .execute();
}

export async function deleteGrant(db: Executor, userId: number, appId: number): Promise<number> {
  const res = await db.deleteFrom('oauth_grants').where('user_id', '=', userId).where('oauth_app_id', '=', appId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

export interface GrantRow { oauth_app_id: number; scopes: string; created_at: string; updated_at: string }

export async function listGrantsOfUser(db: Executor, userId: number): Promise<GrantRow[]> {
  return db.selectFrom('oauth_grants').select(['oauth_app_id', 'scopes', 'created_at', 'updated_at'])
    .where('user_id', '=', userId).orderBy('id').execute();
}

export async function insertCode(db: Executor, code: Selectable<OauthCodesTable>): Promise<void> {
  await db.insertInto('oauth_codes').values(code).execute();
}

/** Takes the code of `appId` away and returns it: a code is good for one exchange, even with parallel tries. */
export async function takeCode(db: Executor, codeHash: string, appId: number): Promise<Selectable<OauthCodesTable> | undefined> {
  return db.deleteFrom('oauth_codes').where('code_hash', '=', codeHash).where('oauth_app_id', '=', appId)
    .returningAll().executeTakeFirst();
}

export async function deleteExpiredCodes(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('oauth_codes').where('expires_at', '<=', now).execute();
}

export type DeviceCodeRow = Selectable<OauthDeviceCodesTable>;

export async function insertDeviceCode(db: Executor, row: Omit<DeviceCodeRow, 'id'>): Promise<void> {
  await db.insertInto('oauth_device_codes').values(row).execute();
}

export async function findDeviceCodeByHash(db: Executor, hash: string): Promise<DeviceCodeRow | undefined> {
  return db.selectFrom('oauth_device_codes').selectAll().where('device_code_hash', '=', hash).executeTakeFirst();
}

export async function findDeviceCodeByUserCode(db: Executor, userCode: string): Promise<DeviceCodeRow | undefined> {
  return db.selectFrom('oauth_device_codes').selectAll().where('user_code', '=', userCode).executeTakeFirst();
}

/** Records a poll's time and the interval the device must keep from now on (raised by slow_down). */
export async function recordPoll(db: Executor, id: number, nowMs: number, intervalSeconds: number): Promise<void> {
  await db.updateTable('oauth_device_codes').set({ last_polled_at: nowMs, interval_seconds: intervalSeconds }).where('id', '=', id).execute();
}

/** Decides a pending device code (approve or deny) once: false when it was no longer pending. */
export async function decideDeviceCode(db: Executor, id: number, state: 'approved' | 'denied', userId: number): Promise<boolean> {
  const res = await db.updateTable('oauth_device_codes').set({ state, user_id: userId })
    .where('id', '=', id).where('state', '=', 'pending').executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Takes an approved device code away (its token is issued once). */
export async function takeApprovedDeviceCode(db: Executor, id: number): Promise<DeviceCodeRow | undefined> {
  return db.deleteFrom('oauth_device_codes').where('id', '=', id).where('state', '=', 'approved').returningAll().executeTakeFirst();
}

export async function deleteDeviceCode(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('oauth_device_codes').where('id', '=', id).execute();
}

export async function deleteExpiredDeviceCodes(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('oauth_device_codes').where('expires_at', '<=', now).execute();
}
