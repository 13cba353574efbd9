// The PubSubHubbub hub: POST /hub with a form subscribes a callback to a repository's
// event as a repository hook (signed deliveries, X-Hub-Signature), unsubscribe removes
// it; bad topics, modes and callers are refused and change nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo } from './factories/repos.ts';
import { headerOf, ReceiverPool } from './helpers/webhook-receiver.ts';

const ENV = { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1', WHARF_WEBHOOK_POLL_MS: '200' };

let t: TestServer;
let alice: CreatedUser;
let bob: CreatedUser;
const pool = new ReceiverPool();

before(async () => {
  t = await startTestServer({ env: ENV });
  alice = await createUser(t);
  bob = await createUser(t);
});
after(async () => {
  await t.close();
  await pool.stopAll();
});

async function hub(token: string | undefined, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.baseUrl}/hub`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'wharf-tests/1.0',
      ...(token ? { authorization: `token ${token}` } : {}), ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) as Record<string, unknown> : null };
}

async function hooksOf(owner: string, repo: string) {
  return (await t.octokit(alice.token).rest.repos.listWebhooks({ owner, repo })).data;
}

describe('POST /hub', () => {
  test('subscribe makes a signed repository hook for the event; unsubscribe removes it', async () => {
    const r = await createRepo(t, alice);
    const rx = await pool.start();
    const topic = `${t.baseUrl}/${r.owner}/${r.repo}/events/issues.json`;
    const secret = 'hub secret';
    const res = await hub(alice.token, { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': rx.url(), 'hub.secret': secret });
    assert.equal(res.status, 204);
    const [hook, ...rest] = await hooksOf(r.owner, r.repo);
    assert.equal(rest.length, 0);
    assert.deepEqual(hook!.events, ['issues']);
    assert.equal(hook!.config.url, rx.url());
    assert.equal(hook!.config.content_type, 'json');
    assert.equal(hook!.config.secret, '********');

    // A subscribed event is delivered, signed with the subscription's secret.
    await t.octokit(alice.token).rest.issues.create({ owner: r.owner, repo: r.repo, title: 'delivered' });
    const [delivery] = await rx.waitFor(1, (x) => headerOf(x, 'x-github-event') === 'issues');
    assert.equal(headerOf(delivery!, 'x-hub-signature'), `sha1=${createHmac('sha1', secret).update(delivery!.body).digest('hex')}`);
    assert.equal((JSON.parse(delivery!.body) as { action: string }).action, 'opened');

    // A second event for the same callback joins the same hook (topic without .json: form payloads).
    assert.equal((await hub(alice.token, { 'hub.mode': 'subscribe', 'hub.topic': `${t.baseUrl}/${r.owner}/${r.repo}/events/push`, 'hub.callback': rx.url() })).status, 204);
    const [joined] = await hooksOf(r.owner, r.repo);
    assert.equal(joined!.id, hook!.id);
    assert.deepEqual(joined!.events, ['issues', 'push']);
    assert.equal(joined!.config.content_type, 'form');

    assert.equal((await hub(alice.token, { 'hub.mode': 'unsubscribe', 'hub.topic': topic, 'hub.callback': rx.url() })).status, 204);
    assert.deepEqual((await hooksOf(r.owner, r.repo))[0]!.events, ['push']);
    assert.equal((await hub(alice.token, { 'hub.mode': 'unsubscribe', 'hub.topic': `${t.baseUrl}/${r.owner}/${r.repo}/events/push`, 'hub.callback': rx.url() })).status, 204);
    assert.deepEqual(await hooksOf(r.owner, r.repo), []);
  });

  test('bad topic, mode or callback: 422 and nothing stored', async () => {
    const r = await createRepo(t, alice);
    const cb = 'http://127.0.0.1:9/cb';
    const bad: Record<string, string>[] = [
      { 'hub.mode': 'subscribe', 'hub.topic': `https://elsewhere.invalid/${r.owner}/${r.repo}/events/push`, 'hub.callback': cb },
      { 'hub.mode': 'subscribe', 'hub.topic': `${t.baseUrl}/${r.owner}/${r.repo}/issues`, 'hub.callback': cb },
      { 'hub.mode': 'subscribe', 'hub.topic': `${t.baseUrl}/${r.owner}/${r.repo}/events/Push!`, 'hub.callback': cb },
      { 'hub.mode': 'publish', 'hub.topic': `${t.baseUrl}/${r.owner}/${r.repo}/events/push`, 'hub.callback': cb },
      { 'hub.mode': 'subscribe', 'hub.topic': `${t.baseUrl}/${r.owner}/${r.repo}/events/push` },
      { 'hub.mode': 'subscribe', 'hub.topic': `${t.baseUrl}/${r.owner}/${r.repo}/events/push`, 'hub.callback': 'ftp://x.invalid/' },
    ];
    for (const fields of bad) {
      const res = await hub(alice.token, fields);
      assert.equal(res.status, 422, JSON.stringify(fields));
      assert.equal(typeof res.body?.message, 'string');
    }
    assert.match(String((await hub(alice.token, bad[0]!)).body?.message), /^Invalid topic/);
    assert.deepEqual(await hooksOf(r.owner, r.repo), []);
  });

  test('access as for repository hooks: admin and a hook scope; others refused', async () => {
    const r = await createRepo(t, alice);
    const fields = { 'hub.mode': 'subscribe', 'hub.topic': `${t.baseUrl}/${r.owner}/${r.repo}/events/push`, 'hub.callback': 'http://127.0.0.1:9/cb' };
    assert.equal((await hub(undefined, fields)).status, 401);
    // A public repository bob may read but not administer: 403, as its hooks routes answer.
    const asBob = await hub(bob.token, fields);
    assert.equal(asBob.status, 403);
    assert.equal(asBob.body?.message, 'Must have admin rights to Repository.');
    const noScope = await createToken(t, alice.login, ['user']);
    assert.equal((await hub(noScope, fields)).status, 403);
    assert.deepEqual(await hooksOf(r.owner, r.repo), []);
    const hookScope = await createToken(t, alice.login, ['write:repo_hook']);
    assert.equal((await hub(hookScope, fields)).status, 204);
    assert.equal((await hooksOf(r.owner, r.repo)).length, 1);
  });
});
