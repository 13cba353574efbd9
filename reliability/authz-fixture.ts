// The world the authorization matrix runs in: Wharf in-process (authorization is the
// app's own code, the route table is the app's), on SQLite or a fresh PostgreSQL
// schema; a user and an organization, each with a private and a public repository
// holding one of each thing the routes name (issue, pull request, comment, label,
// milestone, release, hook, deployment, ...); and the actors who ask.
import { startTestServer, type TestServer } from '../test/helpers/server.ts';
import { createOrg, createToken, createUser, type CreatedUser } from '../test/factories/accounts.ts';
import { addCollaborator } from '../test/factories/issues.ts';
import { appJwt, manifestOf, registerAppByManifest } from '../test/helpers/apps.ts';
import { csrfIn, signedInAs } from '../test/helpers/web.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Role = 'pull' | 'triage' | 'push' | 'maintain' | 'admin';
export const COLLABORATOR_ROLES: readonly Role[] = ['pull', 'triage', 'push', 'maintain', 'admin'];

/** Who asks. `kind` says how the expectation treats them. */
export interface Actor {
  name: string;
  kind: 'owner' | 'collaborator' | 'org-member' | 'outsider' | 'anonymous' | 'no-scope' | 'installation';
  /** The collaborator's role on the organization's repositories (on the user's: push, the only one there). */
  role?: Role;
  token: string | null;
}

export interface FixtureRepo {
  key: string;
  owner: string;
  repo: string;
  id: number;
  private: boolean;
  orgOwned: boolean;
  /** Values of the route parameters inside this repository. */
  params: Record<string, string>;
  /** node_id of each object of the repository, for GraphQL node(id:). */
  nodes: Record<string, string>;
}

export interface Fixture {
  t: TestServer;
  owner: CreatedUser;
  org: string;
  actors: Actor[];
  repos: FixtureRepo[];
  /** Values of parameters outside repositories (org, username, ...). */
  globals: Record<string, string>;
  close(): Promise<void>;
}

export interface FixtureOptions {
  dialect: Dialect;
  databaseUrl?: string;
  /** Keep the PostgreSQL schema afterwards. */
  keep?: boolean;
  /** Which of the four repositories to make (keys of REPOSITORY_KINDS) [all]. */
  repositories?: readonly string[];
}

/** The repositories the matrix can ask about: key → private?, organization-owned?, name. */
export const REPOSITORY_KINDS: Readonly<Record<string, { private: boolean; org: boolean; name: string }>> = {
  'user/private': { private: true, org: false, name: 'private-repo' },
  'user/public': { private: false, org: false, name: 'public-repo' },
  'org/private': { private: true, org: true, name: 'org-private-repo' },
  'org/public': { private: false, org: true, name: 'org-public-repo' },
};

/** Wharf in-process: the tests' server, on the dialect and database asked for, its schema new and dropped unless kept. */
function startServer(o: FixtureOptions): Promise<TestServer> {
  if (o.dialect === 'postgres' && !o.databaseUrl) throw new Error('postgres: a database URL is required');
  return startTestServer({
    dialect: o.dialect,
    ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
    keepSchema: o.keep ?? false,
    env: {
      WHARF_RATE_LIMIT_AUTHENTICATED: '1000000000', WHARF_RATE_LIMIT_UNAUTHENTICATED: '1000000000',
      WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    },
  });
}

