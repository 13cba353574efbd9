// SQL of the browser sign-in: passwords and sessions.
import type { Executor } from '../../db/database.ts';

export async function findPasswordHash(db: Executor, userId: number): Promise<string | null> {
  const row = await db.selectFrom('user_passwords').select('password_hash').where('user_id', '=', userId).executeTakeFirst();
  return row?.password_hash ?? null;
}

export async function upsertPassword(db: Executor, userId: number, hash: string, now: string): Promise<void> {
  await db.insertInto('user_passwords').values({ user_id: userId, password_hash: hash, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: hash, updated_at: now }))
    .execute();
}

export async function insertSession(db: Executor, userId: number, tokenHash: string, now: string, expiresAt: string): Promise<void> {
  await db.insertInto('web_sessions').values({ user_id: userId, token_hash: tokenHash, created_at: now, expires_at: expiresAt }).execute();
}

const sessionColumns = [
  'web_sessions.id as session_id', 'web_sessions.expires_at', 'users.id as user_id', 'users.login', 'users.site_admin',
  'users.suspended_at',
] as const;

export async function findSession(db: Executor, tokenHash: string) {
  return db.selectFrom('web_sessions').innerJoin('users', 'users.id', 'web_sessions.user_id')
    .select(sessionColumns).where('web_sessions.token_hash', '=', tokenHash).executeTakeFirst();
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteSessionsOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
}

export async function deleteExpiredSessions(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('expires_at', '<=', now).execute();
}
