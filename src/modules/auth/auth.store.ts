// SQL for credentials: tokens, OAuth apps, failed-login counters.
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { precompile } from '../../db/precompiled.ts';
import type { TokensTable } from '../../db/schema.ts';


const tokenByHash = precompile(1, (db: Executor, hash: string) => db.selectFrom('tokens')
  .innerJoin('users', 'users.id', 'tokens.user_id')
  .select([
    'tokens.id as token_id', 'tokens.scopes', 'tokens.expires_at', 'tokens.last_used_at',
    'users.id as user_id', 'users.login', 'users.site_admin', 'users.suspended_at',
  ])
  .where('tokens.token_hash', '=', hash));

/** A token with its owner: the columns the query above selects. */
export type TokenOwnerRow = Awaited<ReturnType<typeof tokenByHash>>[number];

/** The token with its owner, in one query: the hot path of every authenticated request. */
export async function findTokenByHash(db: Executor, hash: string): Promise<TokenOwnerRow | undefined> {
  return (await tokenByHash(db, hash))[0];
}

export interface NewToken {
  userId: number;
  hash: string;
  lastEight: string;
  scopes: string;
  note: string | null;
  noteUrl: string | null;
  kind: 'personal' | 'impersonation' | 'oauth';
  oauthAppId: number | null;
  expiresAt: string | null;
  now: string;
}


const TOKEN_COLUMNS = [
  'id', 'user_id', 'token_last_eight', 'token_hash', 'scopes', 'note', 'note_url', 'kind', 'expires_at',
  'created_at', 'updated_at',
] as const;

/** A token row as the token routes read it: the columns above. */
export type TokenRow = Pick<Selectable<TokensTable>, (typeof TOKEN_COLUMNS)[number]>;

export async function insertToken(db: Executor, t: NewToken): Promise<TokenRow> {
  return db.insertInto('tokens').values({
    user_id: t.userId,
    token_hash: t.hash,
    token_last_eight: t.lastEight,
    scopes: t.scopes,
    note: t.note,
    note_url: t.noteUrl,
    kind: t.kind,
    oauth_app_id: t.oauthAppId,
    expires_at: t.expiresAt,
    last_used_at: null,
    created_at: t.now,
    updated_at: t.now,
  }).returning(TOKEN_COLUMNS).executeTakeFirstOrThrow();
}

export async function listTokensOfUser(db: Executor, userId: number): Promise<TokenRow[]> {
  return db.selectFrom('tokens').select(TOKEN_COLUMNS).where('user_id', '=', userId).orderBy('id').execute();
}

/** Tokens by id, with when each was last used (what other modules show of a token: never its hash). */
export async function findTokensByIds(db: Executor, ids: readonly number[]): Promise<(Omit<TokenRow, 'token_hash'> & { last_used_at: string | null })[]> {
  if (!ids.length) return [];
  return db.selectFrom('tokens')
    .select(['id', 'user_id', 'token_last_eight', 'scopes', 'note', 'note_url', 'kind', 'expires_at', 'created_at', 'updated_at', 'last_used_at'])
    .where('id', 'in', [...new Set(ids)]).execute();
}

/** A user's personal access tokens as the settings page shows them: never the hash. */
export async function listPersonalTokens(db: Executor, userId: number) {
  return db.selectFrom('tokens')
    .select(['id', 'note', 'scopes', 'token_last_eight', 'expires_at', 'last_used_at', 'created_at'])
    .where('user_id', '=', userId).where('kind', '=', 'personal').orderBy('id', 'desc').execute();
}

export type PersonalTokenRow = Awaited<ReturnType<typeof listPersonalTokens>>[number];

