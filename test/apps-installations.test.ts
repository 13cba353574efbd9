// Installations: the install page (a user's account, an organization its owner chooses;
// all or selected repositories), the app's JWT endpoints over its installations
// (list with since and pages, lookups by account and repository, suspend, delete), the
// installation access tokens (an hour long, narrowed never widened, refused while
// suspended, revoked), and what a user sees and changes of installations.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { appJwt, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';

const PASSWORD = 'correct horse battery';

interface InstallationBody {
  id: number; app_id: number; app_slug: string; target_type: string; repository_selection: string;
  account: { login: string }; permissions: Record<string, string>; events: string[]; suspended_at: string | null;
  access_tokens_url: string; client_id: string; contact_email: string | null;
}
interface TokenBody { token: string; expires_at: string; permissions: Record<string, string>; repository_selection: string; repositories?: { name: string }[] }
interface RepoList { total_count: number; repository_selection: string; repositories: { name: string; id: number }[] }

/** Installs through the page as `web`; returns the installation id. */
async function installViaPage(web: WebClient, slug: string, form: Record<string, string>): Promise<number> {
  const page = await web.get(`/apps/${slug}/installations/new${form.target ? `?target=${form.target}` : ''}`);
  assert.equal(page.status, 200, page.body.slice(0, 1000));
  const res = await web.post(`/apps/${slug}/installations/new`, { authenticity_token: csrfIn(page.body), ...form });
  assert.ok(res.status === 201 || res.status === 200, res.body.slice(0, 2000));
  return Number(/id="installation-id">(\d+)</.exec(res.body)![1]);
}

