// The list sub-resources of branch protection (…/required_status_checks/contexts,
// …/restrictions/{users,teams,apps}) through Octokit (bare arrays) and plain requests
// (upstream's objects): bodies against the published schemas, the stored rule read
// back after each write, the 404s and 422s; and restrictions enforced on git pushes
// over HTTP to an organization's repository.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { requestJson } from './helpers/json-request.ts';
import { appJwt, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';
import { csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { cloneUrl, git, gitOk, tempDir } from './helpers/git.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg, type CreatedTeam } from './factories/orgs.ts';
import { cloneAs, commitFiles, push, repoWithFeature, type Clone } from './factories/pulls.ts';

const P = '/repos/{owner}/{repo}/branches/{branch}/protection';
const OPEN = { required_status_checks: null, enforce_admins: null, required_pull_request_reviews: null, restrictions: null };
const PASSWORD = 'correct horse battery';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

/** An organization's repository with main and feature, cloned by its owner. */
async function orgRepo(org: CreatedOrg): Promise<Clone> {
  const name = `lists-${Math.random().toString(36).slice(2, 8)}`;
  await t.octokit(org.owner.token).rest.repos.createInOrg({ org: org.login, name, auto_init: true });
  const clone = await cloneAs(t, org.login, name, org.owner);
  await commitFiles(clone, { 'app.txt': 'one\n' }, 'Add app');
  await push(clone, 'main');
  return clone;
}

/** The admin token of each repository under test, for reading its rule back. */
const ADMIN_OF = new Map<string, string>();

async function storedRule(owner: string, repo: string) {
  return (await t.octokit(ADMIN_OF.get(repo)!).rest.repos.getBranchProtection({ owner, repo, branch: 'main' })).data;
}

describe('…/required_status_checks/contexts', () => {
  let owner: CreatedUser;
  let repo: string;
  const at = () => ({ owner: owner.login, repo, branch: 'main' });
  const path = () => `/repos/${owner.login}/${repo}/branches/main/protection/required_status_checks/contexts`;
  before(async () => {
    owner = await createUser(t);
    repo = (await repoWithFeature(t, owner)).clone.repo;
    ADMIN_OF.set(repo, owner.token);
  });

  test('404 while the branch is unprotected or its checks are not enabled', async () => {
    const kit = t.octokit(owner.token);
    assert.equal((await failsWith(kit.rest.repos.getAllStatusCheckContexts(at()), 404)).message, 'Branch not protected');
    await kit.rest.repos.updateBranchProtection({ ...at(), ...OPEN });
    assert.equal((await failsWith(kit.rest.repos.getAllStatusCheckContexts(at()), 404)).message, 'Required status checks not enabled');
    assert.equal((await failsWith(kit.rest.repos.addStatusCheckContexts({ ...at(), contexts: ['ci'] }), 404)).message, 'Required status checks not enabled');
    assert.equal((await storedRule(owner.login, repo)).required_status_checks, undefined);
  });

  test('GET lists, POST adds, PUT replaces, DELETE removes; each answers the list and stores it', async () => {
    const kit = t.octokit(owner.token);
    await kit.rest.repos.updateBranchProtection({ ...at(), ...OPEN, required_status_checks: { strict: true, contexts: ['ci'] } });
    const got = await kit.rest.repos.getAllStatusCheckContexts(at());
    assertMatchesOpenApi('GET', `${P}/required_status_checks/contexts`, 200, got.data);
    assert.deepEqual(got.data, ['ci']);

    const added = await kit.rest.repos.addStatusCheckContexts({ ...at(), contexts: ['lint', 'ci'] });
    assertMatchesOpenApi('POST', `${P}/required_status_checks/contexts`, 200, added.data);
    assert.deepEqual(added.data, ['ci', 'lint']);
    // Upstream's object body works as well as Octokit's bare array.
    const object = await requestJson(t, 'POST', path(), owner.token, { contexts: ['e2e'] });
    assert.equal(object.status, 200);
    assert.deepEqual(object.body, ['ci', 'lint', 'e2e']);

    const set = await kit.rest.repos.setStatusCheckContexts({ ...at(), contexts: ['lint', 'ci'] });
    assertMatchesOpenApi('PUT', `${P}/required_status_checks/contexts`, 200, set.data);
    assert.deepEqual(set.data, ['lint', 'ci']);

    const removed = await kit.rest.repos.removeStatusCheckContexts({ ...at(), contexts: ['lint'] });
    assertMatchesOpenApi('DELETE', `${P}/required_status_checks/contexts`, 200, removed.data);
    assert.deepEqual(removed.data, ['ci']);

    const rule = await storedRule(owner.login, repo);
    assert.deepEqual(rule.required_status_checks?.contexts, ['ci']);
    assert.equal(rule.required_status_checks?.strict, true, 'strictness is kept');
    assert.deepEqual((await kit.rest.repos.getAllStatusCheckContexts(at())).data, ['ci']);
  });

  test('bad bodies are 422 and change nothing; a writer gets 403', async () => {
    for (const body of [{}, { contexts: [1] }, { contexts: 'ci' }, [''], { contexts: Array.from({ length: 101 }, (_, i) => `c${i}`) }]) {
      const res = await requestJson(t, 'POST', path(), owner.token, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.message, 'Validation Failed');
    }
    const writer = await createUser(t);
    await addCollaborator(t, owner.token, { owner: owner.login, repo }, writer, 'push');
    await failsWith(t.octokit(writer.token).rest.repos.setStatusCheckContexts({ ...at(), contexts: [] }), 403);
    assert.deepEqual((await storedRule(owner.login, repo)).required_status_checks?.contexts, ['ci']);
  });

  test('changes made at the same time all land (each reads and writes the rule in one transaction)', async () => {
    const kit = t.octokit(owner.token);
    await kit.rest.repos.setStatusCheckContexts({ ...at(), contexts: ['ci'] });
    const added = Array.from({ length: 12 }, (_, i) => `parallel-${i}`);
    await Promise.all(added.map((c) => kit.rest.repos.addStatusCheckContexts({ ...at(), contexts: [c] })));
    const stored = (await storedRule(owner.login, repo)).required_status_checks?.contexts ?? [];
    assert.deepEqual([...stored].sort(), ['ci', ...added].sort());
  });
});

describe('…/restrictions/users and …/restrictions/teams', () => {
  let org: CreatedOrg;
  let repo: string;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let team: CreatedTeam;
  const at = () => ({ owner: org.login, repo, branch: 'main' });
  const base = () => `/repos/${org.login}/${repo}/branches/main/protection/restrictions`;
  before(async () => {
    org = await createOrgWithOwner(t);
    repo = (await orgRepo(org)).repo;
    ADMIN_OF.set(repo, org.owner.token);
    alice = await addMember(t, org);
    bob = await addMember(t, org);
    team = await createTeam(t, org.owner.token, org.login);
  });

  test('404 to read and 422 to change while restrictions are not enabled', async () => {
    const kit = t.octokit(org.owner.token);
    await kit.rest.repos.updateBranchProtection({ ...at(), ...OPEN });
    assert.equal((await failsWith(kit.rest.repos.getUsersWithAccessToProtectedBranch(at()), 404)).message, 'Push restrictions not enabled');
    assert.equal((await failsWith(kit.rest.repos.getTeamsWithAccessToProtectedBranch(at()), 404)).message, 'Push restrictions not enabled');
    const e = await failsWith(kit.rest.repos.addUserAccessRestrictions({ ...at(), users: [alice.login] }), 422);
    assert.equal(e.errors?.[0]?.message, 'Push restrictions not enabled');
    assert.equal((await storedRule(org.login, repo)).restrictions, undefined);
  });

  test('users: POST adds, PUT replaces, DELETE removes; GET and the rule agree', async () => {
    const kit = t.octokit(org.owner.token);
    await kit.rest.repos.updateBranchProtection({ ...at(), ...OPEN, restrictions: { users: [], teams: [] } });
    const added = await kit.rest.repos.addUserAccessRestrictions({ ...at(), users: [alice.login] });
    assertMatchesOpenApi('POST', `${P}/restrictions/users`, 200, added.data);
    assert.deepEqual(added.data.map((u) => u.login), [alice.login]);
    const object = await requestJson(t, 'POST', `${base()}/users`, org.owner.token, { users: [bob.login, alice.login] });
    assert.equal(object.status, 200);
    assert.deepEqual(object.body.map((u: { login: string }) => u.login), [alice.login, bob.login]);

    const got = await kit.rest.repos.getUsersWithAccessToProtectedBranch(at());
    assertMatchesOpenApi('GET', `${P}/restrictions/users`, 200, got.data);
    assert.deepEqual(got.data.map((u) => u.login), [alice.login, bob.login]);

    const set = await kit.rest.repos.setUserAccessRestrictions({ ...at(), users: [bob.login] });
    assertMatchesOpenApi('PUT', `${P}/restrictions/users`, 200, set.data);
    assert.deepEqual(set.data.map((u) => u.login), [bob.login]);
    assert.deepEqual((await storedRule(org.login, repo)).restrictions?.users.map((u) => u.login), [bob.login]);

    const removed = await kit.rest.repos.removeUserAccessRestrictions({ ...at(), users: [bob.login] });
    assertMatchesOpenApi('DELETE', `${P}/restrictions/users`, 200, removed.data);
    assert.deepEqual(removed.data, []);
    assert.deepEqual((await storedRule(org.login, repo)).restrictions?.users, []);
  });

  test('teams: POST adds, PUT replaces, DELETE removes; GET and the rule agree', async () => {
    const kit = t.octokit(org.owner.token);
    const other = await createTeam(t, org.owner.token, org.login);
    const added = await kit.rest.repos.addTeamAccessRestrictions({ ...at(), teams: [team.slug] });
    assertMatchesOpenApi('POST', `${P}/restrictions/teams`, 200, added.data);
    assert.deepEqual(added.data.map((x) => x.slug), [team.slug]);
    const set = await requestJson(t, 'PUT', `${base()}/teams`, org.owner.token, { teams: [other.slug, team.slug] });
    assert.equal(set.status, 200);
    assertMatchesOpenApi('PUT', `${P}/restrictions/teams`, 200, set.body);
    assert.deepEqual(set.body.map((x: { slug: string }) => x.slug), [other.slug, team.slug]);
    const got = await kit.rest.repos.getTeamsWithAccessToProtectedBranch(at());
    assertMatchesOpenApi('GET', `${P}/restrictions/teams`, 200, got.data);
    assert.deepEqual(got.data.map((x) => x.slug), [other.slug, team.slug]);
    const removed = await kit.rest.repos.removeTeamAccessRestrictions({ ...at(), teams: [other.slug] });
    assertMatchesOpenApi('DELETE', `${P}/restrictions/teams`, 200, removed.data);
    assert.deepEqual(removed.data.map((x) => x.slug), [team.slug]);
    assert.deepEqual((await storedRule(org.login, repo)).restrictions?.teams.map((x) => x.slug), [team.slug]);
  });

  test('unknown users and teams, and bad bodies, are 422 and change nothing', async () => {
    const kit = t.octokit(org.owner.token);
    const before = await storedRule(org.login, repo);
    const user = await failsWith(kit.rest.repos.addUserAccessRestrictions({ ...at(), users: [alice.login, 'no-such-user-here'] }), 422);
    assert.equal(user.errors?.[0]?.message, 'Could not resolve user no-such-user-here');
    const teamError = await failsWith(kit.rest.repos.setTeamAccessRestrictions({ ...at(), teams: ['no-such-team'] }), 422);
    assert.equal(teamError.errors?.[0]?.message, 'Could not resolve team no-such-team');
    for (const body of [{}, { users: 'x' }, { users: [null] }, { teams: [alice.login] }]) {
      assert.equal((await requestJson(t, 'PUT', `${base()}/users`, org.owner.token, body)).status, 422, JSON.stringify(body));
    }
    assert.deepEqual(await storedRule(org.login, repo), before);
    // A member without admin rights may not manage the lists.
    await failsWith(t.octokit(alice.token).rest.repos.getUsersWithAccessToProtectedBranch(at()), 403);
  });

  test('a repository a user owns cannot restrict to users or teams (422)', async () => {
    const owner = await createUser(t);
    const own = (await repoWithFeature(t, owner)).clone.repo;
    const kit = t.octokit(owner.token);
    await kit.rest.repos.updateBranchProtection({ owner: owner.login, repo: own, branch: 'main', ...OPEN, restrictions: { users: [], teams: [] } });
    const e = await failsWith(kit.rest.repos.addUserAccessRestrictions({ owner: owner.login, repo: own, branch: 'main', users: [owner.login] }), 422);
    assert.equal(e.errors?.[0]?.message, 'Only organization repositories can have users and team restrictions');
    assert.deepEqual((await kit.rest.repos.getUsersWithAccessToProtectedBranch({ owner: owner.login, repo: own, branch: 'main' })).data, []);
  });
});

/** `git push` that may fail: its exit code and stderr (not quiet, so the remote's messages show). */
async function tryPush(dir: string, ...args: string[]) {
  const r = await git(['push', 'origin', ...args], { cwd: dir });
  return { code: r.code, stderr: r.stderr };
}

async function serverSha(org: string, repo: string, branch: string): Promise<string | null> {
  const res = await requestJson(t, 'GET', `/repos/${org}/${repo}/git/ref/heads/${branch}`, ADMIN_OF.get(repo));
  return res.status === 200 ? res.body.object.sha : null;
}

describe('restrictions on pushes over HTTP to an organization\'s repository', () => {
  let org: CreatedOrg;
  let repo: string;
  let allowed: CreatedUser;
  let outsider: CreatedUser;
  let teamMember: CreatedUser;
  const clones = new Map<string, Clone>();
  before(async () => {
    org = await createOrgWithOwner(t);
    repo = (await orgRepo(org)).repo;
    ADMIN_OF.set(repo, org.owner.token);
    allowed = await addMember(t, org);
    outsider = await addMember(t, org);
    teamMember = await addMember(t, org);
    const team = await createTeam(t, org.owner.token, org.login);
    await t.octokit(org.owner.token).rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: teamMember.login });
    for (const u of [allowed, outsider, teamMember]) {
      await addCollaborator(t, org.owner.token, { owner: org.login, repo }, u, 'push');
      clones.set(u.login, await cloneAs(t, org.login, repo, u));
    }
    await t.octokit(org.owner.token).rest.repos.updateBranchProtection({
      owner: org.login, repo, branch: 'main', ...OPEN, restrictions: { users: [allowed.login], teams: [team.slug] },
    });
  });

  test('a writer outside the lists is refused with upstream\'s GH006 message; the branch stays', async () => {
    const c = clones.get(outsider.login)!;
    const before = await serverSha(org.login, repo, 'main');
    await commitFiles(c, { 'outsider.txt': 'x\n' }, 'By the outsider');
    const r = await tryPush(c.dir, 'main');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /remote: error: GH006: Protected branch update failed for refs\/heads\/main\./);
    assert.match(r.stderr, /remote: error: You're not authorized to push to this branch\. Visit the branch protection settings for more information\./);
    assert.match(r.stderr, /\[remote rejected\] main -> main/);
    assert.equal(await serverSha(org.login, repo, 'main'), before);
    // Unprotected branches stay open to them.
    await gitOk(['checkout', '-q', '-b', 'outsider-work'], { cwd: c.dir });
    assert.equal((await tryPush(c.dir, 'outsider-work')).code, 0);
  });

  test('a listed user, and a member of a listed team, push', async () => {
    for (const u of [allowed, teamMember]) {
      const c = clones.get(u.login)!;
      await gitOk(['pull', '-q', '--rebase', 'origin', 'main'], { cwd: c.dir });
      const sha = await commitFiles(c, { [`${u.login}.txt`]: 'ok\n' }, `By ${u.login}`);
      const r = await tryPush(c.dir, 'main');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await serverSha(org.login, repo, 'main'), sha);
    }
  });

  test('added to the list through POST …/restrictions/users, the outsider pushes', async () => {
    await t.octokit(org.owner.token).rest.repos.addUserAccessRestrictions({ owner: org.login, repo, branch: 'main', users: [outsider.login] });
    const c = clones.get(outsider.login)!;
    await gitOk(['checkout', '-q', 'main'], { cwd: c.dir });
    await gitOk(['reset', '-q', '--hard', 'origin/main'], { cwd: c.dir });
    await gitOk(['pull', '-q', 'origin', 'main'], { cwd: c.dir });
    const sha = await commitFiles(c, { 'outsider2.txt': 'ok\n' }, 'Now allowed');
    const r = await tryPush(c.dir, 'main');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await serverSha(org.login, repo, 'main'), sha);
  });
});

