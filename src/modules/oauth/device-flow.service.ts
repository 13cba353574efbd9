// The device flow (RFC 8628 as upstream runs it): a device asks for a code pair, the
// user enters the short one on /login/device and approves, and the device polls the
// token endpoint with the long one until it gets its token. A GitHub App's client id
// runs the same flow and gets a user-to-server token (no scopes), as the web flow does.
import { randomBytes, randomInt } from 'node:crypto';
import { inTransaction, type AppContext } from '../../context.ts';
import { isoSeconds, nowIso } from '../../domain/clock.ts';
import { formatScopes, parseScopes } from '../../domain/scopes.ts';
import { appsByIds } from '../apps/apps.service.ts';
import * as appUsers from '../apps/user-tokens.service.ts';
import * as auth from '../auth/auth.service.ts';
import { sha256Hex } from '../auth/secrets.ts';
import * as users from '../users/users.service.ts';
import type { OauthApp, TokenOutcome } from './oauth.model.ts';
import { toOauthApp } from './oauth-apps.service.ts';
import { clientOfApp, findClient, requestedScopes, tokenError, userTokenOutcome, type FlowClient } from './oauth-flow.service.ts';
import type { Account } from '../users/users.model.ts';
import * as store from './oauth.store.ts';

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

function clientColumns(client: FlowClient): { oauth_app_id: number | null; app_id: number | null } {
  return client.githubApp ? { oauth_app_id: null, app_id: client.githubApp.id } : { oauth_app_id: client.app.id, app_id: null };
}

/** POST /login/device/code. No client secret: the device flow is for clients that cannot keep one. */
export async function requestDeviceCode(
  ctx: AppContext, input: { client_id?: string; scope?: string },
): Promise<DeviceCodeGrant | TokenOutcome> {
  const client = await findClient(ctx, input.client_id);
  if (!client) return tokenError('incorrect_client_credentials');
  const deviceCode = randomBytes(20).toString('hex');
  const userCode = newUserCode();
  const now = ctx.clock.now();
  await inTransaction(ctx, async (tx) => {
    await store.deleteExpiredDeviceCodes(tx.db, isoSeconds(now));
    await store.insertDeviceCode(tx.db, {
      device_code_hash: sha256Hex(deviceCode), user_code: userCode, ...clientColumns(client),
      // A GitHub App's token holds no scopes: its installations' permissions say what it may do.
      scopes: client.githubApp ? '' : formatScopes(requestedScopes(input.scope)), state: 'pending', user_id: null,
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
  const client = await findClient(ctx, input.client_id);
  if (!client) return tokenError('incorrect_client_credentials');
  if (!input.device_code || input.device_code.length > 200) return tokenError('incorrect_device_code');
  const row = await store.findDeviceCodeByHash(ctx.db, sha256Hex(input.device_code));
  const mine = clientColumns(client);
  if (!row || row.oauth_app_id !== mine.oauth_app_id || row.app_id !== mine.app_id) return tokenError('incorrect_device_code');
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
    if (client.githubApp) return userTokenOutcome(await appUsers.issueUserToken(tx, client.githubApp, approved.user_id));
    const scopes = parseScopes(approved.scopes);
    const issued = await auth.issueToken(tx, { userId: approved.user_id, scopes, kind: 'oauth', oauthAppId: client.app.id });
    return { kind: 'token', accessToken: issued.token, scopes };
  });
}

/** The client a device code belongs to, as the approval page shows it; null when it was deleted. */
async function clientOfRow(ctx: AppContext, row: store.DeviceCodeRow): Promise<OauthApp | null> {
  if (row.app_id !== null) {
    const app = (await appsByIds(ctx, [row.app_id])).get(row.app_id);
    return app ? clientOfApp(app) : null;
  }
  const appRow = row.oauth_app_id === null ? undefined : await auth.findOauthAppById(ctx, row.oauth_app_id);
  return appRow ? toOauthApp(appRow) : null;
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
  const app = await clientOfRow(ctx, row);
  if (!app) return null;
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
    if (approve && row.app_id !== null) await appUsers.recordAuthorization(tx, row.app_id, userId);
    else if (approve && row.oauth_app_id !== null) {
      const previous = await store.findGrant(tx.db, userId, row.oauth_app_id);
      const scopes = [...new Set([...parseScopes(previous?.scopes ?? ''), ...parseScopes(row.scopes)])];
      await store.upsertGrant(tx.db, userId, row.oauth_app_id, formatScopes(scopes), nowIso(tx.clock));
    }
    return true;
  });
}
