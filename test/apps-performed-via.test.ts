// Work an app does through its tokens names the app: issues, comments and timeline
// events made with an installation token (or a user-to-server token) show the App record
// in performed_via_github_app, stored with the record so every later read shows it;
// the same work with the user's own token shows null. The webhook of an installation
// token's work is sent by the app's bot.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { signedInAs } from './helpers/web.ts';
import { appJwt, authorizeCode, installOn, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';
import { headerOf, Receiver, type Received } from './helpers/webhook-receiver.ts';
import { assertMatchesWebhookSchema } from './helpers/webhook-schema.ts';

const PASSWORD = 'correct horse battery';
const CALLBACK = 'https://via.example/callback';
const ENV = { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1', WHARF_WEBHOOK_RETRY_BASE_MS: '100', WHARF_WEBHOOK_POLL_MS: '200' };

interface Via { performed_via_github_app: { id: number; slug: string; name: string; owner: { login: string } | null } | null }
interface IssueBody extends Via { number: number; user: { login: string; type: string } }
interface CommentBody extends Via { id: number; user: { login: string } }
interface EventBody extends Via { event: string; actor: { login: string } | null }

describe('apps: performed_via_github_app', () => {
  const receiver = new Receiver();
  let t: TestServer;
  let alice: CreatedUser;
  let bot: ConvertedApp;
  let repo: CreatedRepo;
  let installationToken: string;
  let userToServerToken: string;

  const issues = () => `/repos/${alice.login}/${repo.repo}/issues`;
  async function json<T>(res: Response, status: number): Promise<T> {
    assert.equal(res.status, status, await res.clone().text());
    return (await res.json()) as T;
  }

  before(async () => {
    await receiver.start();
    t = await startTestServer({ env: ENV });
    alice = await createUser(t);
    const web = await signedInAs(t, alice.login, PASSWORD);
    repo = await createRepo(t, alice, { private: true });
    bot = await registerAppByManifest(t, web, manifestOf('Via Crane', {
      hook_attributes: { url: receiver.url() }, callback_urls: [CALLBACK], default_events: ['issues', 'issue_comment'],
    }));
    const installationId = await installOn(web, bot.slug, [repo.id]);
    const minted = await t.request(`/app/installations/${installationId}/access_tokens`, {
      method: 'POST', headers: { authorization: `Bearer ${appJwt(bot.pem, bot.id, Date.now())}` },
    });
    installationToken = (await json<{ token: string }>(minted, 201)).token;
    const exchanged = await t.request('/login/oauth/access_token', {
      method: 'POST', headers: { accept: 'application/json' },
      json: { client_id: bot.client_id, client_secret: bot.client_secret, code: await authorizeCode(web, bot.client_id, CALLBACK) },
    });
    userToServerToken = (await json<{ access_token: string }>(exchanged, 200)).access_token;
  });
  after(async () => { await t.close(); await receiver.stop(); });

  test('an installation token: the issue, its comment and its events name the app; the bot is the author', async () => {
    const issue = await json<IssueBody>(await t.request(issues(), { method: 'POST', token: installationToken, json: { title: 'by the app' } }), 201);
    assert.equal(issue.user.login, `${bot.slug}[bot]`);
    assert.equal(issue.performed_via_github_app?.slug, bot.slug);
    assert.equal(issue.performed_via_github_app?.id, bot.id);
    assert.equal(issue.performed_via_github_app?.owner?.login, alice.login);
    const comment = await json<CommentBody>(await t.request(`${issues()}/${issue.number}/comments`, {
      method: 'POST', token: installationToken, json: { body: 'the app speaks' },
    }), 201);
    assert.equal(comment.performed_via_github_app?.slug, bot.slug);
    assert.equal((await json<IssueBody>(await t.request(`${issues()}/${issue.number}`, { method: 'PATCH', token: installationToken, json: { state: 'closed' } }), 200))
      .performed_via_github_app?.slug, bot.slug, 'the issue keeps its creator app');

    // Read back later by the owner, one by one and in lists: stored, not taken from the caller.
    assert.equal((await json<IssueBody>(await t.request(`${issues()}/${issue.number}`, { token: alice.token }), 200)).performed_via_github_app?.slug, bot.slug);
    const listed = await json<IssueBody[]>(await t.request(`${issues()}?state=all`, { token: alice.token }), 200);
    assert.equal(listed.find((i) => i.number === issue.number)?.performed_via_github_app?.slug, bot.slug);
    const comments = await json<CommentBody[]>(await t.request(`${issues()}/${issue.number}/comments`, { token: alice.token }), 200);
    assert.equal(comments[0]?.performed_via_github_app?.slug, bot.slug);
    const events = await json<EventBody[]>(await t.request(`${issues()}/${issue.number}/events`, { token: alice.token }), 200);
    const closed = events.find((e) => e.event === 'closed');
    assert.equal(closed?.actor?.login, `${bot.slug}[bot]`);
    assert.equal(closed?.performed_via_github_app?.slug, bot.slug);
  });

  test('the user\'s own token: null everywhere', async () => {
    const issue = await json<IssueBody>(await t.request(issues(), { method: 'POST', token: alice.token, json: { title: 'by alice', labels: ['bug'] } }), 201);
    assert.equal(issue.performed_via_github_app, null);
    const comment = await json<CommentBody>(await t.request(`${issues()}/${issue.number}/comments`, { method: 'POST', token: alice.token, json: { body: 'me' } }), 201);
    assert.equal(comment.performed_via_github_app, null);
    const events = await json<EventBody[]>(await t.request(`${issues()}/${issue.number}/events`, { token: alice.token }), 200);
    assert.equal(events.find((e) => e.event === 'labeled')?.performed_via_github_app, null);
  });

  test('a user-to-server token: the user is the author, the app is named', async () => {
    const issue = await json<IssueBody>(await t.request(issues(), { method: 'POST', token: userToServerToken, json: { title: 'alice through the app' } }), 201);
    assert.equal(issue.user.login, alice.login);
    assert.equal(issue.performed_via_github_app?.slug, bot.slug);
  });

  test('webhooks of the app\'s work: sent by the bot, the issue and comment naming the app, as upstream\'s schemas', async () => {
    const payloadOf = (r: Received) => JSON.parse(r.body) as Record<string, unknown> & {
      sender: { login: string; type: string }; issue: IssueBody & { title: string }; comment?: CommentBody;
    };
    const opened = await receiver.waitFor(1, (r) => headerOf(r, 'x-github-event') === 'issues' && payloadOf(r).issue.title === 'by the app');
    const body = payloadOf(opened[0]!);
    assert.equal(body.action, 'opened');
    assert.deepEqual([body.sender.login, body.sender.type], [`${bot.slug}[bot]`, 'Bot']);
    assert.equal(body.issue.performed_via_github_app?.slug, bot.slug);
    assertMatchesWebhookSchema('issues', 'opened', body);
    const commented = await receiver.waitFor(1, (r) => headerOf(r, 'x-github-event') === 'issue_comment' && payloadOf(r).issue.title === 'by the app');
    const comment = payloadOf(commented[0]!);
    assert.deepEqual([comment.sender.login, comment.sender.type], [`${bot.slug}[bot]`, 'Bot']);
    assert.equal(comment.comment?.performed_via_github_app?.slug, bot.slug);
    assertMatchesWebhookSchema('issue_comment', 'created', comment);
  });
});
