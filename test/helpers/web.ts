// A browser without a browser, for the header-level checks of Wharf's pages: fetch with
// a cookie jar, forms posted urlencoded, redirects left to the test. Headless Chromium
// (CHROMIUM below) drives the same pages where a real browser matters.
import fs from 'node:fs';
import { ADMIN_TOKEN, USER_AGENT, type TestServer } from './server.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing = !fs.existsSync(CHROMIUM);

export interface WebResponse {
  status: number;
  headers: Headers;
  body: string;
  location: string | null;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  constructor(private readonly t: TestServer) {}

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
