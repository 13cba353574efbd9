// Retention (WHARF_RETENTION_DAYS): dispatched events, finished webhook deliveries with
// their attempts, and payloads older than the configured age are pruned; newer ones and
// work not yet done stay. The deliveries API and the events API answer for what is left
// (a pruned delivery is a 404). The server's clock is the test's: no waiting for days.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { eventually, headerOf, ReceiverPool, type Received, type Receiver } from './helpers/webhook-receiver.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const ENV = {
  WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1',
  WHARF_WEBHOOK_TIMEOUT_MS: '5000',
  WHARF_WEBHOOK_POLL_MS: '200',
};
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('retention', () => {
  const clock = new TestClock();
  const pool = new ReceiverPool();
  let t: TestServer;
  let user: CreatedUser;
  let rx: Receiver;
  let repo: string;
  let hookId: number;

  const kit = () => t.octokit(user.token);
  const pushes = (r: Received) => headerOf(r, 'x-service-event') === 'push';
  const deliveries = async () => (await kit().rest.repos.listWebhookDeliveries({ owner: user.login, repo, hook_id: hookId })).data;
  const allDelivered = (n: number) => eventually(async () => {
    const ds = await deliveries();
    return ds.length === n && ds.every((d) => d.status_code === 200) ? ds : undefined;
  }, 20_000, `${n} deliveries delivered`);
  const pushFile = (file: string) => kit().rest.repos.createOrUpdateFileContents({ owner: user.login, repo, path: file, message: `Add ${file}`, content: b64(file) });
  const pushEvents = async () => {
    const { data } = await kit().request('GET /repos/{owner}/{repo}/events', { owner: user.login, repo });
    return (data as { type: string; payload: { head?: string } }[]).filter((e) => e.type === 'PushEvent').map((e) => e.payload.head);
  };

  before(async () => {
    t = await startTestServer({ clock, env: { ...ENV, WHARF_RETENTION_DAYS: '30' } });
    user = await createUser(t);
    repo = (await kit().rest.repos.createForAuthenticatedUser({ name: 'ledger', auto_init: true })).data.name;
    rx = await pool.start();
    hookId = (await kit().rest.repos.createWebhook({ owner: user.login, repo, events: ['push'], config: { url: rx.url() } })).data.id;
  });
  after(async () => {
    await t.close();
    await pool.stopAll();
  });

  test('what is older than the age goes, what is newer or not yet delivered stays', async () => {
    // Day 0: the ping and a push, delivered.
    const { data: first } = await pushFile('a.txt');
    const [ping, oldPush] = [...await allDelivered(2)].sort((a, b) => a.id - b.id);
    assert.equal(ping!.event, 'ping');
    // Day 0 too, while no worker delivers: an event not yet dispatched.
    await t.server.webhooks.stop();
    const { data: waiting } = await pushFile('b.txt');

    clock.advance(31 * DAY_MS);
    const pruned = await t.server.retention.runOnce();
    assert.deepEqual({ deliveries: pruned.deliveries, payloads: pruned.payloads }, { deliveries: 2, payloads: 2 });
    // The repository's creation and the first push went; the push not yet dispatched stayed.
    assert.ok(pruned.events >= 2, JSON.stringify(pruned));
    assert.deepEqual(await deliveries(), []);
    const gone = await kit().rest.repos.getWebhookDelivery({ owner: user.login, repo, hook_id: hookId, delivery_id: oldPush!.id }).catch((e: { status: number }) => e);
    assert.equal((gone as { status: number }).status, 404);
    const redeliver = await kit().rest.repos.redeliverWebhookDelivery({ owner: user.login, repo, hook_id: hookId, delivery_id: oldPush!.id }).catch((e: { status: number }) => e);
    assert.equal((redeliver as { status: number }).status, 404);
    assert.deepEqual(await pushEvents(), [waiting.commit.sha]);

    // The waiting event is delivered once a worker runs again (another process on the
    // same data), 31 days late.
    const second = await startTestServer({ clock, shareWith: t, env: { ...ENV, WHARF_RETENTION_DAYS: '30' } });
    try {
      const [late] = await allDelivered(1);
      await rx.waitFor(2, pushes);
      assert.equal(JSON.parse(rx.received.filter(pushes).at(-1)!.body).after, waiting.commit.sha);
      assert.notEqual(first.commit.sha, waiting.commit.sha);

      // A pass now: the late delivery is new, so it and its payload stay; its event
      // (recorded on day 0) goes, and redelivering works from the payload kept with it.
      const again = await t.server.retention.runOnce();
      assert.deepEqual(again, { events: 1, deliveries: 0, payloads: 0 });
      assert.deepEqual(await pushEvents(), []);
      const { status } = await kit().rest.repos.redeliverWebhookDelivery({ owner: user.login, repo, hook_id: hookId, delivery_id: late!.id });
      assert.equal(status, 202);
      const redelivered = await rx.waitFor(3, pushes);
      assert.equal(JSON.parse(redelivered.at(-1)!.body).after, waiting.commit.sha);
    } finally {
      await second.close();
    }
  });

  test('WHARF_RETENTION_DAYS=0 keeps everything', async () => {
    const keepClock = new TestClock();
    const keep = await startTestServer({ clock: keepClock, env: { ...ENV, WHARF_RETENTION_DAYS: '0' } });
    try {
      const owner = await createUser(keep);
      const octokit = keep.octokit(owner.token);
      await octokit.rest.repos.createForAuthenticatedUser({ name: 'archive', auto_init: true });
      const hook = (await octokit.rest.repos.createWebhook({ owner: owner.login, repo: 'archive', config: { url: (await pool.start()).url() } })).data;
      const list = () => octokit.rest.repos.listWebhookDeliveries({ owner: owner.login, repo: 'archive', hook_id: hook.id }).then((r) => r.data);
      await eventually(async () => ((await list()).some((d) => d.status_code === 200) ? true : undefined), 20_000, 'the ping delivered');
      keepClock.advance(3650 * DAY_MS);
      assert.deepEqual(await keep.server.retention.runOnce(), { events: 0, deliveries: 0, payloads: 0 });
      assert.equal((await list()).length, 1);
    } finally {
      await keep.close();
    }
  });
});
