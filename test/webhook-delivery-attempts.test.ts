// Every attempt of a webhook delivery is listed as a delivery of its own, as upstream
// lists them: an automatic retry and a redelivery each get their own id, under the
// event's GUID, with their own status code and request/response.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { eventually, headerOf, ReceiverPool, type Received } from './helpers/webhook-receiver.ts';
import { createUser } from './factories/accounts.ts';
import { deliveryAttempts } from '../src/modules/hooks/deliveries.service.ts';

let t: TestServer;
const pool = new ReceiverPool();

before(async () => {
  t = await startTestServer({
    env: { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1', WHARF_WEBHOOK_RETRY_BASE_MS: '100', WHARF_WEBHOOK_MAX_ATTEMPTS: '3', WHARF_WEBHOOK_POLL_MS: '200' },
  });
});
after(async () => {
  await t.close();
  await pool.stopAll();
});

const isPush = (r: Received) => headerOf(r, 'x-service-event') === 'push';

test('a delivery that fails, then succeeds on retry: both attempts listed, each gettable, pages intact', async () => {
  const user = await createUser(t);
  const kit = t.octokit(user.token);
  const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name: 'retried', auto_init: true });
  const rx = await pool.start();
  // The first push attempt gets a 500, everything after it a 200.
  rx.respond = (r) => (isPush(r) && rx.received.filter(isPush).length === 1 ? { status: 500, body: 'try later' } : { status: 200, body: 'ok' });
  const { data: hook } = await kit.rest.repos.createWebhook({ owner: user.login, repo: repo.name, config: { url: rx.url() } });
  const ids = { owner: user.login, repo: repo.name, hook_id: hook.id };
  await kit.rest.repos.createOrUpdateFileContents({ ...ids, path: 'a.txt', message: 'a', content: Buffer.from('a').toString('base64') });
  await rx.waitFor(2, isPush);

  const all = await eventually(async () => {
    const { data } = await kit.rest.repos.listWebhookDeliveries(ids);
    return data.length === 3 && data[0]!.status === 'OK' ? data : undefined;
  }, 20_000, 'the retry listed');
  assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/hooks/{hook_id}/deliveries', 200, all);
  const [ok, failed, ping] = all;
  assert.deepEqual(all.map((d) => [d.event, d.status_code, d.status, d.redelivery]), [
    ['push', 200, 'OK', false], ['push', 500, 'Invalid HTTP Response: 500', false], ['ping', 200, 'OK', false],
  ]);
  assert.equal(ok!.guid, failed!.guid);
  assert.ok(ok!.id > failed!.id && failed!.id > ping!.id, 'newest first, each attempt its own id');
  assert.ok(ok!.delivered_at >= failed!.delivered_at);

  // Each attempt answers with its own request and response.
  const one = async (id: number) => (await kit.rest.repos.getWebhookDelivery({ ...ids, delivery_id: id })).data;
  const [gotFailed, gotOk] = [await one(failed!.id), await one(ok!.id)];
  assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}', 200, gotFailed);
  assert.deepEqual([gotFailed.status_code, gotFailed.response.payload], [500, 'try later']);
  assert.deepEqual([gotOk.status_code, gotOk.response.payload], [200, 'ok']);
  assert.equal(gotFailed.request.headers?.['X-Service-Delivery'], failed!.guid);
  assert.deepEqual(gotOk.request.payload, gotFailed.request.payload);

  // Either attempt leads to the whole history.
  for (const d of [failed!, ok!]) {
    assert.deepEqual((await deliveryAttempts(t.server.ctx, d.id)).map((a) => [a.attempt, a.outcome, a.statusCode]), [[1, 'retry', 500], [2, 'delivered', 200]]);
  }

  // Cursor pages walk the same entries; the status filter sees each attempt.
  const first = await kit.rest.repos.listWebhookDeliveries({ ...ids, per_page: 2 });
  assert.deepEqual(first.data.map((d) => d.id), [ok!.id, failed!.id]);
  const next = new URL(/<([^>]+)>; rel="next"/.exec(first.headers.link ?? '')![1]!);
  assert.equal(next.searchParams.get('cursor'), `v1_${ping!.id}`);
  const rest = await t.request(`${next.pathname}${next.search}`, { token: user.token });
  assert.deepEqual((await rest.json() as { id: number }[]).map((d) => d.id), [ping!.id]);
  const failures = await kit.rest.repos.listWebhookDeliveries({ ...ids, status: 'failure' });
  assert.deepEqual(failures.data.map((d) => d.id), [failed!.id]);

  // A redelivery of the failed attempt is one more delivery, marked as such.
  await kit.rest.repos.redeliverWebhookDelivery({ ...ids, delivery_id: failed!.id });
  const after = await eventually(async () => {
    const { data } = await kit.rest.repos.listWebhookDeliveries(ids);
    return data.length === 4 && data[0]!.status === 'OK' ? data : undefined;
  }, 20_000, 'the redelivery listed');
  assert.deepEqual([after[0]!.guid, after[0]!.redelivery, after[0]!.status_code], [failed!.guid, true, 200]);
});