async function ok(res: Response, what: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (res.status >= 300) throw new Error(`fixture: ${what}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) as Record<string, unknown> : {};
}

/** One repository with one of each object, made by its owner. */
async function populate(t: TestServer, token: string, key: string, owner: string, name: string, isPrivate: boolean, orgOwned: boolean): Promise<FixtureRepo> {
  const api = (p: string, method = 'GET', json?: unknown) => t.request(p, { method, token, ...(json !== undefined ? { json } : {}) }).then((r) => ok(r, `${method} ${p}`));
  // Templates, so that generating from one is a request about authorization, not about a repository that is none.
  const created = await api(orgOwned ? `/orgs/${owner}/repos` : '/user/repos', 'POST', { name, private: isPrivate, auto_init: true, is_template: true });
  const base = `/repos/${owner}/${name}`;
  const nodes: Record<string, string> = { repository: String(created.node_id) };
  const branch = await api(`${base}/branches/main`);
  const head = String((branch.commit as { sha: string }).sha);
  const label = await api(`${base}/labels`, 'POST', { name: 'authz-label', color: 'ff0000' });
  const milestone = await api(`${base}/milestones`, 'POST', { title: 'authz-milestone' });
  const issue = await api(`${base}/issues`, 'POST', { title: 'authz issue', labels: ['authz-label'], milestone: milestone.number });
  const comment = await api(`${base}/issues/${issue.number}/comments`, 'POST', { body: 'authz comment' });
  // A branch with one more commit, and a pull request from it.
  await api(`${base}/contents/feature.txt`, 'PUT', { message: 'feature', content: Buffer.from('feature\n').toString('base64'), branch: 'main' });
  await api(`${base}/git/refs`, 'POST', { ref: 'refs/heads/feature', sha: head });
  await api(`${base}/contents/feature2.txt`, 'PUT', { message: 'feature 2', content: Buffer.from('two\n').toString('base64'), branch: 'feature' });
  const pull = await api(`${base}/pulls`, 'POST', { title: 'authz pull', head: 'feature', base: 'main' });
  const release = await api(`${base}/releases`, 'POST', { tag_name: 'v1.0', name: 'authz release' });
  const hook = await api(`${base}/hooks`, 'POST', { config: { url: 'http://127.0.0.1:9/hook' }, events: ['push'] });
  const deployment = await api(`${base}/deployments`, 'POST', { ref: 'main', required_contexts: [] });
  const reaction = await api(`${base}/issues/${issue.number}/reactions`, 'POST', { content: '+1' });
  const mainNow = await api(`${base}/branches/main`);
  const sha = String((mainNow.commit as { sha: string }).sha);
  const commit = await api(`${base}/git/commits/${sha}`);
  const treeSha = String((commit.tree as { sha: string }).sha);
  const readme = await api(`${base}/contents/README.md`);
  const tag = await api(`${base}/git/tags`, 'POST', { tag: 'v0.1', message: 'authz tag', object: sha, type: 'commit' });
  const review = await api(`${base}/pulls/${pull.number}/reviews`, 'POST', { body: 'authz review', event: 'COMMENT' });
  const status = await api(`${base}/deployments/${deployment.id}/statuses`, 'POST', { state: 'success' });
  // Protection last: the commits above went to main before it.
  await api(`${base}/branches/main/protection`, 'PUT', {
    required_status_checks: { strict: true, contexts: ['authz'] }, enforce_admins: true,
    required_pull_request_reviews: { required_approving_review_count: 1 }, restrictions: orgOwned ? { users: [], teams: [] } : null,
  });
  await api(`${base}/branches/main/protection/required_signatures`, 'POST');
  nodes.issue = String(issue.node_id);
  nodes.pull = String(pull.node_id);
  nodes.comment = String(comment.node_id);
  nodes.label = String(label.node_id);
  nodes.milestone = String(milestone.node_id);
  nodes.release = String(release.node_id);
  for (const [k, v] of Object.entries(nodes)) if (!v || v === 'undefined') delete nodes[k];
  return {
    key, owner, repo: name, id: Number(created.id), private: isPrivate, orgOwned, nodes,
    params: {
      owner, repo: name, issue_number: String(issue.number), number: String(issue.number), pull_number: String(pull.number),
      comment_id: String(comment.id), name: 'authz-label', milestone_number: String(milestone.number),
      release_id: String(release.id), hook_id: String(hook.id), deployment_id: String(deployment.id),
      reaction_id: String(reaction.id), branch: 'main', ref: 'heads/main', sha, commit_sha: sha, tag: 'v1.0',
      '*': 'README.md', repository_id: String(created.id), tree_sha: treeSha, file_sha: String(readme.sha), tag_sha: String(tag.sha),
      review_id: String(review.id), status_id: String(status.id),
    },
  };
}

export async function buildFixture(o: FixtureOptions): Promise<Fixture> {
  const t = await startServer(o);
  try {
    const all = ['repo', 'user', 'admin:org', 'admin:repo_hook', 'delete_repo', 'notifications', 'workflow', 'admin:public_key', 'admin:gpg_key', 'write:discussion', 'project', 'admin:org_hook', 'gist', 'read:audit_log'];
    const owner = await createUser(t, all, 'authz-owner');
    const org = (await createOrg(t, owner.login, 'authz-org')).login;
    await t.request(`/orgs/${org}`, { method: 'PATCH', token: owner.token, json: { default_repository_permission: 'read' } }).then((r) => ok(r, 'org base permission'));
    const repos: FixtureRepo[] = [];
    for (const key of o.repositories ?? Object.keys(REPOSITORY_KINDS)) {
      const kind = REPOSITORY_KINDS[key];
      if (!kind) throw new Error(`unknown repository kind "${key}" (${Object.keys(REPOSITORY_KINDS).join(', ')})`);
      repos.push(await populate(t, owner.token, key, kind.org ? org : owner.login, kind.name, kind.private, kind.org));
    }
    const actors: Actor[] = [{ name: 'owner', kind: 'owner', token: owner.token }];
    for (const role of COLLABORATOR_ROLES) {
      const u = await createUser(t, all, `authz-${role}`);
      // A personal repository knows one collaborator role (push); organizations' know five.
      for (const r of repos) await addCollaborator(t, owner.token, r, u, r.orgOwned ? role : 'push');
      actors.push({ name: `collaborator:${role}`, kind: 'collaborator', role, token: u.token });
    }
    const member = await createUser(t, all, 'authz-member');
    await t.request(`/orgs/${org}/memberships/${member.login}`, { method: 'PUT', token: owner.token, json: { role: 'member' } }).then((r) => ok(r, 'membership'));
    await t.request(`/user/memberships/orgs/${org}`, { method: 'PATCH', token: member.token, json: { state: 'active' } }).then((r) => ok(r, 'accept membership'));
    actors.push({ name: 'org-member', kind: 'org-member', token: member.token });
    const outsider = await createUser(t, all, 'authz-outsider');
    actors.push({ name: 'outsider', kind: 'outsider', token: outsider.token });
    // Named by {username} in paths: a public member of the organization and a read
    // collaborator everywhere, and none of the actors (who must not act for them).
    const bystander = await createUser(t, all, 'authz-bystander');
    await t.request(`/orgs/${org}/memberships/${bystander.login}`, { method: 'PUT', token: owner.token, json: { role: 'member' } }).then((r) => ok(r, 'membership'));
    await t.request(`/user/memberships/orgs/${org}`, { method: 'PATCH', token: bystander.token, json: { state: 'active' } }).then((r) => ok(r, 'accept membership'));
    await t.request(`/orgs/${org}/public_members/${bystander.login}`, { method: 'PUT', token: bystander.token }).then((r) => ok(r, 'publicize'));
    for (const r of repos) await addCollaborator(t, owner.token, r, bystander, r.orgOwned ? 'pull' : 'push');
    const team = await t.request(`/orgs/${org}/teams`, { method: 'POST', token: owner.token, json: { name: 'authz-team', privacy: 'closed' } }).then((r) => ok(r, 'team'));
    const discussion = await t.request(`/orgs/${org}/teams/authz-team/discussions`, {
      method: 'POST', token: owner.token, json: { title: 'authz', body: 'authz' }, headers: { accept: 'application/vnd.service.squirrel-girl-preview+json' },
    }).then((r) => ok(r, 'discussion'));
    await t.request(`/orgs/${org}/teams/authz-team/memberships/${bystander.login}`, { method: 'PUT', token: owner.token, json: { role: 'member' } }).then((r) => ok(r, 'team membership'));
    const orgHook = await t.request(`/orgs/${org}/hooks`, { method: 'POST', token: owner.token, json: { name: 'web', config: { url: 'http://127.0.0.1:9/org-hook' } } }).then((r) => ok(r, 'org hook'));
    const project = await t.request(`/orgs/${org}/projects`, { method: 'POST', token: owner.token, json: { name: 'authz-project' } }).then((r) => ok(r, 'project'));
    const column = await t.request(`/projects/${project.id}/columns`, { method: 'POST', token: owner.token, json: { name: 'authz-column' } }).then((r) => ok(r, 'column'));
    const card = await t.request(`/projects/columns/${column.id}/cards`, { method: 'POST', token: owner.token, json: { note: 'authz' } }).then((r) => ok(r, 'card'));
    actors.push({ name: 'anonymous', kind: 'anonymous', token: null });
    // The owner's own token, with a scope that grants nothing on repositories.
    actors.push({ name: 'owner token without repo scopes', kind: 'no-scope', token: await createToken(t, owner.login, ['read:user']) });
    actors.push({ name: 'installation without the permission', kind: 'installation', token: await installationToken(t, owner) });
    return {
      t, owner, org, actors, repos,
      globals: {
        org, username: bystander.login, user: bystander.login, login: bystander.login, team_slug: String(team.slug), team_id: String(team.id),
        org_id: String((await t.request(`/orgs/${org}`, { token: owner.token }).then((r) => ok(r, 'org'))).id),
        discussion_number: String(discussion.number), hook_id: String(orgHook.id), project_id: String(project.id), column_id: String(column.id), card_id: String(card.id),
      },
      close: () => t.close(),
    };
  } catch (err) {
    await t.close();
    throw err;
  }
}

/**
 * An app holding only metadata read, installed on all of the owner's own repositories
 * (not the organization's), and a token of that installation: every route needing more
 * must answer 403 to it.
 */
async function installationToken(t: TestServer, owner: CreatedUser): Promise<string> {
  const web = await signedInAs(t, owner.login, 'authz password 1');
  const app = await registerAppByManifest(t, web, manifestOf('Authz Bot', { default_permissions: { metadata: 'read' }, default_events: [] }));
  const page = await web.get(`/apps/${app.slug}/installations/new`);
  const fields: Record<string, string> = { authenticity_token: csrfIn(page.body), repository_selection: 'all' };
  const res = await web.post(`/apps/${app.slug}/installations/new`, fields);
  const m = /id="installation-id">(\d+)</.exec(res.body);
  if (!m) throw new Error(`fixture: installing the app failed: ${res.status} ${res.body.slice(0, 300)}`);
  const tok = await t.request(`/app/installations/${m[1]}/access_tokens`, {
    method: 'POST', json: {}, headers: { authorization: `Bearer ${appJwt(app.pem, app.id, Date.now())}` },
  });
  return String((await ok(tok, 'installation token')).token);
}
