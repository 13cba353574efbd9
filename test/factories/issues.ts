// Builds issues (and collaborators) through the API, as a user of Wharf would.
import type { TestServer } from '../helpers/server.ts';
import type { CreatedUser } from './accounts.ts';

// Repositories are built in repos.ts; re-exported for the suites that import them from here.
export { createRepo, type CreatedRepo } from './repos.ts';

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
