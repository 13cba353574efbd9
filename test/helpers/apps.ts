// Apps as their authors drive them: the manifest flow through the settings pages (a
// signed-in WebClient), the code conversion, and app JSON web tokens signed here with
// node:crypto (RS256), as @octokit/auth-app would sign them.
import assert from 'node:assert/strict';
import { createSign } from 'node:crypto';
import type { TestServer } from './server.ts';
import { csrfIn, type WebClient } from './web.ts';

export interface ConvertedApp {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  client_id: string;
  client_secret: string;
  webhook_secret: string | null;
  pem: string;
  owner: { login: string; type: string } | null;
  permissions: Record<string, string>;
  events: string[];
  installations_count: number;
  html_url: string;
}

export function manifestOf(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name, url: 'https://bot.example', redirect_url: 'https://bot.example/created',
    hook_attributes: { url: 'https://bot.example/hook' }, default_permissions: { issues: 'write', contents: 'read' },
    default_events: ['issues'], ...extra,
  };
}

/** Posts the manifest, confirms it on the page, and returns the code from the redirect. */
export async function createFromManifest(web: WebClient, manifest: Record<string, unknown>, path = '/settings/apps/new'): Promise<string> {
  const shown = await web.post(path, { manifest: JSON.stringify(manifest), state: 'st8' });
  assert.equal(shown.status, 200, shown.body.slice(0, 2000));
  const res = await web.post(path, { manifest: JSON.stringify(manifest), state: 'st8', confirm: '1', authenticity_token: csrfIn(shown.body) });
  assert.equal(res.status, 302, res.body.slice(0, 2000));
  const target = new URL(res.location!);
  assert.equal(target.searchParams.get('state'), 'st8');
  return target.searchParams.get('code')!;
}

export async function convert(t: TestServer, code: string): Promise<ConvertedApp> {
  const res = await t.request(`/app-manifests/${code}/conversions`, { method: 'POST' });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as ConvertedApp;
}

export async function registerAppByManifest(t: TestServer, web: WebClient, manifest: Record<string, unknown>, path?: string): Promise<ConvertedApp> {
  return convert(t, await createFromManifest(web, manifest, path));
}

/** An RS256 app JWT; `claims` overrides iss/iat/exp (seconds since the epoch, from `nowMs`). */
export function appJwt(pem: string, iss: number | string, nowMs: number, claims: Record<string, unknown> = {}): string {
  const now = Math.floor(nowMs / 1000);
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc({ iat: now - 60, exp: now + 540, iss, ...claims })}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(pem).toString('base64url')}`;
}

/**
 * The signed-in user authorizes an app (an OAuth app or a GitHub App) in the web flow,
 * or is sent straight back when it did before; returns the code of the redirect.
 */
export async function authorizeCode(web: WebClient, clientId: string, redirectUri: string): Promise<string> {
  const page = await web.get(`/login/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, state: 's1' })}`);
  if (page.status === 302) return new URL(page.location!).searchParams.get('code')!;
  assert.equal(page.status, 200, page.body.slice(0, 500));
  const fields: Record<string, string> = { authenticity_token: csrfIn(page.body), authorize: '1' };
  for (const m of page.body.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)) {
    if (m[1] !== 'authenticity_token') fields[m[1]!] = m[2]!.replace(/&amp;/g, '&');
  }
  const res = await web.post('/login/oauth/authorize', fields);
  assert.equal(res.status, 303, res.body);
  const back = new URL(res.location!);
  assert.equal(back.searchParams.get('state'), 's1');
  return back.searchParams.get('code')!;
}

/** Installs the app on the signed-in user's account with these repositories selected; returns the installation id. */
export async function installOn(web: WebClient, slug: string, repositoryIds: number[]): Promise<number> {
  const page = await web.get(`/apps/${slug}/installations/new`);
  const fields: Record<string, string> = { authenticity_token: csrfIn(page.body), repository_selection: 'selected' };
  for (const id of repositoryIds) fields[`repo_${id}`] = '1';
  const res = await web.post(`/apps/${slug}/installations/new`, fields);
  assert.ok(res.status === 200 || res.status === 201, res.body.slice(0, 500));
  return Number(/id="installation-id">(\d+)</.exec(res.body)![1]);
}
