// SQL of apps acting for users: authorizations, the web flow's codes and the
// user-to-server tokens (hashes only).
import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { AppUserCodesTable, AppUserTokensTable } from '../../db/schema.ts';

export type UserCodeRow = Selectable<AppUserCodesTable>;
export type UserTokenRow = Selectable<AppUserTokensTable>;

export async function isAuthorized(db: Executor, appId: number, userId: number): Promise<boolean> {
  return (await db.selectFrom('app_authorizations').select('app_id').where('app_id', '=', appId).where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}

export async function recordAuthorization(db: Executor, appId: number, userId: number, now: string): Promise<void> {
  await db.insertInto('app_authorizations').values({ app_id: appId, user_id: userId, created_at: now })
    .onConflict((oc) => oc.columns(['app_id', 'user_id']).doNothing()).execute();
}

export async function insertCode(db: Executor, row: UserCodeRow): Promise<void> {
  await db.insertInto('app_user_codes').values(row).execute();
}

/** Takes the code of `appId` away and returns it: one exchange per code, even with parallel tries. */
export async function takeCode(db: Executor, codeHash: string, appId: number): Promise<UserCodeRow | undefined> {
  return db.deleteFrom('app_user_codes').where('code_hash', '=', codeHash).where('app_id', '=', appId).returningAll().executeTakeFirst();
}

export async function deleteExpiredCodes(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('app_user_codes').where('expires_at', '<=', now).execute();
}

export async function insertToken(db: Executor, row: Insertable<AppUserTokensTable>): Promise<UserTokenRow> {
  return db.insertInto('app_user_tokens').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findTokenByHash(db: Executor, hash: string): Promise<UserTokenRow | undefined> {
  return db.selectFrom('app_user_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

/** Takes the token of a refresh token away (of two refreshes at once, one wins). */
export async function takeByRefreshHash(db: Executor, appId: number, hash: string): Promise<UserTokenRow | undefined> {
  return db.deleteFrom('app_user_tokens').where('refresh_token_hash', '=', hash).where('app_id', '=', appId).returningAll().executeTakeFirst();
}

/** Tokens whose access and refresh lives are both over. */
export async function deleteDeadTokens(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('app_user_tokens').where('expires_at', '<=', now)
    .where((eb) => eb.or([eb('refresh_token_expires_at', 'is', null), eb('refresh_token_expires_at', '<=', now)])).execute();
}

/** Gives a live token a new value in place (scope, expiry and refresh token stay); of two resets at once, one wins. */
export async function replaceTokenValue(
  db: Executor, appId: number, oldHash: string, next: { token_hash: string; token_last_eight: string; updated_at: string },
): Promise<UserTokenRow | undefined> {
  return db.updateTable('app_user_tokens').set(next).where('token_hash', '=', oldHash).where('app_id', '=', appId).returningAll().executeTakeFirst();
}

export async function deleteTokenByHash(db: Executor, appId: number, hash: string): Promise<boolean> {
  const res = await db.deleteFrom('app_user_tokens').where('token_hash', '=', hash).where('app_id', '=', appId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The user's grant of the app goes: every token, and the authorization (the web flow asks again). */
export async function deleteGrant(db: Executor, appId: number, userId: number): Promise<void> {
  await db.deleteFrom('app_user_tokens').where('app_id', '=', appId).where('user_id', '=', userId).execute();
  await db.deleteFrom('app_authorizations').where('app_id', '=', appId).where('user_id', '=', userId).execute();
}
