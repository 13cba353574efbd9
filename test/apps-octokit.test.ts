// An app written for upstream, unchanged: @octokit/app signs its own JWT (through
// @octokit/auth-app), lists its installations, takes an installation token and creates
// an issue — authored by the app's bot account — and reads a private repository of the
// installation; the same token is refused outside the installation and on an endpoint
// needing a permission the installation lacks. Its webhooks verify and dispatch through
// the app's own `app.webhooks` with the app's webhook secret.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { App } from '@octokit/app';
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { csrfIn, signedInAs } from './helpers/web.ts';
import { manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';
import { headerOf, Receiver, type Received } from './helpers/webhook-receiver.ts';

const PASSWORD = 'correct horse battery';
// The refusals below are expected: keep Octokit's request log out of the test output.
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const ENV = { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1', WHARF_WEBHOOK_RETRY_BASE_MS: '100', WHARF_WEBHOOK_POLL_MS: '200' };

describe('apps: @octokit/app and @octokit/auth-app unchanged', () => {
  const receiver = new Receiver();
  let t: TestServer;
  let alice: CreatedUser;
  let bot: ConvertedApp;
  let inside: CreatedRepo;
  let outside: CreatedRepo;
  let installationId: number;

  before(async () => {
    await receiver.start();
    t = await startTestServer({ env: ENV });
    alice = await createUser(t);
    const web = await signedInAs(t, alice.login, PASSWORD);
    inside = await createRepo(t, alice, { private: true });
    outside = await createRepo(t, alice, { private: true });
    bot = await registerAppByManifest(t, web, manifestOf('Harbour Pilot', {
      default_permissions: { issues: 'write', contents: 'read', metadata: 'read' }, hook_attributes: { url: receiver.url() },
    }));
    const page = await web.get(`/apps/${bot.slug}/installations/new`);
    const res = await web.post(`/apps/${bot.slug}/installations/new`, { authenticity_token: csrfIn(page.body), repository_selection: 'selected', [`repo_${inside.id}`]: '1' });
    assert.ok(res.status === 200 || res.status === 201, res.body.slice(0, 500));
    installationId = Number(/id="installation-id">(\d+)</.exec(res.body)![1]);
  });
  after(async () => { await t.close(); await receiver.stop(); });

  test('JWT → installations → installation token → an issue by the bot and a private read', async () => {
    const app = new App({ appId: bot.id, privateKey: bot.pem, Octokit: Octokit.defaults({ baseUrl: t.baseUrl, log: quiet }), log: quiet });
    const { data: me } = await app.octokit.request('GET /app');
    assert.equal(me?.slug, bot.slug);

    const seen: number[] = [];
    for await (const { installation } of app.eachInstallation.iterator()) seen.push(installation.id);
    assert.deepEqual(seen, [installationId]);

    const kit = await app.getInstallationOctokit(installationId);
    const issue = await kit.request('POST /repos/{owner}/{repo}/issues', { owner: alice.login, repo: inside.repo, title: 'filed by the app' });
    assert.equal(issue.status, 201);
    assert.equal(issue.data.user?.login, `${bot.slug}[bot]`);
    assert.equal(issue.data.user?.type, 'Bot');
    const readme = await kit.request('GET /repos/{owner}/{repo}/readme', { owner: alice.login, repo: inside.repo });
    assert.equal(readme.status, 200);

    // Outside the installation a private repository does not exist for the token.
    await assert.rejects(kit.request('GET /repos/{owner}/{repo}', { owner: alice.login, repo: outside.repo }), (e: { status: number }) => e.status === 404);
    // Administration is a permission the installation was not given.
    await assert.rejects(kit.request('PATCH /repos/{owner}/{repo}', { owner: alice.login, repo: inside.repo, description: 'no' }),
      (e: { status: number; message: string }) => e.status === 403 && /Resource not accessible by integration/.test(e.message));
  });

  test('the app\'s webhook, verified and dispatched by app.webhooks with the app\'s secret; a forged one refused', async () => {
    const app = new App({
      appId: bot.id, privateKey: bot.pem, webhooks: { secret: bot.webhook_secret! }, log: quiet,
      Octokit: Octokit.defaults({ baseUrl: t.baseUrl, log: quiet }),
    });
    const opened: { title: string; sender: string; senderType: string; via: string | undefined; installation: number | undefined }[] = [];
    app.webhooks.on('issues.opened', ({ payload }) => {
      opened.push({
        title: payload.issue.title, sender: payload.sender.login, senderType: payload.sender.type,
        via: payload.issue.performed_via_github_app?.slug, installation: payload.installation?.id,
      });
    });
    const isIssue = (r: Received) => headerOf(r, 'x-github-event') === 'issues';
    const [r] = await receiver.waitFor(1, isIssue);
    const event = { id: headerOf(r!, 'x-github-delivery')!, name: 'issues', payload: r!.body, signature: headerOf(r!, 'x-hub-signature-256')! };
    await app.webhooks.verifyAndReceive(event);
    assert.deepEqual(opened, [{ title: 'filed by the app', sender: `${bot.slug}[bot]`, senderType: 'Bot', via: bot.slug, installation: installationId }]);
    await assert.rejects(app.webhooks.verifyAndReceive({ ...event, payload: r!.body.replace('filed by the app', 'forged') }));
    assert.equal(opened.length, 1, 'nothing dispatched for a body the signature does not cover');
  });

  test('@octokit/auth-app on a plain Octokit: app and installation authentication', async () => {
    const kit = new Octokit({ baseUrl: t.baseUrl, authStrategy: createAppAuth, auth: { appId: bot.id, privateKey: bot.pem, installationId } });
    const { data } = await kit.request('GET /installation/repositories');
    assert.deepEqual(data.repositories.map((r: { name: string }) => r.name), [inside.repo]);
    const auth = createAppAuth({ appId: bot.id, privateKey: bot.pem, request: kit.request });
    const token = await auth({ type: 'installation', installationId });
    assert.equal(token.tokenType, 'installation');
    assert.deepEqual(token.permissions, { issues: 'write', contents: 'read', metadata: 'read' });
  });
});
