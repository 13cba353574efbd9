// The device flow (RFC 8628 as upstream runs it): a device asks for a code pair, the
// user enters the short one on /login/device and approves, and the device polls the
// token endpoint with the long one until it gets its token.
import { randomBytes, randomInt } from 'node:crypto';
import { inTransaction, type AppContext } from '../../context.ts';
import { isoSeconds, nowIso } from '../../domain/clock.ts';
import { formatScopes, parseScopes } from '../../domain/scopes.ts';
import * as auth from '../auth/auth.service.ts';
import { sha256Hex } from '../auth/secrets.ts';
import * as users from '../users/users.service.ts';
import type { OauthApp, TokenOutcome } from './oauth.model.ts';
import { toOauthApp } from './oauth-apps.service.ts';
import { requestedScopes, tokenError } from './oauth-flow.service.ts';
import type { Account } from '../users/users.model.ts';
import * as store from './oauth.store.ts';
import { findClientApp } from './public-apps.ts';

export const DEVICE_CODE_TTL_SECONDS = 900;
export const POLL_INTERVAL_SECONDS = 5;
/** slow_down adds this much to the interval, as RFC 8628 § 3.5 says. */
export const SLOW_DOWN_SECONDS = 5;
/** No vowels (no words by accident) and nothing that reads as another letter. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

export interface DeviceCodeGrant {
  device_code: string;
  user_code: string;
  verification_uri: string;
  expires_in: number;
  interval: number;
}

function newUserCode(): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

/** A user code as typed (any case, with or without the dash or spaces) in its stored form, or null. */
export function normalUserCode(raw: string): string | null {
  const s = raw.toUpperCase().replace(/[\s-]/g, '');
  return /^[A-Z]{8}$/.test(s) ? `${s.slice(0, 4)}-${s.slice(4)}` : null;
}

/** POST /login/device/code. No client secret: the device flow is for clients that cannot keep one. */
export async function requestDeviceCode(
  ctx: AppContext, input: { client_id?: string; scope?: string },
): Promise<DeviceCodeGrant | TokenOutcome> {
  const app = await findClientApp(ctx, input.client_id);
  if (!app) return tokenError('incorrect_client_credentials');
  const deviceCode = randomBytes(20).toString('hex');
  const userCode = newUserCode();
  const now = ctx.clock.now();
  await inTransaction(ctx, async (tx) => {
    await store.deleteExpiredDeviceCodes(tx.db, isoSeconds(now));
    await store.insertDeviceCode(tx.db, {
      device_code_hash: sha256Hex(deviceCode), user_code: userCode, oauth_app_id: app.id,
      scopes: formatScopes(requestedScopes(input.scope)), state: 'pending', user_id: null,
      interval_seconds: POLL_INTERVAL_SECONDS, last_polled_at: null,
      expires_at: isoSeconds(new Date(now.getTime() + DEVICE_CODE_TTL_SECONDS * 1000)),
    });
  });
  return {
    device_code: deviceCode, user_code: userCode, verification_uri: ctx.urls.raw('/login/device'),
    expires_in: DEVICE_CODE_TTL_SECONDS, interval: POLL_INTERVAL_SECONDS,
  };
}

/** One poll of the token endpoint with grant_type device_code. */
export async function pollDeviceCode(ctx: AppContext, input: { client_id?: string; device_code?: string }): Promise<TokenOutcome> {
  const app = await findClientApp(ctx, input.client_id);
  if (!app) return tokenError('incorrect_client_credentials');
  if (!input.device_code || input.device_code.length > 200) return tokenError('incorrect_device_code');
  const row = await store.findDeviceCodeByHash(ctx.db, sha256Hex(input.device_code));
  if (!row || row.oauth_app_id !== app.id) return tokenError('incorrect_device_code');
  const nowMs = ctx.clock.now().getTime();
  if (Date.parse(row.expires_at) <= nowMs) {
    await store.deleteDeviceCode(ctx.db, row.id);
    return tokenError('expired_token');
  }
  const last = row.last_polled_at === null ? null : Number(row.last_polled_at);
  if (last !== null && nowMs - last < row.interval_seconds * 1000) {
    const interval = row.interval_seconds + SLOW_DOWN_SECONDS;
    await store.recordPoll(ctx.db, row.id, nowMs, interval);
    return tokenError('slow_down', interval);
  }
  await store.recordPoll(ctx.db, row.id, nowMs, row.interval_seconds);
  if (row.state === 'pending') return tokenError('authorization_pending');
  if (row.state === 'denied') {
    await store.deleteDeviceCode(ctx.db, row.id);
    return tokenError('access_denied');
  }
  return inTransaction(ctx, async (tx) => {
    // Taken away in the same statement that finds it: two polls at once get one token.
    const approved = await store.takeApprovedDeviceCode(tx.db, row.id);
    if (!approved || approved.user_id === null) return tokenError('incorrect_device_code');
    const scopes = parseScopes(approved.scopes);
    const issued = await auth.issueToken(tx, { userId: approved.user_id, scopes, kind: 'oauth', oauthAppId: app.id });
    return { kind: 'token', accessToken: issued.token, scopes };
  });
}

export interface DeviceRequest {
  userCode: string;
  app: OauthApp;
  owner: Account | null;
  scopes: string[];
}

/** The pending request a user code names, or null (unknown, expired, already decided). */
export async function findPendingRequest(ctx: AppContext, rawUserCode: string): Promise<DeviceRequest | null> {
  const userCode = normalUserCode(rawUserCode);
  const row = userCode ? await store.findDeviceCodeByUserCode(ctx.db, userCode) : undefined;
  if (!row || row.state !== 'pending' || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) return null;
  const appRow = await auth.findOauthAppById(ctx, row.oauth_app_id);
  if (!appRow) return null;
  const app = toOauthApp(appRow);
  const owner = (await users.accountsByIds(ctx, [app.ownerId])).get(app.ownerId) ?? null;
  return { userCode: row.user_code, app, owner, scopes: parseScopes(row.scopes) };
}

/** The signed-in user approves or denies the device's request; false when it was no longer pending. */
export async function decide(ctx: AppContext, userId: number, rawUserCode: string, approve: boolean): Promise<boolean> {
  const pending = await findPendingRequest(ctx, rawUserCode);
  if (!pending) return false;
  return inTransaction(ctx, async (tx) => {
    const row = await store.findDeviceCodeByUserCode(tx.db, pending.userCode);
    if (!row || !await store.decideDeviceCode(tx.db, row.id, approve ? 'approved' : 'denied', userId)) return false;
    if (approve) {
      const previous = await store.findGrant(tx.db, userId, row.oauth_app_id);
      const scopes = [...new Set([...parseScopes(previous?.scopes ?? ''), ...parseScopes(row.scopes)])];
      await store.upsertGrant(tx.db, userId, row.oauth_app_id, formatScopes(scopes), nowIso(tx.clock));
    }
    return true;
  });
}