/** Deletes one personal access token of the user; false when the user holds no such token. */
export async function deletePersonalToken(db: Executor, userId: number, id: number): Promise<boolean> {
  const res = await db.deleteFrom('tokens').where('id', '=', id).where('user_id', '=', userId).where('kind', '=', 'personal').executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function deleteTokensOfUser(db: Executor, userId: number, kind?: NewToken['kind']): Promise<number> {
  let q = db.deleteFrom('tokens').where('user_id', '=', userId);
  if (kind) q = q.where('kind', '=', kind);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function deleteToken(db: Executor, id: number): Promise<boolean> {
  const res = await db.deleteFrom('tokens').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function touchToken(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

export interface OauthAppRow {
  id: number;
  owner_id: number;
  name: string;
  url: string | null;
  callback_url: string | null;
  client_id: string;
  client_secret_hash: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export async function findOauthAppByClientId(db: Executor, clientId: string): Promise<OauthAppRow | undefined> {
  return db.selectFrom('oauth_apps').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export async function findOauthAppById(db: Executor, id: number): Promise<OauthAppRow | undefined> {
  return db.selectFrom('oauth_apps').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listOauthAppsOfOwner(db: Executor, ownerId: number): Promise<OauthAppRow[]> {
  return db.selectFrom('oauth_apps').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute();
}

export async function listOauthApps(db: Executor, sinceId: number, limit: number): Promise<OauthAppRow[]> {
  return db.selectFrom('oauth_apps').selectAll().where('id', '>', sinceId).orderBy('id').limit(limit).execute();
}

export type OauthAppChanges = Partial<Pick<OauthAppRow, 'name' | 'url' | 'callback_url' | 'description' | 'client_secret_hash'>>;

export async function updateOauthApp(db: Executor, id: number, changes: OauthAppChanges, now: string): Promise<OauthAppRow | undefined> {
  return db.updateTable('oauth_apps').set({ ...changes, updated_at: now }).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteOauthApp(db: Executor, id: number): Promise<boolean> {
  const res = await db.deleteFrom('oauth_apps').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

const APP_TOKEN_COLUMNS = [...TOKEN_COLUMNS.map((c) => `tokens.${c}` as const), 'tokens.oauth_app_id'] as const;

/** A token an OAuth app obtained, by its hash: null when it is another kind or another app's. */
export async function findAppTokenByHash(db: Executor, appId: number, hash: string): Promise<(TokenRow & { oauth_app_id: number | null }) | undefined> {
  return db.selectFrom('tokens').select(APP_TOKEN_COLUMNS)
    .where('tokens.token_hash', '=', hash).where('tokens.oauth_app_id', '=', appId).executeTakeFirst();
}

export async function deleteAppTokensOfUser(db: Executor, userId: number, appId: number): Promise<number> {
  const res = await db.deleteFrom('tokens').where('user_id', '=', userId).where('oauth_app_id', '=', appId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function insertOauthApp(
  db: Executor, a: Omit<OauthAppRow, 'id'>,
): Promise<OauthAppRow> {
  return db.insertInto('oauth_apps').values(a).returningAll().executeTakeFirstOrThrow();
}

/**
 * Counts one attempt as a failure and returns the window's count with it, in one
 * statement (atomic on both dialects); a window starts at the first failure after the
 * previous one ended.
 */
export async function countAttempt(
  db: Executor, loginLower: string, nowEpoch: number, windowSeconds: number,
): Promise<number> {
  const row = await db.insertInto('login_failures')
    .values({ login_lower: loginLower, failures: 1, window_ends_at: nowEpoch + windowSeconds })
    .onConflict((oc) => oc.column('login_lower').doUpdateSet({
      failures: sql`CASE WHEN login_failures.window_ends_at <= ${nowEpoch} THEN 1 ELSE login_failures.failures + 1 END`,
      window_ends_at: sql`CASE WHEN login_failures.window_ends_at <= ${nowEpoch} THEN ${nowEpoch + windowSeconds} ELSE login_failures.window_ends_at END`,
    }))
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(row.failures);
}

/** Takes back the count of an attempt that turned out to be a correct login. */
export async function forgiveAttempt(db: Executor, loginLower: string): Promise<void> {
  await db.updateTable('login_failures').set({ failures: sql`failures - 1` })
    .where('login_lower', '=', loginLower).where('failures', '>', 0).execute();
}