describe('…/restrictions/apps, and apps pushing through installation tokens', () => {
  let org: CreatedOrg;
  let repo: string;
  let bot: ConvertedApp;
  let idle: ConvertedApp;
  let installationId: number;
  const at = () => ({ owner: org.login, repo, branch: 'main' });
  before(async () => {
    org = await createOrgWithOwner(t);
    repo = (await orgRepo(org)).repo;
    ADMIN_OF.set(repo, org.owner.token);
    await setPassword(t, org.owner.login, PASSWORD);
    const web = new WebClient(t);
    await web.signIn(org.owner.login, PASSWORD);
    // Owned by the organization: restriction policies show an organization owner's addresses.
    bot = await registerAppByManifest(t, web, manifestOf('Pushing Bot', { public: true, default_permissions: { contents: 'write' } }), `/organizations/${org.login}/settings/apps/new`);
    idle = await registerAppByManifest(t, web, manifestOf('Idle Bot'));
    const page = await web.get(`/apps/${bot.slug}/installations/new?target=${org.login}`);
    assert.equal(page.status, 200, page.body.slice(0, 500));
    const res = await web.post(`/apps/${bot.slug}/installations/new`, { authenticity_token: csrfIn(page.body), target: org.login, repository_selection: 'all' });
    installationId = Number(/id="installation-id">(\d+)</.exec(res.body)![1]);
    await t.octokit(org.owner.token).rest.repos.updateBranchProtection({ ...at(), ...OPEN, restrictions: { users: [], teams: [] } });
  });

  async function botPush(): Promise<{ code: number; stderr: string }> {
    const res = await t.request(`/app/installations/${installationId}/access_tokens`, {
      method: 'POST', json: {}, headers: { authorization: `Bearer ${appJwt(bot.pem, bot.id, Date.now())}` },
    });
    assert.equal(res.status, 201, await res.clone().text());
    const { token } = (await res.json()) as { token: string };
    const dir = tempDir('wharf-bot-');
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, org.login, repo, 'x-access-token', token), dir]);
    await gitOk(['-c', 'user.name=bot', '-c', 'user.email=bot@example.com', 'commit', '-q', '--allow-empty', '-m', 'By the bot'], { cwd: dir });
    return tryPush(dir, 'main');
  }

  test('an app may be named only once installed with write access to contents (422 otherwise)', async () => {
    const kit = t.octokit(org.owner.token);
    const unknown = await failsWith(kit.rest.repos.addAppAccessRestrictions({ ...at(), apps: ['no-such-app'] }), 422);
    assert.equal(unknown.errors?.[0]?.message, 'Could not resolve app no-such-app');
    const notInstalled = await failsWith(kit.rest.repos.addAppAccessRestrictions({ ...at(), apps: [idle.slug] }), 422);
    assert.match(notInstalled.errors?.[0]?.message ?? '', /is not installed on this repository with write access to its contents/);
    assert.deepEqual((await kit.rest.repos.getAppsWithAccessToProtectedBranch(at())).data, []);
  });

  test('an app outside the list cannot push; listed (POST, then GET and the rule agree) it can; DELETE removes it', async () => {
    const kit = t.octokit(org.owner.token);
    const refused = await botPush();
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /You're not authorized to push to this branch/);

    const added = await kit.rest.repos.addAppAccessRestrictions({ ...at(), apps: [bot.slug] });
    assertMatchesOpenApi('POST', `${P}/restrictions/apps`, 200, added.data);
    assert.deepEqual(added.data.map((a) => a?.slug), [bot.slug]);
    const got = await kit.rest.repos.getAppsWithAccessToProtectedBranch(at());
    assertMatchesOpenApi('GET', `${P}/restrictions/apps`, 200, got.data);
    const rule = await storedRule(org.login, repo);
    assertMatchesOpenApi('GET', P, 200, rule);
    assert.deepEqual(rule.restrictions?.apps.map((a) => a?.slug), [bot.slug]);
    // The app's owner in upstream's restriction-policy shape: the organization, with its addresses and description.
    const owner = rule.restrictions?.apps[0]?.owner;
    const orgApi = `${t.baseUrl}/orgs/${org.login}`;
    assert.deepEqual([owner?.login, owner?.hooks_url, owner?.issues_url, owner?.members_url, owner?.public_members_url, owner?.description],
      [org.login, `${orgApi}/hooks`, `${orgApi}/issues`, `${orgApi}/members{/member}`, `${orgApi}/public_members{/member}`, '']);
    // Branch records, which every reader gets, never carry restrictions (the admins' to read, here).
    const branch = (await kit.rest.repos.getBranch(at())).data;
    assert.equal(branch.protection.enabled, true);
    assert.equal('restrictions' in branch.protection, false);

    const pushed = await botPush();
    assert.equal(pushed.code, 0, pushed.stderr);

    const set = await kit.rest.repos.setAppAccessRestrictions({ ...at(), apps: [bot.slug] });
    assertMatchesOpenApi('PUT', `${P}/restrictions/apps`, 200, set.data);
    const removed = await requestJson(t, 'DELETE', `/repos/${org.login}/${repo}/branches/main/protection/restrictions/apps`, org.owner.token, { apps: [bot.slug] });
    assert.equal(removed.status, 200);
    assertMatchesOpenApi('DELETE', `${P}/restrictions/apps`, 200, removed.body);
    assert.deepEqual(removed.body, []);
    assert.deepEqual((await storedRule(org.login, repo)).restrictions?.apps, []);
  });
});
