// A browser without a browser, for the header-level checks of Wharf's pages: fetch with
// a cookie jar, forms posted urlencoded, redirects left to the test. Headless Chromium
// (CHROMIUM below) drives the same pages where a real browser matters.
import fs from 'node:fs';
import { ADMIN_TOKEN, USER_AGENT, type TestServer } from './server.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing = !fs.existsSync(CHROMIUM);
/** A browser's Accept header: pages shared with the API (`/`, raw files, teams) answer HTML to it. */
export const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

export interface WebResponse {
  status: number;
  headers: Headers;
  body: string;
  location: string | null;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  /** A test server, or any Wharf by its address (the reliability suites' child processes). */
  constructor(private readonly t: Pick<TestServer, 'baseUrl'>) {}

  private async send(pathname: string, init: RequestInit): Promise<WebResponse> {
    const headers = new Headers(init.headers);
    headers.set('user-agent', USER_AGENT);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const url = pathname.startsWith('http') ? pathname : `${this.t.baseUrl}${pathname}`;
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, body: await res.text(), location: res.headers.get('location') };
  }

  get(pathname: string, headers: Record<string, string> = {}): Promise<WebResponse> {
    return this.send(pathname, { method: 'GET', headers });
  }

  post(pathname: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<WebResponse> {
    return this.send(pathname, {
      method: 'POST', body: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  }

  /** Signs in through the form; returns the answer to the post. */
  async signIn(login: string, password: string): Promise<WebResponse> {
    const form = await this.get('/login');
    return this.post('/login', { authenticity_token: csrfIn(form.body), login, password });
  }
}

/** The CSRF token of the (first) form of a page. */
export function csrfIn(html: string): string {
  const m = /name="authenticity_token" value="([0-9a-f]{64})"/.exec(html);
  if (!m) throw new Error(`no CSRF token in page:\n${html.slice(0, 500)}`);
  return m[1]!;
}

export async function setPassword(t: TestServer, login: string, password: string): Promise<void> {
  const res = await t.request(`/admin/users/${login}/password`, { method: 'PUT', token: ADMIN_TOKEN, json: { password } });
  if (res.status !== 204) throw new Error(`setting the password failed: ${res.status} ${await res.text()}`);
}

/** A browser session of `login`, given `password` first (the site admin sets it). */
export async function signedInAs(t: TestServer, login: string, password: string): Promise<WebClient> {
  await setPassword(t, login, password);
  const web = new WebClient(t);
  await web.signIn(login, password);
  return web;
}

export interface RegisteredApp { id: number; clientId: string; secret: string; body: string }

/** Registers an OAuth app through the settings form of a signed-in client; the secret is the one shown once. */
export async function registerApp(web: WebClient, fields: Record<string, string>): Promise<RegisteredApp> {
  const form = await web.get('/settings/applications/new');
  const res = await web.post('/settings/applications/new', { authenticity_token: csrfIn(form.body), ...fields });
  if (res.status !== 201) throw new Error(`registering the app failed: ${res.status}\n${res.body.slice(0, 2000)}`);
  const id = Number(/action="\/settings\/applications\/(\d+)"/.exec(res.body)![1]);
  const clientId = /<code id="client-id">([^<]+)</.exec(res.body)![1]!;
  const secret = /<code class="secret" id="client-secret">([0-9a-f]{40})</.exec(res.body)![1]!;
  return { id, clientId, secret, body: res.body };
}

/** A local HTTP server standing in for an app's callback: it records each request's URL. */
export async function startCallbackServer(): Promise<{ url: string; hits: URL[]; next(): Promise<URL>; close(): Promise<void> }> {
  const http = await import('node:http');
  const hits: URL[] = [];
  const waiters: ((u: URL) => void)[] = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    hits.push(u);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p id="callback-done">done</p>');
    waiters.shift()?.(u);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    hits,
    next: () => new Promise<URL>((resolve) => waiters.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Runs the web flow as a signed-in client: authorize (approving when asked), then the
 * code exchange; returns the new token's value.
 */
export async function obtainToken(t: TestServer, client: WebClient, app: RegisteredApp, scope: string): Promise<string> {
  const page = await client.get(`/login/oauth/authorize?${new URLSearchParams({ client_id: app.clientId, scope })}`);
  let location = page.location;
  if (page.status === 200) {
    const fields: Record<string, string> = { authenticity_token: csrfIn(page.body), authorize: '1' };
    for (const m of page.body.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)) {
      if (m[1] !== 'authenticity_token') fields[m[1]!] = m[2]!.replace(/&amp;/g, '&');
    }
    location = (await client.post('/login/oauth/authorize', fields)).location;
  }
  const code = new URL(location!).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  const res = await fetch(`${t.baseUrl}/login/oauth/access_token`, {
    method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json', 'user-agent': USER_AGENT },
    body: JSON.stringify({ client_id: app.clientId, client_secret: app.secret, code }),
  });
  const body = (await res.json()) as { access_token?: string; error?: string };
  if (!body.access_token) throw new Error(`token exchange failed: ${JSON.stringify(body)}`);
  return body.access_token;
}
