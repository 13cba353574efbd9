// Builds accounts through the API, as a user of Wharf would.
import { ADMIN_TOKEN, type TestServer } from '../helpers/server.ts';

let seq = 0;

export function uniqueLogin(prefix = 'user'): string {
  seq += 1;
  return `${prefix}-${process.pid}-${seq}`;
}

export interface CreatedUser {
  login: string;
  id: number;
  token: string;
}

/** A user with a token holding `scopes` (site admin creates both). */
export async function createUser(t: TestServer, scopes: string[] = ['repo', 'user', 'admin:org'], login = uniqueLogin()): Promise<CreatedUser> {
  const admin = t.octokit(ADMIN_TOKEN);
  const { data: user } = await admin.request('POST /admin/users', { login, email: `${login}@example.com` });
  const { data: auth } = await admin.request('POST /admin/users/{username}/authorizations', { username: login, scopes });
  return { login: user.login, id: user.id, token: auth.token };
}

export async function createOrg(t: TestServer, owner: string, login = uniqueLogin('org')): Promise<{ login: string; id: number }> {
  const admin = t.octokit(ADMIN_TOKEN);
  const { data } = await admin.request('POST /admin/organizations', { login, admin: owner });
  return { login: data.login, id: data.id };
}

/** A further token of user `login` holding `scopes` (site admin creates it). */
export async function createToken(t: TestServer, login: string, scopes: string[]): Promise<string> {
  const { data } = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: login, scopes });
  return data.token as string;
}
