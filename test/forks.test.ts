// Forks (a real copy of the parent's git data) and repositories generated from templates.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';
import { listEvents } from '../src/events/outbox.ts';

type Json = Record<string, any>;

/** ls-remote as "sha ref" lines, sorted. */
async function refsOf(t: TestServer, owner: string, repo: string, who: CreatedUser): Promise<string[]> {
  const out = await gitOk(['ls-remote', cloneUrl(t.baseUrl, owner, repo, who.login, who.token)]);
  return out.split('\n').filter((l) => l && !l.endsWith('\tHEAD')).sort((a, b) => a.split('\t')[1]!.localeCompare(b.split('\t')[1]!));
}

/** A repository with a README on main, a second branch `feature` and a tag `v1`. */
async function seedRepo(t: TestServer, owner: CreatedUser, name: string, extra: Record<string, unknown> = {}, org?: string): Promise<Json> {
  const octokit = t.octokit(owner.token);
  const { data } = org
    ? await octokit.rest.repos.createInOrg({ org, name, auto_init: true, ...extra })
    : await octokit.rest.repos.createForAuthenticatedUser({ name, auto_init: true, ...extra });
  const work = tempDir();
  await gitOk(['clone', '-q', cloneUrl(t.baseUrl, data.owner.login, name, owner.login, owner.token), work]);
  fs.mkdirSync(path.join(work, 'src'));
  fs.writeFileSync(path.join(work, 'src', 'main.txt'), 'cargo\n');
  await gitOk(['add', '.'], { cwd: work });
  await gitOk(['commit', '-q', '-m', 'Load cargo'], { cwd: work });
  await gitOk(['tag', 'v1'], { cwd: work });
  await gitOk(['checkout', '-q', '-b', 'feature'], { cwd: work });
  fs.writeFileSync(path.join(work, 'feature.txt'), 'feature\n');
  await gitOk(['add', '.'], { cwd: work });
  await gitOk(['commit', '-q', '-m', 'Feature work'], { cwd: work });
  await gitOk(['push', '-q', 'origin', 'main', 'feature', 'v1'], { cwd: work });
  return data as Json;
}

