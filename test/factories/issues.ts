// Builds repositories and issues through the API, as a user of Wharf would.
import type { TestServer } from '../helpers/server.ts';
import { uniqueLogin, type CreatedUser } from './accounts.ts';

export interface CreatedRepo {
  owner: string;
  repo: string;
  id: number;
}

/** A repository of `user` (auto-initialised, public unless asked). */
export async function createRepo(t: TestServer, user: CreatedUser, fields: { name?: string; private?: boolean; org?: string } = {}): Promise<CreatedRepo> {
  const name = fields.name ?? uniqueLogin('repo');
  const kit = t.octokit(user.token);
  const { data } = fields.org
    ? await kit.rest.repos.createInOrg({ org: fields.org, name, private: fields.private ?? false, auto_init: true })
    : await kit.rest.repos.createForAuthenticatedUser({ name, private: fields.private ?? false, auto_init: true });
  return { owner: data.owner.login, repo: data.name, id: data.id };
}

/** An issue in the repository, opened by the token's user. */
export async function createIssue(
  t: TestServer, token: string, r: { owner: string; repo: string },
  fields: { title?: string; body?: string; labels?: string[]; assignees?: string[]; milestone?: number } = {},
) {
  const { data } = await t.octokit(token).rest.issues.create({ owner: r.owner, repo: r.repo, title: fields.title ?? 'An issue', ...fields });
  return data;
}

/** Adds `user` as a collaborator with `permission`, accepting the invitation. */
export async function addCollaborator(t: TestServer, ownerToken: string, r: { owner: string; repo: string }, user: CreatedUser, permission = 'push'): Promise<void> {
  const { data } = await t.octokit(ownerToken).rest.repos.addCollaborator({ owner: r.owner, repo: r.repo, username: user.login, permission });
  if (data) await t.octokit(user.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: data.id });
}
