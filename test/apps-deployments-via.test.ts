// Deployments and deployment statuses an app creates with its installation token name
// the app in performed_via_github_app (on create, on every later read, in lists and in
// the webhook payloads); the user's own token leaves it null.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepoWithHead, type CreatedRepo } from './factories/repos.ts';
import { signedInAs } from './helpers/web.ts';
import { appJwt, installOn, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';
import { headerOf, Receiver, type Received } from './helpers/webhook-receiver.ts';
import { assertMatchesWebhookSchema } from './helpers/webhook-schema.ts';

const PASSWORD = 'correct horse battery';
const ENV = { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1', WHARF_WEBHOOK_RETRY_BASE_MS: '100', WHARF_WEBHOOK_POLL_MS: '200' };

interface Via { id: number; performed_via_github_app: { id: number; slug: string } | null }

describe('apps: performed_via_github_app on deployments', () => {
  const receiver = new Receiver();
  let t: TestServer;
  let alice: CreatedUser;
  let bot: ConvertedApp;
  let repo: CreatedRepo;
  let token: string;

  const path = (rest = '') => `/repos/${alice.login}/${repo.repo}/deployments${rest}`;
  async function json<T>(res: Response, status: number): Promise<T> {
    assert.equal(res.status, status, await res.clone().text());
    return (await res.json()) as T;
  }

  before(async () => {
    await receiver.start();
    t = await startTestServer({ env: ENV });
    alice = await createUser(t);
    const web = await signedInAs(t, alice.login, PASSWORD);
    repo = await createRepoWithHead(t, alice, { private: true });
    bot = await registerAppByManifest(t, web, manifestOf('Ship Pilot', {
      hook_attributes: { url: receiver.url() },
      // deployments write alone, as upstream: no push access (contents write) asked.
      default_permissions: { deployments: 'write' },
      default_events: ['deployment', 'deployment_status'],
    }));
    const installationId = await installOn(web, bot.slug, [repo.id]);
    const minted = await t.request(`/app/installations/${installationId}/access_tokens`, {
      method: 'POST', headers: { authorization: `Bearer ${appJwt(bot.pem, bot.id, Date.now())}` },
    });
    token = (await json<{ token: string }>(minted, 201)).token;
  });
  after(async () => { await t.close(); await receiver.stop(); });

  test('an installation token: the deployment and its status name the app, on create and on every read', async () => {
    const created = await json<Via>(await t.request(path(), { method: 'POST', token, json: { ref: 'main', auto_merge: false, required_contexts: [] } }), 201);
    assert.equal(created.performed_via_github_app?.slug, bot.slug);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/deployments', 201, created);
    const status = await json<Via>(await t.request(path(`/${created.id}/statuses`), { method: 'POST', token, json: { state: 'success' } }), 201);
    assert.equal(status.performed_via_github_app?.id, bot.id);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/deployments/{deployment_id}/statuses', 201, status);

    const read = await json<Via>(await t.request(path(`/${created.id}`), { token: alice.token }), 200);
    assert.equal(read.performed_via_github_app?.slug, bot.slug);
    const list = await json<Via[]>(await t.request(path(), { token: alice.token }), 200);
    assert.equal(list.find((d) => d.id === created.id)?.performed_via_github_app?.slug, bot.slug);
    const statuses = await json<Via[]>(await t.request(path(`/${created.id}/statuses`), { token: alice.token }), 200);
    assert.equal(statuses[0]?.performed_via_github_app?.slug, bot.slug);
  });

  test("the user's own token: null; a person's status on the app's deployment is the person's alone", async () => {
    const mine = await json<Via>(await t.request(path(), { method: 'POST', token: alice.token, json: { ref: 'main', auto_merge: false, required_contexts: [], environment: 'qa' } }), 201);
    assert.equal(mine.performed_via_github_app, null);
    const appMade = await json<Via>(await t.request(path(), { method: 'POST', token, json: { ref: 'main', auto_merge: false, required_contexts: [], environment: 'staging' } }), 201);
    const status = await json<Via>(await t.request(path(`/${appMade.id}/statuses`), { method: 'POST', token: alice.token, json: { state: 'pending' } }), 201);
    assert.equal(status.performed_via_github_app, null);
  });

  test('webhooks of the app\'s deployments name the app, as upstream\'s schemas', async () => {
    type Payload = { deployment: Via & { environment: string }; deployment_status?: Via };
    const payloadOf = (r: Received) => JSON.parse(r.body) as Payload;
    const [dep] = await receiver.waitFor(1, (r) => headerOf(r, 'x-github-event') === 'deployment' && payloadOf(r).deployment.environment === 'production');
    const body = JSON.parse(dep!.body) as Payload & Record<string, unknown>;
    assert.equal(body.deployment.performed_via_github_app?.slug, bot.slug);
    assertMatchesWebhookSchema('deployment', 'created', body);
    const [st] = await receiver.waitFor(1, (r) => headerOf(r, 'x-github-event') === 'deployment_status' && payloadOf(r).deployment_status?.performed_via_github_app !== null);
    const statusBody = JSON.parse(st!.body) as Payload & Record<string, unknown>;
    assert.equal(statusBody.deployment_status?.performed_via_github_app?.slug, bot.slug);
    assertMatchesWebhookSchema('deployment_status', 'created', statusBody);
  });
});
