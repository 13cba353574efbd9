// Repositories: creation, the detailed record, settings, renames, deletion, lists.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, createOrg, type CreatedUser } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { gitOk, tempDir, cloneUrl } from './helpers/git.ts';
import { listEvents } from '../src/events/outbox.ts';
import fs from 'node:fs';
import { licenseBody } from '../src/modules/templates/templates.service.ts';
import path from 'node:path';

describe('repositories', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['repo', 'user', 'delete_repo', 'admin:org']);
    bob = await createUser(t, ['repo', 'user']);
  });
  after(() => t.close());

  test('POST /user/repos creates a real repository: 201, the detailed record, an empty git repository', async () => {
    const { status, data } = await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'empty-dock', description: 'Nothing yet', homepage: 'https://example.com' });
    assert.equal(status, 201);
    assertMatchesOpenApi('POST', '/user/repos', 201, data);
    assert.equal(data.full_name, `${alice.login}/empty-dock`);
    assert.equal(data.private, false);
    assert.equal(data.default_branch, 'main');
    assert.equal(data.size, 0);
    assert.equal(data.pushed_at, data.created_at);
    assert.equal(data.license, null);
    assert.deepEqual(data.permissions, { admin: true, maintain: true, push: true, triage: true, pull: true });
    assert.equal(data.clone_url, `${t.baseUrl}/${alice.login}/empty-dock.git`);
    const refs = await gitOk(['ls-remote', cloneUrl(t.baseUrl, alice.login, 'empty-dock')]);
    assert.equal(refs, '');
  });

  test('auto_init, gitignore_template and license_template make a real first commit', async () => {
    const { data } = await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({
      name: 'init-dock', auto_init: true, gitignore_template: 'Node', license_template: 'mit', description: 'Seeded',
    });
    assert.deepEqual({ key: data.license?.key, spdx: data.license?.spdx_id }, { key: 'mit', spdx: 'MIT' });
    assert.ok(data.size > 0);
    assert.ok(data.pushed_at);
    const dir = tempDir();
    await gitOk(['clone', cloneUrl(t.baseUrl, alice.login, 'init-dock'), dir]);
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f !== '.git').sort(), ['.gitignore', 'LICENSE', 'README.md']);
    assert.match(fs.readFileSync(path.join(dir, 'README.md'), 'utf8'), /^# init-dock\n\nSeeded\n/);
    assert.match(fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8'), /MIT License[\s\S]*Copyright \(c\) \d{4}/);
    assert.match(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8'), /node_modules/);
    const log = await gitOk(['log', '--format=%an <%ae>|%s'], { cwd: dir });
    assert.equal(log.trim(), `${alice.login} <${alice.login}@example.com>|Initial commit`);
  });

  test('bad input is a 422 and creates nothing', async () => {
    const octokit = t.octokit(alice.token);
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'name', 'missing_field'],
      [{ name: 'bad name' }, 'name', 'custom'],
      [{ name: 'x.git' }, 'name', 'custom'],
      [{ name: 'a'.repeat(101) }, 'name', 'custom'],
      [{ name: 'ok-name', gitignore_template: 'NoSuchLanguage' }, 'gitignore_template', 'invalid'],
      [{ name: 'ok-name', license_template: 'no-such-license' }, 'license_template', 'invalid'],
      [{ name: 'ok-name', visibility: 'internal' }, 'visibility', 'invalid'],
      [{ name: 'ok-name', has_issues: 'yes' }, 'has_issues', 'invalid'],
    ];
    for (const [body, field, code] of cases) {
      const res = await t.request('/user/repos', { method: 'POST', token: alice.token, json: body });
      assert.equal(res.status, 422, JSON.stringify(body));
      const err = await res.json();
      assert.ok(err.errors.some((e: { field: string; code: string }) => e.field === field && e.code === code), JSON.stringify(err));
    }
    assert.equal((await t.request(`/repos/${alice.login}/ok-name`, { token: alice.token })).status, 404);
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'twice' });
    const dup = await t.request('/user/repos', { method: 'POST', token: alice.token, json: { name: 'TWICE' } });
    assert.equal(dup.status, 422);
    assert.equal((await dup.json()).errors[0].message, 'name already exists on this account');
  });

  test('scopes: public repositories need public_repo or repo, private ones repo', async () => {
    const publicOnly = await createUser(t, ['public_repo']);
    const res = await t.request('/user/repos', { method: 'POST', token: publicOnly.token, json: { name: 'secret', private: true } });
    assert.equal(res.status, 403);
    assert.match((await res.json()).message, /"repo"/);
    const ok = await t.request('/user/repos', { method: 'POST', token: publicOnly.token, json: { name: 'open' } });
    assert.equal(ok.status, 201);
    const none = await createUser(t, ['user']);
    assert.equal((await t.request('/user/repos', { method: 'POST', token: none.token, json: { name: 'open' } })).status, 403);
  });

  test('a private repository is 404 to those who may not see it, and to tokens without repo', async () => {
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'vault', private: true });
    assert.equal((await t.request(`/repos/${alice.login}/vault`)).status, 404);
    assert.equal((await t.request(`/repos/${alice.login}/vault`, { token: bob.token })).status, 404);
    const weak = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: alice.login, scopes: ['public_repo'] });
    assert.equal((await t.request(`/repos/${alice.login}/vault`, { token: weak.data.token })).status, 404);
    const own = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'vault' });
    assert.equal(own.data.private, true);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}', 200, own.data);
  });

  test('previews (the spec): nebula adds visibility, baptiste adds is_template and template_repository', async () => {
    const plain = await (await t.request(`/repos/${alice.login}/vault`, { token: alice.token })).json();
    assert.deepEqual([plain.visibility, plain.is_template, plain.template_repository], [undefined, undefined, undefined]);
    const nebula = await (await t.request(`/repos/${alice.login}/vault`, { token: alice.token, headers: { accept: 'application/vnd.service.nebula-preview+json' } })).json();
    assert.equal(nebula.visibility, 'private');
    const baptiste = await (await t.request(`/repos/${alice.login}/vault`, { token: alice.token, headers: { accept: 'application/vnd.github.baptiste-preview+json' } })).json();
    assert.equal(baptiste.is_template, false);
    assert.equal(baptiste.template_repository, null);
    const listed = await (await t.request(`/users/${alice.login}/repos`, { token: alice.token, headers: { accept: 'application/vnd.github.nebula-preview+json, application/vnd.github.baptiste-preview+json' } })).json() as { name: string; visibility: string; is_template: boolean }[];
    assert.deepEqual(listed.filter((r) => r.name === 'vault').map((r) => [r.visibility, r.is_template]), [['private', false]]);
  });

  test('PATCH updates settings and keeps omitted ones; only admins may', async () => {
    const octokit = t.octokit(alice.token);
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'settings-dock', has_wiki: false });
    const { data } = await octokit.rest.repos.update({ owner: alice.login, repo: 'settings-dock', description: 'Updated', allow_squash_merge: false, delete_branch_on_merge: true });
    assert.equal(data.description, 'Updated');
    assert.equal(data.allow_squash_merge, false);
    assert.equal(data.delete_branch_on_merge, true);
    assert.equal(data.has_wiki, false);
    // The older switch follows squash_merge_commit_title: PR_TITLE is "use the title".
    assert.equal(data.use_squash_pr_title_as_default, data.squash_merge_commit_title === 'PR_TITLE');
    const titled = await octokit.rest.repos.update({ owner: alice.login, repo: 'settings-dock', squash_merge_commit_title: 'PR_TITLE', squash_merge_commit_message: 'PR_BODY' });
    assert.equal(titled.data.use_squash_pr_title_as_default, true);
    const res = await t.request(`/repos/${alice.login}/settings-dock`, { method: 'PATCH', token: bob.token, json: { description: 'hijack' } });
    assert.equal(res.status, 403);
    const after = await octokit.rest.repos.get({ owner: alice.login, repo: 'settings-dock' });
    assert.equal(after.data.description, 'Updated');
    const bad = await t.request(`/repos/${alice.login}/settings-dock`, { method: 'PATCH', token: alice.token, json: { default_branch: 'nope' } });
    assert.equal(bad.status, 200, 'an empty repository takes any default branch');
  });

  test('renaming: the old path answers 301 to the new one, and git still works at the old URL', async () => {
    const octokit = t.octokit(alice.token);
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'old-name', auto_init: true });
    const { data } = await octokit.rest.repos.update({ owner: alice.login, repo: 'old-name', name: 'new-name' });
    assert.equal(data.name, 'new-name');
    const moved = await t.request(`/repos/${alice.login}/old-name/topics?x=1`, { redirect: 'manual' });
    assert.equal(moved.status, 301);
    assert.equal(moved.headers.get('location'), `${t.baseUrl}/repos/${alice.login}/new-name/topics?x=1`);
    const followed = await octokit.rest.repos.get({ owner: alice.login, repo: 'old-name' });
    assert.equal(followed.data.name, 'new-name');
    const dir = tempDir();
    await gitOk(['clone', cloneUrl(t.baseUrl, alice.login, 'old-name'), dir]);
    assert.ok(fs.existsSync(path.join(dir, 'README.md')));
    const events = await listEvents(t.server.ctx, { event: 'repository', repositoryId: data.id });
    assert.deepEqual(events.map((e) => e.action), ['created', 'renamed']);
  });

  test('DELETE needs admin and delete_repo; afterwards the repository and its git data are gone', async () => {
    const octokit = t.octokit(alice.token);
    const { data } = await octokit.rest.repos.createForAuthenticatedUser({ name: 'doomed', auto_init: true });
    const noScope = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: alice.login, scopes: ['repo'] });
    const refused = await t.request(`/repos/${alice.login}/doomed`, { method: 'DELETE', token: noScope.data.token });
    assert.equal(refused.status, 403);
    assert.match((await refused.json()).message, /delete_repo/);
    assert.equal((await t.request(`/repos/${alice.login}/doomed`, { method: 'DELETE', token: bob.token })).status, 403);
    const res = await octokit.rest.repos.delete({ owner: alice.login, repo: 'doomed' });
    assert.equal(res.status, 204);
    assert.equal((await t.request(`/repos/${alice.login}/doomed`, { token: alice.token })).status, 404);
    assert.ok(!fs.existsSync(path.join(t.dataDir, 'repos', `${data.id}.git`)));
  });

  test('lists: /user/repos, /users/{username}/repos, /orgs/{org}/repos with visibility and Link', async () => {
    const carol = await createUser(t, ['repo', 'user', 'admin:org']);
    const octokit = t.octokit(carol.token);
    for (const name of ['c-one', 'c-two', 'c-three']) await octokit.rest.repos.createForAuthenticatedUser({ name });
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'c-private', private: true });
    const mine = await octokit.rest.repos.listForAuthenticatedUser({ per_page: 100 });
    assertMatchesOpenApi('GET', '/user/repos', 200, mine.data);
    assert.deepEqual(mine.data.map((r) => r.name), ['c-one', 'c-private', 'c-three', 'c-two']);
    const page = await t.request('/user/repos?per_page=2', { token: carol.token });
    assert.match(page.headers.get('link') ?? '', /rel="next".*rel="last"/);
    const publicOnly = await octokit.rest.repos.listForAuthenticatedUser({ visibility: 'public' });
    assert.ok(publicOnly.data.every((r) => !r.private));
    const theirs = await t.octokit(bob.token).rest.repos.listForUser({ username: carol.login });
    assertMatchesOpenApi('GET', '/users/{username}/repos', 200, theirs.data);
    assert.deepEqual(theirs.data.map((r) => r.name), ['c-one', 'c-three', 'c-two']);
    const own = await octokit.rest.repos.listForUser({ username: carol.login });
    assert.equal(own.data.length, 4);
    const conflict = await t.request('/user/repos?type=owner&visibility=public', { token: carol.token });
    assert.equal(conflict.status, 422);

    const org = await createOrg(t, carol.login);
    await octokit.rest.repos.createInOrg({ org: org.login, name: 'org-public' });
    await octokit.rest.repos.createInOrg({ org: org.login, name: 'org-private', private: true });
    const outsider = await t.octokit(bob.token).rest.repos.listForOrg({ org: org.login });
    assertMatchesOpenApi('GET', '/orgs/{org}/repos', 200, outsider.data);
    assert.deepEqual(outsider.data.map((r) => r.name), ['org-public']);
    const insider = await octokit.rest.repos.listForOrg({ org: org.login, sort: 'full_name' });
    assert.deepEqual(insider.data.map((r) => r.name), ['org-private', 'org-public']);
    assert.equal((await octokit.rest.repos.get({ owner: org.login, repo: 'org-private' })).data.organization?.login, org.login);
  });

  test('organization repositories need membership; the base permission governs members', async () => {
    const org = await createOrg(t, alice.login);
    const refused = await t.request(`/orgs/${org.login}/repos`, { method: 'POST', token: bob.token, json: { name: 'intruder' } });
    assert.equal(refused.status, 404);
    await t.octokit(alice.token).rest.orgs.setMembershipForUser({ org: org.login, username: bob.login, role: 'member' });
    const created = await t.octokit(bob.token).rest.repos.createInOrg({ org: org.login, name: 'member-made', private: true });
    assert.equal(created.status, 201);
    await t.octokit(alice.token).rest.repos.createInOrg({ org: org.login, name: 'owner-made', private: true });
    const seen = await t.octokit(bob.token).rest.repos.get({ owner: org.login, repo: 'owner-made' });
    assert.deepEqual(seen.data.permissions, { admin: false, maintain: false, push: false, triage: false, pull: true });
    await t.octokit(alice.token).rest.orgs.update({ org: org.login, default_repository_permission: 'write' });
    const writer = await t.octokit(bob.token).rest.repos.get({ owner: org.login, repo: 'owner-made' });
    assert.equal(writer.data.permissions?.push, true);
    await t.octokit(alice.token).rest.orgs.update({ org: org.login, default_repository_permission: 'none' });
    assert.equal((await t.request(`/repos/${org.login}/owner-made`, { token: bob.token })).status, 404);
  });

  test('topics: replace and read, validated', async () => {
    const octokit = t.octokit(alice.token);
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'topical' });
    const { data } = await octokit.rest.repos.replaceAllTopics({ owner: alice.login, repo: 'topical', names: ['Harbour', 'git', 'git'] });
    assert.deepEqual(data.names, ['harbour', 'git']);
    assert.deepEqual((await octokit.rest.repos.getAllTopics({ owner: alice.login, repo: 'topical' })).data.names, ['harbour', 'git']);
    assert.deepEqual((await octokit.rest.repos.get({ owner: alice.login, repo: 'topical' })).data.topics, ['harbour', 'git']);
    const bad = await t.request(`/repos/${alice.login}/topical/topics`, { method: 'PUT', token: alice.token, json: { names: ['no spaces'] } });
    assert.equal(bad.status, 422);
  });

  test('a pushed LICENSE file sets the license; GET /license shows it', async () => {
    const octokit = t.octokit(alice.token);
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'licensed', auto_init: true });
    assert.equal((await t.request(`/repos/${alice.login}/licensed/license`, { token: alice.token })).status, 404);
    const work = tempDir();
    const url = cloneUrl(t.baseUrl, alice.login, 'licensed', alice.login, alice.token);
    await gitOk(['clone', '-q', url, work]);
    fs.writeFileSync(path.join(work, 'LICENSE'), licenseBody('apache-2.0', { year: 2026, fullname: 'Alice' })!);
    await gitOk(['add', 'LICENSE'], { cwd: work });
    await gitOk(['commit', '-q', '-m', 'License'], { cwd: work });
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: work });
    assert.equal((await octokit.rest.repos.get({ owner: alice.login, repo: 'licensed' })).data.license?.key, 'apache-2.0');
    const { data } = await octokit.rest.licenses.getForRepo({ owner: alice.login, repo: 'licensed' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/license', 200, data);
    assert.equal(data.path, 'LICENSE');
    assert.equal(data.license?.spdx_id, 'Apache-2.0');
    assert.match(Buffer.from(data.content, 'base64').toString('utf8'), /Apache License/);
    fs.writeFileSync(path.join(work, 'LICENSE'), 'You may look but not touch.\n');
    await gitOk(['commit', '-q', '-am', 'Odd license'], { cwd: work });
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: work });
    assert.equal((await octokit.rest.repos.get({ owner: alice.login, repo: 'licensed' })).data.license?.key, 'other');
  });
});
