// Builds repositories through the API, as a user of Wharf would.
import type { TestServer } from '../helpers/server.ts';
import { uniqueLogin, type CreatedUser } from './accounts.ts';

export interface CreatedRepo {
  owner: string;
  repo: string;
  id: number;
}

export interface RepoFields {
  name?: string;
  private?: boolean;
  /** Created in this organization instead of the user's account. */
  org?: string;
  /** With a first commit (README) on the default branch; true unless asked. */
  autoInit?: boolean;
}

async function create(t: TestServer, user: CreatedUser, fields: RepoFields) {
  const name = fields.name ?? uniqueLogin('repo');
  const kit = t.octokit(user.token);
  const common = { name, private: fields.private ?? false, auto_init: fields.autoInit ?? true };
  const { data } = fields.org
    ? await kit.rest.repos.createInOrg({ org: fields.org, ...common })
    : await kit.rest.repos.createForAuthenticatedUser(common);
  return data;
}

/** A repository of `user` (auto-initialised, public unless asked). */
export async function createRepo(t: TestServer, user: CreatedUser, fields: RepoFields = {}): Promise<CreatedRepo> {
  const data = await create(t, user, fields);
  return { owner: data.owner.login, repo: data.name, id: data.id };
}

/** An auto-initialised repository with the commit its default branch points at. */
export async function createRepoWithHead(t: TestServer, user: CreatedUser, fields: Omit<RepoFields, 'autoInit'> = {}): Promise<CreatedRepo & { head: string }> {
  const data = await create(t, user, fields);
  const { data: branch } = await t.octokit(user.token).rest.repos.getBranch({ owner: data.owner.login, repo: data.name, branch: data.default_branch });
  return { owner: data.owner.login, repo: data.name, id: data.id, head: branch.commit.sha };
}
