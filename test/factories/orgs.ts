// Builds organizations, memberships and teams through the API, as a user of Wharf would.
import type { TestServer } from '../helpers/server.ts';
import { createOrg, createUser, uniqueLogin, type CreatedUser } from './accounts.ts';

export interface CreatedOrg {
  login: string;
  id: number;
  /** The user who created the organization: its first owner. */
  owner: CreatedUser;
}

/** A new user and an organization they own. */
export async function createOrgWithOwner(t: TestServer, ownerScopes?: string[]): Promise<CreatedOrg> {
  const owner = await createUser(t, ownerScopes);
  const org = await createOrg(t, owner.login);
  return { ...org, owner };
}

/** A new user made a member (or owner) of the organization by its owner. */
export async function addMember(
  t: TestServer, org: CreatedOrg, role: 'member' | 'admin' = 'member', scopes?: string[],
): Promise<CreatedUser> {
  const user = await createUser(t, scopes);
  await t.octokit(org.owner.token).rest.orgs.setMembershipForUser({ org: org.login, username: user.login, role });
  return user;
}

export interface CreatedTeam {
  id: number;
  slug: string;
  name: string;
}

export async function createTeam(
  t: TestServer, token: string, org: string,
  fields: { name?: string; privacy?: 'secret' | 'closed'; parent_team_id?: number; maintainers?: string[] } = {},
): Promise<CreatedTeam> {
  const { data } = await t.octokit(token).rest.teams.create({ org, name: fields.name ?? uniqueLogin('team'), ...fields });
  return { id: data.id, slug: data.slug, name: data.name };
}
