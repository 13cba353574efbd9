// SQL for credentials: tokens, OAuth apps, failed-login counters.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { precompile } from '../../db/precompiled.ts';

export interface TokenOwnerRow {
  token_id: number;
  scopes: string;
  expires_at: string | null;
  last_used_at: string | null;
  user_id: number;
  login: string;
  site_admin: number;
  suspended_at: string | null;
}

const tokenByHash = precompile(1, (db: Executor, hash: string) => db.selectFrom('tokens')
  .innerJoin('users', 'users.id', 'tokens.user_id')
  .select([
    'tokens.id as token_id', 'tokens.scopes', 'tokens.expires_at', 'tokens.last_used_at',
    'users.id as user_id', 'users.login', 'users.site_admin', 'users.suspended_at',
  ])
  .where('tokens.token_hash', '=', hash));

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

export interface TokenRow {
  id: number;
  user_id: number;
  token_last_eight: string;
  token_hash: string;
  scopes: string;
  note: string | null;
  note_url: string | null;
  kind: string;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

const TOKEN_COLUMNS = [
  'id', 'user_id', 'token_last_eight', 'token_hash', 'scopes', 'note', 'note_url', 'kind', 'expires_at',
  'created_at', 'updated_at',
] as const;

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

export async function deleteTokensOfUser(db: Executor, userId: number, kind?: NewToken['kind']): Promise<number> {
  let q = db.deleteFrom('tokens').where('user_id', '=', userId);
  if (kind) q = q.where('kind', '=', kind);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function deleteToken(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('tokens').where('id', '=', id).execute();
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
  created_at: string;
  updated_at: string;
}

export async function findOauthAppByClientId(db: Executor, clientId: string): Promise<OauthAppRow | undefined> {
  return db.selectFrom('oauth_apps').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export async function insertOauthApp(
  db: Executor, a: Omit<OauthAppRow, 'id'>,
): Promise<OauthAppRow> {
  return db.insertInto('oauth_apps').values(a).returningAll().executeTakeFirstOrThrow();
}

/** Failed Basic logins in the current window, or 0 when the window has passed. */
export async function failuresInWindow(db: Executor, loginLower: string, nowEpoch: number): Promise<number> {
  const row = await db.selectFrom('login_failures').select(['failures', 'window_ends_at'])
    .where('login_lower', '=', loginLower).executeTakeFirst();
  return row && Number(row.window_ends_at) > nowEpoch ? row.failures : 0;
}

/** Counts one failure; a window starts at the first failure after the previous one ended. */
export async function recordFailure(
  db: Executor, loginLower: string, nowEpoch: number, windowSeconds: number,
): Promise<void> {
  await db.insertInto('login_failures')
    .values({ login_lower: loginLower, failures: 1, window_ends_at: nowEpoch + windowSeconds })
    .onConflict((oc) => oc.column('login_lower').doUpdateSet({
      failures: sql`CASE WHEN login_failures.window_ends_at <= ${nowEpoch} THEN 1 ELSE login_failures.failures + 1 END`,
      window_ends_at: sql`CASE WHEN login_failures.window_ends_at <= ${nowEpoch} THEN ${nowEpoch + windowSeconds} ELSE login_failures.window_ends_at END`,
    }))
    .execute();
}