describe('apps: installations and installation tokens', () => {
  const clock = new TestClock(Date.now());
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let org: { login: string; id: number };
  let bot: ConvertedApp;
  let other: ConvertedApp;
  let secret: CreatedRepo;
  let open: CreatedRepo;
  let orgRepo: CreatedRepo;
  let installationId: number;

  const jwtOf = (a: ConvertedApp) => ({ authorization: `Bearer ${appJwt(a.pem, a.id, clock.now().getTime())}` });
  const asApp = (a: ConvertedApp, path: string, init: RequestInit & { json?: unknown } = {}) =>
    t.request(path, { ...init, headers: { ...jwtOf(a), ...(init.headers as Record<string, string> | undefined) } });
  async function newToken(body: unknown = {}): Promise<Response> {
    return asApp(bot, `/app/installations/${installationId}/access_tokens`, { method: 'POST', json: body });
  }

  before(async () => {
    t = await startTestServer({ clock });
    alice = await createUser(t);
    bob = await createUser(t);
    for (const u of [alice, bob]) await setPassword(t, u.login, PASSWORD);
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    await aliceWeb.signIn(alice.login, PASSWORD);
    await bobWeb.signIn(bob.login, PASSWORD);
    org = await createOrg(t, alice.login);
    secret = await createRepo(t, alice, { private: true });
    open = await createRepo(t, alice);
    orgRepo = await createRepo(t, alice, { org: org.login });
    bot = await registerAppByManifest(t, aliceWeb, manifestOf('Dock Bot', { public: true }));
    other = await registerAppByManifest(t, aliceWeb, manifestOf('Private Crane'));
    installationId = await installViaPage(aliceWeb, bot.slug, { repository_selection: 'selected', [`repo_${secret.id}`]: '1' });
  });
  after(async () => { await t.close(); });

  test('the app lists and reads its installations with its JWT', async () => {
    const list = await asApp(bot, '/app/installations');
    assert.equal(list.status, 200);
    const [inst] = (await list.json()) as InstallationBody[];
    assert.equal(inst!.id, installationId);
    assert.equal(inst!.app_id, bot.id);
    assert.equal(inst!.app_slug, 'dock-bot');
    assert.equal(inst!.client_id, bot.client_id, "the app's client id");
    assert.equal(inst!.contact_email, null, 'Wharf keeps no contact address');
    assert.equal(inst!.account.login, alice.login);
    assert.equal(inst!.target_type, 'User');
    assert.equal(inst!.repository_selection, 'selected');
    assert.deepEqual(inst!.permissions, { metadata: 'read', issues: 'write', contents: 'read' });
    assert.deepEqual(inst!.events, ['issues']);
    assert.equal(inst!.access_tokens_url, `${t.baseUrl}/app/installations/${installationId}/access_tokens`);
    const future = new Date(clock.now().getTime() + 86_400_000).toISOString();
    assert.deepEqual(await (await asApp(bot, `/app/installations?since=${future}`)).json(), []);
    assert.equal((await asApp(bot, '/app/installations?since=yesterday')).status, 422);
    assert.equal((await asApp(bot, `/app/installations/${installationId}`)).status, 200);
    assert.equal((await asApp(other, `/app/installations/${installationId}`)).status, 404);
    assert.deepEqual(await (await asApp(other, '/app/installations')).json(), []);
    const { data } = await t.octokit(appJwt(bot.pem, bot.id, clock.now().getTime())).rest.apps.getUserInstallation({ username: alice.login });
    assert.equal(data.id, installationId);
  });

  test('lookups by repository, user and organization answer only where the app is installed', async () => {
    assert.equal((await asApp(bot, `/repos/${alice.login}/${secret.repo}/installation`)).status, 200);
    assert.equal((await asApp(bot, `/repos/${alice.login}/${open.repo}/installation`)).status, 404);
    assert.equal((await asApp(bot, `/orgs/${org.login}/installation`)).status, 404);
    assert.equal((await asApp(bot, `/users/${bob.login}/installation`)).status, 404);
    assert.equal((await asApp(bot, `/orgs/${alice.login}/installation`)).status, 404, 'a user is no organization');
    assert.equal((await t.request(`/users/${alice.login}/installation`, { token: alice.token })).status, 401);
  });

  test('an access token: an hour long, the installation\'s permissions and repositories', async () => {
    const res = await newToken();
    assert.equal(res.status, 201);
    const body = (await res.json()) as TokenBody;
    assert.match(body.token, /^whs_[A-Za-z0-9]{36}$/);
    assert.equal(Date.parse(body.expires_at), Math.floor(clock.now().getTime() / 1000) * 1000 + 3_600_000);
    assert.deepEqual(body.permissions, { metadata: 'read', issues: 'write', contents: 'read' });
    assert.equal(body.repository_selection, 'selected');
    assert.equal('repositories' in body, false);
    const repos = await t.request('/installation/repositories', { headers: { authorization: `token ${body.token}` } });
    assert.equal(repos.status, 200);
    const listed = (await repos.json()) as RepoList;
    assert.equal(listed.total_count, 1);
    assert.deepEqual(listed.repositories.map((r) => r.name), [secret.repo]);
    clock.advance(3_600_000);
    const expired = await t.request('/installation/repositories', { headers: { authorization: `token ${body.token}` } });
    assert.equal(expired.status, 401);
  });

  test('tokens narrow but never widen: repositories, repository_ids and permissions', async () => {
    const narrowed = await newToken({ repository_ids: [secret.id], permissions: { issues: 'read' } });
    assert.equal(narrowed.status, 201);
    const body = (await narrowed.json()) as TokenBody;
    assert.deepEqual(body.permissions, { issues: 'read', metadata: 'read' }, 'metadata comes with every token');
    assert.deepEqual(body.repositories!.map((r) => r.name), [secret.repo]);
    for (const [bad, message] of [
      [{ repositories: [open.repo] }, 'There is at least one repository that does not exist or is not accessible to the parent installation.'],
      [{ repository_ids: [orgRepo.id] }, 'There is at least one repository that does not exist or is not accessible to the parent installation.'],
      [{ permissions: { administration: 'write' } }, 'The permissions requested are not granted to this installation.'],
      [{ permissions: { contents: 'write' } }, 'The permissions requested are not granted to this installation.'],
      [{ permissions: { issues: 'owner' } }, 'Validation Failed'],
    ] as const) {
      const res = await newToken(bad);
      assert.equal(res.status, 422, JSON.stringify(bad));
      assert.equal(((await res.json()) as { message: string }).message, message);
    }
    assert.equal((await newToken({ repository_ids: 'x' })).status, 422);
    assert.equal((await asApp(bot, '/app/installations/999999/access_tokens', { method: 'POST', json: {} })).status, 404);
    assert.equal((await asApp(other, `/app/installations/${installationId}/access_tokens`, { method: 'POST', json: {} })).status, 404);
  });

  test('suspended: tokens are refused with 403 and no new ones are made; unsuspended they work again', async () => {
    const { token } = (await (await newToken()).json()) as TokenBody;
    const use = () => t.request('/installation/repositories', { headers: { authorization: `token ${token}` } });
    assert.equal((await asApp(bot, `/app/installations/${installationId}/suspended`, { method: 'PUT' })).status, 204);
    const got = (await (await asApp(bot, `/app/installations/${installationId}`)).json()) as InstallationBody;
    assert.equal(got.suspended_at, new Date(Math.floor(clock.now().getTime() / 1000) * 1000).toISOString().replace('.000', ''));
    const refused = await use();
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { message: string }).message, 'This installation has been suspended');
    assert.equal((await newToken()).status, 403);
    assert.equal((await asApp(bot, `/app/installations/${installationId}/suspended`, { method: 'DELETE' })).status, 204);
    assert.equal((await use()).status, 200);
  });

  test('DELETE /installation/token revokes the token in use; other credentials are refused there', async () => {
    const { token } = (await (await newToken()).json()) as TokenBody;
    const auth = { authorization: `token ${token}` };
    assert.equal((await t.request('/installation/token', { method: 'DELETE', headers: auth })).status, 204);
    assert.equal((await t.request('/installation/repositories', { headers: auth })).status, 401);
    assert.equal((await t.request('/installation/repositories', { token: alice.token })).status, 403);
    const jwt = await asApp(bot, '/installation/repositories');
    assert.equal(jwt.status, 401);
  });

  test('users see installations on their accounts and edit a selection', async () => {
    const mine = (await (await t.request('/user/installations', { token: alice.token })).json()) as { total_count: number; installations: InstallationBody[] };
    assert.equal(mine.total_count, 1);
    assert.equal(mine.installations[0]!.id, installationId);
    const bobs = (await (await t.request('/user/installations', { token: bob.token })).json()) as { total_count: number };
    assert.equal(bobs.total_count, 0);
    const path = `/user/installations/${installationId}/repositories`;
    assert.deepEqual(((await (await t.request(path, { token: alice.token })).json()) as RepoList).repositories.map((r) => r.name), [secret.repo]);
    assert.equal((await t.request(path, { token: bob.token })).status, 404);
    assert.equal((await t.request(`${path}/${open.id}`, { method: 'PUT', token: bob.token })).status, 404);
    assert.equal((await t.request(`${path}/${orgRepo.id}`, { method: 'PUT', token: alice.token })).status, 404, 'another account\'s repository');
    assert.equal((await t.request(`${path}/${open.id}`, { method: 'PUT', token: alice.token })).status, 204);
    const { token } = (await (await newToken()).json()) as TokenBody;
    const reached = (await (await t.request('/installation/repositories', { headers: { authorization: `token ${token}` } })).json()) as RepoList;
    assert.deepEqual(reached.repositories.map((r) => r.name).sort(), [secret.repo, open.repo].sort());
    assert.equal((await t.request(`${path}/${secret.id}`, { method: 'DELETE', token: alice.token })).status, 204);
    const last = await t.request(`${path}/${open.id}`, { method: 'DELETE', token: alice.token });
    assert.equal(last.status, 422, 'the last selected repository stays');
    assert.equal((await asApp(bot, `/repos/${alice.login}/${secret.repo}/installation`)).status, 404);
  });

  test('organizations: installed by their owner on all repositories; a private app only on its owner\'s account', async () => {
    assert.equal((await bobWeb.get(`/apps/${bot.slug}/installations/new?target=${org.login}`)).status, 404);
    const orgInstallation = await installViaPage(aliceWeb, bot.slug, { target: org.login, repository_selection: 'all' });
    const found = (await (await asApp(bot, `/orgs/${org.login}/installation`)).json()) as InstallationBody;
    assert.equal(found.id, orgInstallation);
    assert.equal(found.target_type, 'Organization');
    assert.equal((await asApp(bot, `/repos/${org.login}/${orgRepo.repo}/installation`)).status, 200);
    assert.equal((await bobWeb.get(`/apps/${other.slug}/installations/new`)).status, 404);
    assert.equal((await aliceWeb.get(`/apps/${other.slug}/installations/new?target=${org.login}`)).status, 404);
    const page = await aliceWeb.get(`/apps/${bot.slug}/installations/new`);
    const forged = await aliceWeb.post(`/apps/${bot.slug}/installations/new`, { repository_selection: 'all' });
    assert.equal(forged.status, 403);
    const none = await aliceWeb.post(`/apps/${bot.slug}/installations/new`, { authenticity_token: csrfIn(page.body), repository_selection: 'selected' });
    assert.equal(none.status, 422);
    assert.equal((await asApp(bot, `/app/installations/${orgInstallation}`, { method: 'DELETE' })).status, 204);
    assert.equal((await asApp(bot, `/app/installations/${orgInstallation}`)).status, 404);
    assert.equal((await asApp(bot, `/orgs/${org.login}/installation`)).status, 404);
    const count = (await (await asApp(bot, '/app')).json()) as { installations_count: number };
    assert.equal(count.installations_count, 1);
  });

  test('GET /app/installations pages: per_page, a Link header to the next page, the second page', async () => {
    const bobs = await installViaPage(bobWeb, bot.slug, { repository_selection: 'all' });
    const first = await asApp(bot, '/app/installations?per_page=1');
    assert.equal(first.status, 200);
    assert.deepEqual(((await first.json()) as InstallationBody[]).map((i) => i.id), [installationId]);
    const links = Object.fromEntries([...(first.headers.get('link') ?? '').matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [m[2]!, m[1]!]));
    assert.ok(links.next && links.last, `Link: ${first.headers.get('link')}`);
    assert.equal(new URL(links.next).searchParams.get('page'), '2');
    assert.equal(new URL(links.last).searchParams.get('page'), '2');
    const second = await asApp(bot, new URL(links.next).pathname + new URL(links.next).search);
    assert.equal(second.status, 200);
    assert.deepEqual(((await second.json()) as InstallationBody[]).map((i) => [i.id, i.account.login]), [[bobs, bob.login]]);
    assert.match(second.headers.get('link') ?? '', /rel="prev"/);
    assert.doesNotMatch(second.headers.get('link') ?? '', /rel="next"/);
  });
});