describe('forks', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  let harbour: Json;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    carol = await createUser(t);
    harbour = await seedRepo(t, alice, 'harbour', { description: 'The harbour', homepage: 'https://example.com' });
  });
  after(() => t.close());

  test('POST /repos/{owner}/{repo}/forks: 202, a fork with parent and source, the same refs and commits', async () => {
    const res = await t.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo: 'harbour' });
    assert.equal(res.status, 202);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/forks', 202, res.data);
    const fork = res.data;
    assert.equal(fork.full_name, `${bob.login}/harbour`);
    assert.equal(fork.fork, true);
    assert.equal(fork.private, false);
    assert.equal(fork.description, 'The harbour');
    assert.equal(fork.homepage, 'https://example.com');
    assert.equal(fork.default_branch, 'main');
    assert.equal(fork.has_issues, false, 'upstream turns issues off on forks');
    assert.equal(fork.parent?.full_name, `${alice.login}/harbour`);
    assert.equal(fork.source?.full_name, `${alice.login}/harbour`);
    assert.ok(fork.size > 0);

    const detail = await t.octokit(bob.token).rest.repos.get({ owner: bob.login, repo: 'harbour' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}', 200, detail.data);
    assert.equal(detail.data.parent?.id, harbour.id);
    assert.equal(detail.data.source?.id, harbour.id);

    const parentRefs = await refsOf(t, alice.login, 'harbour', alice);
    assert.deepEqual(parentRefs.map((l) => l.split('\t')[1]), ['refs/heads/feature', 'refs/heads/main', 'refs/tags/v1']);
    assert.deepEqual(await refsOf(t, bob.login, 'harbour', bob), parentRefs);
    const dir = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, bob.login, 'harbour'), dir]);
    const log = await gitOk(['log', '--format=%s', 'origin/feature'], { cwd: dir });
    assert.deepEqual(log.trim().split('\n'), ['Feature work', 'Load cargo', 'Initial commit']);

    const parent = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'harbour' });
    assert.equal(parent.data.forks_count, 1);
    assert.equal(parent.data.forks, 1);
    assert.equal(parent.data.network_count, 1);

    const events = await listEvents(t.server.ctx, { event: 'fork', repositoryId: harbour.id });
    assert.equal(events.length, 1);
    assert.equal(events[0]!.actorId, bob.id);
    assert.equal(events[0]!.payload.forkee_id, fork.id);
    const created = await listEvents(t.server.ctx, { event: 'repository', repositoryId: fork.id });
    assert.deepEqual(created.map((e) => e.action), ['created']);
  });

  test('asking again hands back the existing fork; forking your own repository hands back itself', async () => {
    const first = await t.octokit(carol.token).rest.repos.createFork({ owner: alice.login, repo: 'harbour' });
    const again = await t.octokit(carol.token).rest.repos.createFork({ owner: alice.login, repo: 'harbour' });
    assert.equal(again.status, 202);
    assert.equal(again.data.id, first.data.id);
    const own = await t.octokit(alice.token).rest.repos.createFork({ owner: alice.login, repo: 'harbour' });
    assert.equal(own.status, 202);
    assert.equal(own.data.id, harbour.id);
    assert.equal(own.data.fork, false);
    // A fork of a fork belongs to the same network: carol already holds one.
    const viaBob = await t.octokit(carol.token).rest.repos.createFork({ owner: bob.login, repo: 'harbour' });
    assert.equal(viaBob.data.id, first.data.id);
    const forks = await t.octokit(alice.token).rest.repos.listForks({ owner: alice.login, repo: 'harbour' });
    assert.deepEqual(forks.data.map((f) => f.owner.login).sort(), [bob.login, carol.login].sort());
    assert.equal((await listEvents(t.server.ctx, { event: 'fork', repositoryId: harbour.id })).length, 2);
  });

  test('a fork of a fork: parent is the fork, source the root', async () => {
    const dave = await createUser(t);
    const { data } = await t.octokit(dave.token).rest.repos.createFork({ owner: bob.login, repo: 'harbour' });
    assert.equal(data.parent?.full_name, `${bob.login}/harbour`);
    assert.equal(data.source?.full_name, `${alice.login}/harbour`);
    const bobs = await t.octokit(bob.token).rest.repos.get({ owner: bob.login, repo: 'harbour' });
    assert.equal(bobs.data.forks_count, 1);
  });

  test('names: a taken name becomes name-1; a requested name is used; a taken requested name is a 422', async () => {
    const erin = await createUser(t);
    await t.octokit(erin.token).rest.repos.createForAuthenticatedUser({ name: 'harbour' });
    const suffixed = await t.octokit(erin.token).rest.repos.createFork({ owner: alice.login, repo: 'harbour' });
    assert.equal(suffixed.data.name, 'harbour-1');
    assert.equal(suffixed.data.parent?.full_name, `${alice.login}/harbour`);

    const frank = await createUser(t);
    const named = await t.octokit(frank.token).rest.repos.createFork({ owner: alice.login, repo: 'harbour', name: 'my-harbour' });
    assert.equal(named.data.full_name, `${frank.login}/my-harbour`);

    const gina = await createUser(t);
    await t.octokit(gina.token).rest.repos.createForAuthenticatedUser({ name: 'taken' });
    const before = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'harbour' });
    const clash = await t.request(`/repos/${alice.login}/harbour/forks`, { method: 'POST', token: gina.token, json: { name: 'TAKEN' } });
    assert.equal(clash.status, 422);
    const body = await clash.json();
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/forks', 422, body);
    assert.equal(body.errors[0].message, 'name already exists on this account');
    const bad = await t.request(`/repos/${alice.login}/harbour/forks`, { method: 'POST', token: gina.token, json: { name: 'bad name' } });
    assert.equal(bad.status, 422);
    const after = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'harbour' });
    assert.equal(after.data.forks_count, before.data.forks_count, 'a refused fork creates nothing');
    assert.equal((await t.request(`/repos/${gina.login}/harbour`, { token: gina.token })).status, 404);
  });

  test('default_branch_only copies the default branch alone', async () => {
    const hank = await createUser(t);
    const { data } = await t.octokit(hank.token).rest.repos.createFork({ owner: alice.login, repo: 'harbour', default_branch_only: true });
    const refs = await refsOf(t, hank.login, data.name, hank);
    const parentMain = (await refsOf(t, alice.login, 'harbour', alice)).find((l) => l.endsWith('refs/heads/main'));
    assert.deepEqual(refs, [parentMain]);
  });

  test('forking into an organization needs membership; a user login is refused', async () => {
    const org = await createOrg(t, bob.login);
    const { data, status } = await t.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo: 'harbour', organization: org.login });
    assert.equal(status, 202);
    assert.equal(data.owner.login, org.login);
    assert.equal(data.organization?.login, org.login);

    const outsider = await createUser(t);
    const refused = await t.request(`/repos/${alice.login}/harbour/forks`, { method: 'POST', token: outsider.token, json: { organization: org.login, name: 'sneaky' } });
    assert.equal(refused.status, 404);
    assert.equal((await t.request(`/repos/${org.login}/sneaky`, { token: bob.token })).status, 404);

    // Members fork into the organization only where they may create repositories.
    const member = await createUser(t);
    await t.octokit(bob.token).rest.orgs.setMembershipForUser({ org: org.login, username: member.login, role: 'member' });
    await t.octokit(bob.token).rest.orgs.update({ org: org.login, members_can_create_repositories: false });
    const barred = await t.request(`/repos/${alice.login}/dock-for-members/forks`, { method: 'POST', token: member.token, json: { organization: org.login } });
    assert.equal(barred.status, 404, 'no such repository yet');
    await seedRepo(t, alice, 'dock-for-members');
    const noRights = await t.request(`/repos/${alice.login}/dock-for-members/forks`, { method: 'POST', token: member.token, json: { organization: org.login } });
    assert.equal(noRights.status, 403);
    assert.equal((await t.request(`/repos/${org.login}/dock-for-members`, { token: bob.token })).status, 404);
    await t.octokit(bob.token).rest.orgs.update({ org: org.login, members_can_create_repositories: true });
    const allowed = await t.octokit(member.token).rest.repos.createFork({ owner: alice.login, repo: 'dock-for-members', organization: org.login });
    assert.equal(allowed.data.full_name, `${org.login}/dock-for-members`);

    const user = await t.request(`/repos/${alice.login}/harbour/forks`, { method: 'POST', token: outsider.token, json: { organization: carol.login } });
    assert.equal(user.status, 422);
    assert.match((await user.json()).errors[0].message, /is the login for a user account/);
    const missing = await t.request(`/repos/${alice.login}/harbour/forks`, { method: 'POST', token: outsider.token, json: { organization: 'no-such-org-here' } });
    assert.equal(missing.status, 422);
  });

  test('private repositories: only those who may read them fork them, and the fork stays private', async () => {
    const org = await createOrg(t, alice.login);
    await seedRepo(t, alice, 'vault', { private: true }, org.login);
    await t.octokit(alice.token).rest.orgs.setMembershipForUser({ org: org.login, username: carol.login, role: 'member' });
    const { data } = await t.octokit(carol.token).rest.repos.createFork({ owner: org.login, repo: 'vault' });
    assert.equal(data.private, true);
    assert.equal(data.parent?.full_name, `${org.login}/vault`);
    assert.equal((await t.request(`/repos/${carol.login}/vault`)).status, 404);
    assert.deepEqual(await refsOf(t, carol.login, 'vault', carol), await refsOf(t, org.login, 'vault', alice));

    const outsider = await createUser(t);
    const res = await t.request(`/repos/${org.login}/vault/forks`, { method: 'POST', token: outsider.token });
    assert.equal(res.status, 404);
    assert.equal((await t.request(`/repos/${outsider.login}/vault`, { token: outsider.token })).status, 404);
    // The fork list shows the private fork to those who may see it, and only to them.
    const seen = await t.octokit(carol.token).rest.repos.listForks({ owner: org.login, repo: 'vault' });
    assert.deepEqual(seen.data.map((f) => f.full_name), [`${carol.login}/vault`]);
    await t.octokit(alice.token).rest.orgs.setMembershipForUser({ org: org.login, username: outsider.login, role: 'member' });
    const member = await t.octokit(outsider.token).rest.repos.listForks({ owner: org.login, repo: 'vault' });
    assert.deepEqual(member.data, []);
  });

  test('allow_forking false: 403, nothing created', async () => {
    await seedRepo(t, alice, 'no-forks');
    await t.octokit(alice.token).rest.repos.update({ owner: alice.login, repo: 'no-forks', allow_forking: false });
    const res = await t.request(`/repos/${alice.login}/no-forks/forks`, { method: 'POST', token: bob.token });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).message, 'The repository exists, but forking is disabled.');
    assert.equal((await t.request(`/repos/${bob.login}/no-forks`, { token: bob.token })).status, 404);
  });

  test('authentication, scopes and input checks', async () => {
    assert.equal((await t.request(`/repos/${alice.login}/harbour/forks`, { method: 'POST' })).status, 401);
    const weak = await createUser(t, ['user']);
    const scoped = await t.request(`/repos/${alice.login}/harbour/forks`, { method: 'POST', token: weak.token });
    assert.equal(scoped.status, 403);
    assert.equal((await t.request(`/repos/${weak.login}/harbour`, { token: weak.token })).status, 404);
    for (const body of [{ default_branch_only: 'yes' }, { name: 5 }, { organization: ['x'] }]) {
      const res = await t.request(`/repos/${alice.login}/harbour/forks`, { method: 'POST', token: bob.token, json: body });
      assert.equal(res.status, 422, JSON.stringify(body));
    }
    assert.equal((await t.request(`/repos/${alice.login}/no-such-repo/forks`, { method: 'POST', token: bob.token })).status, 404);
  });

  test('GET /repos/{owner}/{repo}/forks: sort newest, oldest, stargazers; pages with Link', async () => {
    await seedRepo(t, alice, 'dock');
    const forkers = [await createUser(t), await createUser(t), await createUser(t)];
    const ids: number[] = [];
    for (const u of forkers) ids.push((await t.octokit(u.token).rest.repos.createFork({ owner: alice.login, repo: 'dock' })).data.id);
    const octokit = t.octokit(bob.token);
    const newest = await octokit.rest.repos.listForks({ owner: alice.login, repo: 'dock' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/forks', 200, newest.data);
    assert.deepEqual(newest.data.map((f) => f.id), [...ids].reverse());
    const oldest = await octokit.rest.repos.listForks({ owner: alice.login, repo: 'dock', sort: 'oldest' });
    assert.deepEqual(oldest.data.map((f) => f.id), ids);
    await t.octokit(bob.token).rest.activity.starRepoForAuthenticatedUser({ owner: forkers[1]!.login, repo: 'dock' });
    const starred = await octokit.rest.repos.listForks({ owner: alice.login, repo: 'dock', sort: 'stargazers' });
    assert.equal(starred.data[0]!.id, ids[1]);
    const watchers = await octokit.rest.repos.listForks({ owner: alice.login, repo: 'dock', sort: 'watchers' });
    assert.equal(watchers.data[0]!.id, ids[1]);
    const page = await t.request(`/repos/${alice.login}/dock/forks?per_page=2&sort=oldest`, { token: bob.token });
    assert.match(page.headers.get('link') ?? '', /page=2.*rel="next".*rel="last"/);
    const second = await (await t.request(`/repos/${alice.login}/dock/forks?per_page=2&page=2&sort=oldest`)).json();
    assert.deepEqual(second.map((f: Json) => f.id), [ids[2]]);
    assert.equal((await t.request(`/repos/${alice.login}/dock/forks?sort=sideways`)).status, 422);
  });
});

