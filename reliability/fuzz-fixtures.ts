// The objects the fuzz suite's path parameters resolve to: a user with a token of every
// scope, an organization with a team and a discussion, a public and a private
// repository with a branch, an issue, a pull request, a comment, a label, a milestone,
// a webhook, a release, a deployment and a reaction. Made through the API, as a user
// would, with a generation suffix: when a request the fuzz sent was valid after all and
// removed or renamed one of them, the run makes a fresh set and goes on.

export type Fixtures = Record<string, string>;

export interface Api {
  (method: string, pathname: string, body?: unknown, token?: string): Promise<{ status: number; json: unknown }>;
}

const SCOPES = ['repo', 'user', 'admin:org', 'admin:repo_hook', 'admin:org_hook', 'notifications', 'gist', 'write:discussion', 'read:discussion',
  'repo_deployment', 'delete_repo', 'admin:public_key', 'admin:gpg_key', 'workflow', 'project', 'write:packages', 'site_admin'];

export async function seedFixtures(api: Api, adminToken: string, generation: number): Promise<{ fixtures: Fixtures; token: string }> {
  const ok = async (method: string, pathname: string, body?: unknown, token?: string): Promise<Record<string, any>> => {
    const a = await api(method, pathname, body, token);
    if (a.status < 200 || a.status >= 300) throw new Error(`fixtures: ${method} ${pathname} answered ${a.status}: ${JSON.stringify(a.json).slice(0, 300)}`);
    return (a.json ?? {}) as Record<string, any>;
  };
  const login = `fuzz-user-${generation}`;
  const user = await ok('POST', '/admin/users', { login, email: `${login}@example.com` }, adminToken);
  const auth = await ok('POST', `/admin/users/${login}/authorizations`, { scopes: SCOPES.filter((s) => s !== 'site_admin') }, adminToken);
  const token = String(auth.token);
  const as = (method: string, pathname: string, body?: unknown) => ok(method, pathname, body, token);
  const org = await ok('POST', '/admin/organizations', { login: `fuzz-org-${generation}`, admin: login }, adminToken);
  const team = await as('POST', `/orgs/${org.login}/teams`, { name: 'fuzzers' });
  const discussion = await api('POST', `/orgs/${org.login}/teams/${team.slug}/discussions`, { title: 't', body: 'b' }, token);
  const repo = 'fuzz-public';
  await as('POST', '/user/repos', { name: repo, auto_init: true });
  await as('POST', '/user/repos', { name: 'fuzz-private', private: true, auto_init: true });
  const r = `/repos/${login}/${repo}`;
  const main = await as('GET', `${r}/git/ref/heads/main`);
  const sha = String(main.object.sha);
  await as('POST', `${r}/git/refs`, { ref: 'refs/heads/feature', sha });
  const file = await as('PUT', `${r}/contents/f.txt`, { message: 'f', content: Buffer.from('fuzz\n').toString('base64'), branch: 'feature' });
  const label = await as('POST', `${r}/labels`, { name: 'fuzz-label', color: 'ff0000' });
  const milestone = await as('POST', `${r}/milestones`, { title: 'm1' });
  const issue = await as('POST', `${r}/issues`, { title: 'fuzzed issue', labels: [label.name], milestone: milestone.number });
  const comment = await as('POST', `${r}/issues/${issue.number}/comments`, { body: 'a comment' });
  const pull = await as('POST', `${r}/pulls`, { title: 'fuzzed pull', head: 'feature', base: 'main' });
  const hook = await as('POST', `${r}/hooks`, { config: { url: 'http://127.0.0.1:9/hook' }, events: ['push'] });
  const release = await as('POST', `${r}/releases`, { tag_name: 'v1', target_commitish: 'main' });
  const deployment = await as('POST', `${r}/deployments`, { ref: 'main', required_contexts: [] });
  const reaction = await as('POST', `${r}/issues/${issue.number}/reactions`, { content: 'heart' });
  const key = await api('POST', '/user/keys', { title: 'k', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl fuzz' }, token);
  const fixtures: Fixtures = {
    owner: login, username: login, user: login, login, assignee: login, template_owner: login,
    repo, repo_name: repo, template_repo: repo, private_repo: 'fuzz-private',
    org: String(org.login), org_id: String(org.id), team_slug: String(team.slug), team_id: String(team.id),
    discussion_number: String((discussion.json as { number?: number } | null)?.number ?? 1),
    branch: 'main', ref: 'heads/main', '*': 'main', sha, commit_sha: sha, file_sha: String(file.content?.sha ?? sha), tag_sha: sha,
    issue_number: String(issue.number), number: String(issue.number), pull_number: String(pull.number),
    comment_id: String(comment.id), comment_number: '1', name: String(label.name), milestone_number: String(milestone.number),
    hook_id: String(hook.id), release_id: String(release.id), deployment_id: String(deployment.id), reaction_id: String(reaction.id),
    key_id: String((key.json as { id?: number } | null)?.id ?? 1), id: String(user.id), author_id: String(user.id),
  };
  return { fixtures, token };
}

/** Whether the fixtures are still there as made (the token works, the objects resolve). */
export async function fixturesIntact(api: Api, f: Fixtures, token: string): Promise<string | null> {
  const r = `/repos/${f.owner}/${f.repo}`;
  const checks: [string, string][] = [
    ['token', '/user'], ['public repository', r], ['private repository', `/repos/${f.owner}/${f.private_repo}`],
    ['issue', `${r}/issues/${f.issue_number}`], ['pull request', `${r}/pulls/${f.pull_number}`], ['organization', `/orgs/${f.org}`],
    ['label', `${r}/labels/${f.name}`], ['hook', `${r}/hooks/${f.hook_id}`], ['main', `${r}/git/ref/heads/main`],
  ];
  for (const [what, pathname] of checks) {
    const a = await api('GET', pathname, undefined, token);
    if (a.status !== 200) return `${what} (GET ${pathname} answered ${a.status})`;
  }
  const user = (await api('GET', '/user', undefined, token)).json as { login?: string };
  if (user.login !== f.owner) return `user renamed to ${user.login}`;
  return null;
}
