// Browser sign-in: passwords, server-side sessions, CSRF tokens. A password only ever
// opens a session on Wharf's pages; the API and git take tokens only.
import { createHmac, randomBytes } from 'node:crypto';
import { inTransaction, type AppContext } from '../../context.ts';
import type { ActorUser } from '../../domain/actor.ts';
import { isoSeconds, nowIso } from '../../domain/clock.ts';
import { BadCredentialsError, ForbiddenError, ValidationError } from '../../domain/errors.ts';
import * as auth from '../auth/auth.service.ts';
import { hashesEqual, sha256Hex } from '../auth/secrets.ts';
import * as users from '../users/users.service.ts';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import * as store from './web-session.store.ts';

/** A session lasts this long from sign-in; signing out or a password change ends it sooner. */
export const SESSION_SECONDS = 14 * 24 * 60 * 60;

export interface WebSession {
  /** The cookie's value; only its hash is stored. */
  token: string;
  user: ActorUser;
}

function checkNewPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw ValidationError.field('User', 'password', 'invalid', problem);
}

/**
 * Sets the password of a user account (site admin, CLI, the user's settings page) and
 * ends every session of the account: whoever was signed in with the old one is out.
 */
export async function setPassword(ctx: AppContext, userId: number, password: string): Promise<void> {
  checkNewPassword(password);
  const hash = await hashPassword(password);
  await inTransaction(ctx, async (tx) => {
    await store.upsertPassword(tx.db, userId, hash, nowIso(tx.clock));
    await store.deleteSessionsOfUser(tx.db, userId);
  });
}

async function openSession(ctx: AppContext, user: ActorUser): Promise<WebSession> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await store.insertSession(ctx.db, user.id, sha256Hex(token), isoSeconds(now), isoSeconds(new Date(now.getTime() + SESSION_SECONDS * 1000)));
  return { token, user };
}

/**
 * Checks a login and password and opens a session. Attempts count towards the same
 * lockout as Basic logins to the API (auth.countLoginAttempt).
 */
export async function signIn(ctx: AppContext, login: string, password: string): Promise<WebSession> {
  if (!login || !password) throw new BadCredentialsError();
  if (!await auth.countLoginAttempt(ctx, login)) throw new ForbiddenError(auth.LOCKED_OUT_MESSAGE);
  const account = await users.findAccount(ctx, login);
  const user = account?.type === 'User' ? account : null;
  const stored = user ? await store.findPasswordHash(ctx.db, user.id) : null;
  // Checked even without an account or a password, so the time taken does not tell which.
  const ok = await verifyPassword(password, stored);
  if (!ok || !user) throw new BadCredentialsError();
  if (user.suspendedAt) throw new ForbiddenError('Sorry. Your account was suspended.');
  await auth.forgiveLoginAttempt(ctx, login);
  return openSession(ctx, { id: user.id, login: user.login, siteAdmin: user.siteAdmin });
}

/** The live session a cookie names, or null (unknown, expired, or its account suspended). */
export async function sessionFor(ctx: AppContext, token: string | null): Promise<WebSession | null> {
  if (!token || token.length > 200) return null;
  const row = await store.findSession(ctx.db, sha256Hex(token));
  if (!row) return null;
  if (Date.parse(row.expires_at) <= ctx.clock.now().getTime() || row.suspended_at) return null;
  return { token, user: { id: row.user_id, login: row.login, siteAdmin: row.site_admin === 1 } };
}

export async function signOut(ctx: AppContext, token: string | null): Promise<void> {
  if (token) await store.deleteSession(ctx.db, sha256Hex(token));
  await store.deleteExpiredSessions(ctx.db, nowIso(ctx.clock));
}

/** Changes the signed-in user's own password: every session ends, and this browser gets a new one. */
export async function changeOwnPassword(ctx: AppContext, session: WebSession, current: string, next: string): Promise<WebSession> {
  checkNewPassword(next);
  const stored = await store.findPasswordHash(ctx.db, session.user.id);
  if (!await verifyPassword(current, stored)) {
    throw ValidationError.field('User', 'current_password', 'invalid', 'Current password is incorrect.');
  }
  await setPassword(ctx, session.user.id, next);
  return openSession(ctx, session.user);
}

/**
 * The CSRF token of a signed-in browser: derived from its session, so it needs no
 * storage and dies with the session. Before sign-in, the login form uses a random
 * value kept in a cookie of its own (anonymousCsrf).
 */
export function csrfTokenOf(session: WebSession): string {
  return createHmac('sha256', session.token).update('wharf-csrf').digest('hex');
}

export function newAnonymousCsrf(): string {
  return randomBytes(32).toString('hex');
}

/** Constant-time comparison of a submitted CSRF token with the expected one. */
export function csrfMatches(expected: string | null, submitted: unknown): boolean {
  if (!expected || typeof submitted !== 'string' || !/^[0-9a-f]{64}$/.test(submitted) || !/^[0-9a-f]{64}$/.test(expected)) return false;
  return hashesEqual(expected, submitted);
}