describe('template repositories', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let template: Json;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    template = await seedRepo(t, alice, 'blueprint', { is_template: true, description: 'A blueprint' });
  });
  after(() => t.close());

  async function treeOf(owner: string, repo: string, ref: string, who: CreatedUser): Promise<string> {
    const dir = tempDir();
    await gitOk(['clone', '-q', '--bare', cloneUrl(t.baseUrl, owner, repo, who.login, who.token), dir]);
    return (await gitOk(['rev-parse', `${ref}^{tree}`], { cwd: dir })).trim();
  }

  test('POST /repos/{template_owner}/{template_repo}/generate: 201, a new history of one commit with the template tree', async () => {
    const res = await t.octokit(bob.token).rest.repos.createUsingTemplate({
      template_owner: alice.login, template_repo: 'blueprint', name: 'built', description: 'Built from a blueprint',
      headers: { accept: 'application/vnd.github.baptiste-preview+json' },
    });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', '/repos/{template_owner}/{template_repo}/generate', 201, res.data);
    assert.equal(res.data.full_name, `${bob.login}/built`);
    assert.equal(res.data.fork, false);
    assert.equal(res.data.description, 'Built from a blueprint');
    assert.equal(res.data.is_template, false);
    assert.equal(res.data.template_repository?.full_name, `${alice.login}/blueprint`);
    const detail = await (await t.request(`/repos/${bob.login}/built`, { token: bob.token, headers: { accept: 'application/vnd.github.baptiste-preview+json' } })).json();
    assert.equal(detail.template_repository.id, template.id);

    const dir = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, bob.login, 'built', bob.login, bob.token), dir]);
    const log = await gitOk(['log', '--format=%an <%ae>|%P|%s'], { cwd: dir });
    assert.equal(log.trim(), `${bob.login} <${bob.login}@example.com>||Initial commit`);
    assert.equal((await gitOk(['rev-parse', 'HEAD^{tree}'], { cwd: dir })).trim(), await treeOf(alice.login, 'blueprint', 'main', alice));
    assert.deepEqual((await refsOf(t, bob.login, 'built', bob)).map((l) => l.split('\t')[1]), ['refs/heads/main']);
    assert.ok(fs.existsSync(path.join(dir, 'src', 'main.txt')));

    const events = await listEvents(t.server.ctx, { event: 'repository', repositoryId: res.data.id });
    assert.deepEqual(events.map((e) => e.action), ['created']);
    const template2 = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'blueprint' });
    assert.equal(template2.data.forks_count, 0, 'a generated repository is not a fork');
  });

  test('include_all_branches: every branch, each a single new commit with its tree; private: true', async () => {
    const { data } = await t.octokit(bob.token).rest.repos.createUsingTemplate({
      template_owner: alice.login, template_repo: 'blueprint', name: 'built-all', include_all_branches: true, private: true,
    });
    assert.equal(data.private, true);
    assert.deepEqual((await refsOf(t, bob.login, 'built-all', bob)).map((l) => l.split('\t')[1]), ['refs/heads/feature', 'refs/heads/main']);
    for (const branch of ['main', 'feature']) {
      assert.equal(await treeOf(bob.login, 'built-all', branch, bob), await treeOf(alice.login, 'blueprint', branch, alice));
    }
    const dir = tempDir();
    await gitOk(['clone', '-q', '--bare', cloneUrl(t.baseUrl, bob.login, 'built-all', bob.login, bob.token), dir]);
    assert.equal((await gitOk(['rev-list', '--count', 'feature'], { cwd: dir })).trim(), '1');
    assert.equal((await t.request(`/repos/${bob.login}/built-all`)).status, 404);
  });

  test('only template repositories generate; bad input is a 422 and creates nothing', async () => {
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'plain', auto_init: true });
    const plain = await t.request(`/repos/${alice.login}/plain/generate`, { method: 'POST', token: bob.token, json: { name: 'nope' } });
    assert.equal(plain.status, 422);
    assert.match((await plain.json()).errors[0].message, /is not a template repository/);
    const cases: [Json, string][] = [
      [{}, 'missing_field'],
      [{ name: 'bad name' }, 'custom'],
      [{ name: 'ok', private: 'yes' }, 'invalid'],
    ];
    for (const [body, code] of cases) {
      const res = await t.request(`/repos/${alice.login}/blueprint/generate`, { method: 'POST', token: bob.token, json: body });
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal((await res.json()).errors[0].code, code);
    }
    await t.octokit(bob.token).rest.repos.createForAuthenticatedUser({ name: 'occupied' });
    const clash = await t.request(`/repos/${alice.login}/blueprint/generate`, { method: 'POST', token: bob.token, json: { name: 'Occupied' } });
    assert.equal(clash.status, 422);
    assert.equal((await clash.json()).errors[0].message, 'name already exists on this account');
    for (const name of ['nope', 'ok']) assert.equal((await t.request(`/repos/${bob.login}/${name}`, { token: bob.token })).status, 404);
    assert.equal((await t.request(`/repos/${alice.login}/blueprint/generate`, { method: 'POST', json: { name: 'anon' } })).status, 401);
    const weak = await createUser(t, ['user']);
    assert.equal((await t.request(`/repos/${alice.login}/blueprint/generate`, { method: 'POST', token: weak.token, json: { name: 'weak' } })).status, 403);
    const publicOnly = await createUser(t, ['public_repo']);
    const priv = await t.request(`/repos/${alice.login}/blueprint/generate`, { method: 'POST', token: publicOnly.token, json: { name: 'hidden', private: true } });
    assert.equal(priv.status, 403);
    assert.equal((await t.request(`/repos/${publicOnly.login}/hidden`, { token: publicOnly.token })).status, 404);
  });

  test('owner: the caller or one of their organizations; private templates need ownership or membership', async () => {
    const org = await createOrg(t, alice.login);
    const inOrg = await t.octokit(alice.token).rest.repos.createUsingTemplate({ template_owner: alice.login, template_repo: 'blueprint', owner: org.login, name: 'org-built' });
    assert.equal(inOrg.data.owner.login, org.login);
    const elsewhere = await t.request(`/repos/${alice.login}/blueprint/generate`, { method: 'POST', token: bob.token, json: { owner: alice.login, name: 'squat' } });
    assert.equal(elsewhere.status, 403);
    const stranger = await t.request(`/repos/${alice.login}/blueprint/generate`, { method: 'POST', token: bob.token, json: { owner: org.login, name: 'squat' } });
    assert.equal(stranger.status, 404);
    const unknown = await t.request(`/repos/${alice.login}/blueprint/generate`, { method: 'POST', token: bob.token, json: { owner: 'nobody-at-all-here', name: 'squat' } });
    assert.equal(unknown.status, 422);
    for (const owner of [alice.login, org.login]) assert.equal((await t.request(`/repos/${owner}/squat`, { token: alice.token })).status, 404);

    // Upstream: a template that is not public serves its owner and the members of its organization only.
    const own = await seedRepo(t, alice, 'own-secret', { is_template: true, private: true });
    const reader = await createUser(t);
    // The collaborators API is another area's; a collaborator row gives the reader pull access.
    await t.server.ctx.db.insertInto('collaborators').values({ repository_id: own.id, user_id: reader.id, permission: 'pull', created_at: '2026-01-01T00:00:00Z' }).execute();
    assert.equal((await t.request(`/repos/${alice.login}/own-secret`, { token: reader.token })).status, 200);
    const collaborator = await t.request(`/repos/${alice.login}/own-secret/generate`, { method: 'POST', token: reader.token, json: { name: 'copied' } });
    assert.equal(collaborator.status, 403);
    assert.equal((await t.request(`/repos/${reader.login}/copied`, { token: reader.token })).status, 404);
    const owner = await t.octokit(alice.token).rest.repos.createUsingTemplate({ template_owner: alice.login, template_repo: 'own-secret', name: 'own-copy' });
    assert.equal(owner.status, 201);

    await seedRepo(t, alice, 'secret-blueprint', { is_template: true, private: true }, org.login);
    const hidden = await t.request(`/repos/${org.login}/secret-blueprint/generate`, { method: 'POST', token: bob.token, json: { name: 'leak' } });
    assert.equal(hidden.status, 404);
    await t.octokit(alice.token).rest.orgs.setMembershipForUser({ org: org.login, username: bob.login, role: 'member' });
    const member = await t.octokit(bob.token).rest.repos.createUsingTemplate({ template_owner: org.login, template_repo: 'secret-blueprint', name: 'from-secret' });
    assert.equal(member.status, 201);
    assert.equal(await treeOf(bob.login, 'from-secret', 'main', bob), await treeOf(org.login, 'secret-blueprint', 'main', alice));
  });
});
