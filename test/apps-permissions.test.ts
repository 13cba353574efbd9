// What an installation token may do: every route declares the permission it needs
// (checked once in src/http: "Resource not accessible by integration"), and wherever a
// repository is located the token sees its installation's repositories (narrowed by the
// token) with the level its permissions give, public ones read-only, others not at all.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { csrfIn, signedInAs } from './helpers/web.ts';
import { cloneUrl, git, tempDir } from './helpers/git.ts';
import { appJwt, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';

const PASSWORD = 'correct horse battery';

describe('apps: what installation tokens may do', () => {
  const clock = new TestClock(Date.now());
  let t: TestServer;
  let alice: CreatedUser;
  let bot: ConvertedApp;
  let installed: CreatedRepo;
  let alsoInstalled: CreatedRepo;
  let notInstalled: CreatedRepo;
  let open: CreatedRepo;
  let installationId: number;

  async function token(body: unknown = {}): Promise<string> {
    const res = await t.request(`/app/installations/${installationId}/access_tokens`, {
      method: 'POST', json: body, headers: { authorization: `Bearer ${appJwt(bot.pem, bot.id, clock.now().getTime())}` },
    });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { token: string }).token;
  }
  const as = (tok: string, path: string, init: RequestInit & { json?: unknown } = {}) =>
    t.request(path, { ...init, headers: { authorization: `token ${tok}` } });

  before(async () => {
    t = await startTestServer({ clock });
    alice = await createUser(t);
    const web = await signedInAs(t, alice.login, PASSWORD);
    installed = await createRepo(t, alice, { private: true });
    alsoInstalled = await createRepo(t, alice, { private: true });
    notInstalled = await createRepo(t, alice, { private: true });
    open = await createRepo(t, alice);
    bot = await registerAppByManifest(t, web, manifestOf('Gate Bot'));
    const page = await web.get(`/apps/${bot.slug}/installations/new`);
    const res = await web.post(`/apps/${bot.slug}/installations/new`, {
      authenticity_token: csrfIn(page.body), repository_selection: 'selected', [`repo_${installed.id}`]: '1', [`repo_${alsoInstalled.id}`]: '1',
    });
    installationId = Number(/id="installation-id">(\d+)</.exec(res.body)![1]);
  });
  after(async () => { await t.close(); });

  test('every registered route declares what an installation token needs', () => {
    const undeclared = t.server.app.routeTable.filter((r) => r.appPermission === null).map((r) => `${r.method} ${r.url} (${r.operationId})`);
    assert.deepEqual(undeclared, []);
    const need = (method: string, url: string) => t.server.app.routeTable.find((r) => r.method.split(',').includes(method) && r.url === url)?.appPermission;
    assert.deepEqual(need('POST', '/repos/:owner/:repo/issues'), { issues: 'write' });
    assert.deepEqual(need('GET', '/repos/:owner/:repo/issues'), { issues: 'read' });
    assert.deepEqual(need('GET', '/repos/:owner/:repo/contents/*'), { contents: 'read' });
    assert.equal(need('GET', '/user'), 'none');
    assert.equal(need('GET', '/notifications'), 'none');
  });

  test('the installation\'s repositories with its permissions; private ones outside it do not exist', async () => {
    const tok = await token();
    assert.equal((await as(tok, `/repos/${alice.login}/${installed.repo}`)).status, 200);
    assert.equal((await as(tok, `/repos/${alice.login}/${installed.repo}/issues`)).status, 200);
    assert.equal((await as(tok, `/repos/${alice.login}/${notInstalled.repo}`)).status, 404);
    assert.equal((await as(tok, `/repos/${alice.login}/${notInstalled.repo}/issues`)).status, 404);
    assert.equal((await as(tok, `/repos/${alice.login}/${open.repo}`)).status, 200, 'public repositories are readable');
    const names = ((await (await as(tok, `/users/${alice.login}/repos?per_page=100`)).json()) as { name: string }[]).map((r) => r.name).sort();
    assert.deepEqual(names, [installed.repo, alsoInstalled.repo, open.repo].sort());
  });

  test('a permission the installation lacks, or a route not for apps: 403 Resource not accessible by integration', async () => {
    const tok = await token();
    for (const [path, init] of [
      [`/repos/${alice.login}/${installed.repo}/hooks`, { method: 'POST', json: { config: { url: 'https://x.example' } } }],
      ['/user', {}],
      ['/notifications', {}],
      [`/repos/${alice.login}/${installed.repo}/collaborators/${alice.login}`, { method: 'PUT', json: {} }],
    ] as const) {
      const res = await as(tok, path, init as RequestInit);
      assert.equal(res.status, 403, path);
      assert.equal(((await res.json()) as { message: string }).message, 'Resource not accessible by integration');
    }
  });

  test('work is attributed to the app\'s bot account; an installation has a rate-limit budget of its own', async () => {
    const tok = await token();
    const created = await as(tok, `/repos/${alice.login}/${installed.repo}/issues`, { method: 'POST', json: { title: 'Found by the bot' } });
    assert.equal(created.status, 201, await created.clone().text());
    const issue = (await created.json()) as { user: { login: string; type: string; id: number } };
    assert.equal(issue.user.login, 'gate-bot[bot]');
    assert.equal(issue.user.type, 'Bot');
    const profile = (await (await t.request(`/users/${encodeURIComponent('gate-bot[bot]')}`)).json()) as { id: number; type: string };
    assert.deepEqual([profile.id, profile.type], [issue.user.id, 'Bot']);
    assert.equal((await as(tok, `/repos/${alice.login}/${notInstalled.repo}/issues`, { method: 'POST', json: { title: 'x' } })).status, 404);
    const readOnly = await token({ permissions: { issues: 'read' } });
    assert.equal((await as(readOnly, `/repos/${alice.login}/${installed.repo}/issues`, { method: 'POST', json: { title: 'x' } })).status, 403);

    const used = async (res: Response) => Number(res.headers.get('x-ratelimit-used'));
    const aliceBefore = await used(await t.request('/user', { token: alice.token }));
    const first = await used(await as(tok, '/installation/repositories'));
    const second = await used(await as(tok, '/installation/repositories'));
    assert.equal(second, first + 1);
    assert.equal(await used(await t.request('/user', { token: alice.token })), aliceBefore + 1, 'the installation spent none of alice\'s budget');
    const other = await token();
    assert.equal(await used(await as(other, '/installation/repositories')), second + 1, 'tokens of one installation share its budget');
  });

  test('git: an installation token clones its repositories (x-access-token) but may not push without contents write', async () => {
    const tok = await token();
    const dir = tempDir('wharf-app-clone-');
    const cloned = await git(['clone', '-q', cloneUrl(t.baseUrl, alice.login, installed.repo, 'x-access-token', tok), dir]);
    assert.equal(cloned.code, 0, cloned.stderr);
    const other = await git(['clone', '-q', cloneUrl(t.baseUrl, alice.login, notInstalled.repo, 'x-access-token', tok), tempDir('wharf-app-clone-')]);
    assert.notEqual(other.code, 0);
    await git(['-c', 'user.name=bot', '-c', 'user.email=bot@example.com', 'commit', '-q', '--allow-empty', '-m', 'bot'], { cwd: dir });
    const pushed = await git(['push', '-q', 'origin', 'HEAD'], { cwd: dir });
    assert.notEqual(pushed.code, 0, 'contents is read-only for this app');
  });

  test('a bot account is no user account: the admin API does not delete it', async () => {
    const res = await t.request(`/admin/users/${encodeURIComponent('gate-bot[bot]')}`, { method: 'DELETE', token: ADMIN_TOKEN });
    assert.equal(res.status, 404);
    assert.equal((await t.request(`/apps/${bot.slug}`, { token: alice.token })).status, 200);
  });

  test('a narrowed token: fewer repositories, fewer permissions', async () => {
    const tok = await token({ repository_ids: [installed.id], permissions: { contents: 'read' } });
    assert.equal((await as(tok, `/repos/${alice.login}/${installed.repo}`)).status, 200);
    assert.equal((await as(tok, `/repos/${alice.login}/${alsoInstalled.repo}`)).status, 404);
    const issues = await as(tok, `/repos/${alice.login}/${installed.repo}/issues`);
    assert.equal(issues.status, 403);
    const listed = (await (await as(tok, '/installation/repositories')).json()) as { total_count: number; repository_selection: string };
    assert.deepEqual(listed, { ...listed, total_count: 1, repository_selection: 'selected' });
  });
});
