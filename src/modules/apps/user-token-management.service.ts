// What an app does with its user-to-server tokens once it holds them (check, reset,
// delete, revoke the grant): the oauth module's /applications/{client_id}/token routes
// call these when the client id is a GitHub App's, after authenticating the app.
import { inTransaction, type AppContext } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import { newUserToServerToken, sha256Hex } from '../auth/secrets.ts';
import type { App } from './apps.model.ts';
import { findLiveToken, toRecord, type UserTokenRecord } from './user-tokens.service.ts';
import * as store from './user-tokens.store.ts';

/** The live token of the app (unknown, expired, revoked or another app's: null). */
async function liveTokenOf(ctx: AppContext, app: App, token: string): Promise<UserTokenRecord | null> {
  const record = await findLiveToken(ctx, token);
  return record && record.appId === app.id ? record : null;
}

export function checkUserToken(ctx: AppContext, app: App, token: string): Promise<UserTokenRecord | null> {
  return liveTokenOf(ctx, app, token);
}

/** A new value for the token (same user, scope and expiry); the old value stops working at once. */
export async function resetUserToken(ctx: AppContext, app: App, token: string): Promise<{ token: string; record: UserTokenRecord } | null> {
  if (!await liveTokenOf(ctx, app, token)) return null;
  const next = newUserToServerToken();
  const row = await store.replaceTokenValue(ctx.db, app.id, sha256Hex(token), {
    token_hash: sha256Hex(next), token_last_eight: next.slice(-8), updated_at: nowIso(ctx.clock),
  });
  return row ? { token: next, record: toRecord(row) } : null;
}

export async function deleteUserToken(ctx: AppContext, app: App, token: string): Promise<boolean> {
  if (!await liveTokenOf(ctx, app, token)) return false;
  return store.deleteTokenByHash(ctx.db, app.id, sha256Hex(token));
}

/** Revokes the grant of the token's user: all of that user's tokens for the app, and the authorization. */
export async function revokeUserGrant(ctx: AppContext, app: App, token: string): Promise<boolean> {
  const record = await liveTokenOf(ctx, app, token);
  if (!record) return false;
  await inTransaction(ctx, (tx) => store.deleteGrant(tx.db, app.id, record.userId));
  return true;
}
