// The token endpoint's answer in the form the Accept header asks for, as upstream:
// JSON, XML, or (by default) form-urlencoded; errors are in the body with HTTP 200.
import { escapeHtml } from '../web-session/html.ts';
import type { TokenOutcome } from './oauth.model.ts';

export type TokenFormat = 'json' | 'xml' | 'form';

export function tokenFormatOf(accept: string | undefined): TokenFormat {
  const a = (accept ?? '').toLowerCase();
  if (a.includes('application/json')) return 'json';
  if (a.includes('application/xml') || a.includes('text/xml')) return 'xml';
  return 'form';
}

const DEVICE_ERRORS = new Set(['authorization_pending', 'slow_down', 'expired_token', 'access_denied', 'incorrect_device_code']);

function errorUri(error: string): string {
  return DEVICE_ERRORS.has(error)
    ? 'https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow'
    : `https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#${error.replace(/_/g, '-')}`;
}

/** The fields of the answer, in upstream's order. */
export function tokenFields(outcome: TokenOutcome): Record<string, string | number> {
  if (outcome.kind === 'token') {
    // Upstream lists the scopes comma-separated without spaces here.
    const e = outcome.expiry;
    const expiring: Record<string, string | number> = e ? { expires_in: e.expiresIn, refresh_token: e.refreshToken, refresh_token_expires_in: e.refreshTokenExpiresIn } : {};
    return { access_token: outcome.accessToken, ...expiring, token_type: 'bearer', scope: outcome.scopes.join(',') };
  }
  return {
    error: outcome.error, error_description: outcome.description, error_uri: errorUri(outcome.error),
    ...(outcome.interval !== undefined ? { interval: outcome.interval } : {}),
  };
}

export function renderFields(fields: Record<string, string | number>, format: TokenFormat): { type: string; body: string } {
  if (format === 'json') return { type: 'application/json; charset=utf-8', body: JSON.stringify(fields) };
  if (format === 'xml') {
    const inner = Object.entries(fields).map(([k, v]) => `<${k}>${escapeHtml(String(v))}</${k}>`).join('');
    return { type: 'application/xml; charset=utf-8', body: `<OAuth>${inner}</OAuth>` };
  }
  return {
    type: 'application/x-www-form-urlencoded; charset=utf-8',
    body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString(),
  };
}
