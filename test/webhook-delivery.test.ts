// Webhook delivery end to end: a real receiver on loopback gets every event a hook
// subscribes to, signed, in the published payload shape; failures are retried,
// deliveries survive restarts and crashes, private addresses are refused; the
// deliveries API shows and redelivers what was sent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verify } from '@octokit/webhooks-methods';
import { Webhooks, createNodeMiddleware } from '@octokit/webhooks';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_TOKEN, createPgSchema, dropPgSchema, startTestServer, testDialect, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { assertMatchesWebhookSchema } from './helpers/webhook-schema.ts';
import { eventually, headerOf, Receiver, ReceiverPool, unusedPort, type Received } from './helpers/webhook-receiver.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createOrgWithOwner } from './factories/orgs.ts';
import { AddressGuard } from '../src/modules/hooks/hooks.address-guard.ts';
import { deliveryAttempts } from '../src/modules/hooks/deliveries.service.ts';
import { programArgs } from './helpers/programs.ts';

const ENV = {
  WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1',
  WHARF_WEBHOOK_RETRY_BASE_MS: '100',
  WHARF_WEBHOOK_MAX_ATTEMPTS: '3',
  WHARF_WEBHOOK_TIMEOUT_MS: '5000',
  WHARF_WEBHOOK_POLL_MS: '200',
};
const SECRET = 'It’s a Secret to Everybody';
const execFileAsync = promisify(execFile);
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let t: TestServer;
const pool = new ReceiverPool();
const receivers = pool.receivers;

before(async () => { t = await startTestServer({ env: ENV }); });
after(async () => {
  await t.close();
  await pool.stopAll();
});

const receiver = () => pool.start();
const b64 = (s: string) => Buffer.from(s).toString('base64');
const header = headerOf;
const ofEvent = (event: string) => (r: Received) => header(r, 'x-service-event') === event;

/** The JSON payload of a delivery, whichever content type carried it. */
function payloadOf(r: Received): Record<string, any> {
  if (header(r, 'content-type') === 'application/x-www-form-urlencoded') {
    return JSON.parse(new URLSearchParams(r.body).get('payload')!);
  }
  return JSON.parse(r.body);
}

interface Hooked {
  user: CreatedUser;
  owner: string;
  repo: string;
  repoId: number;
  hookId: number;
  rx: Receiver;
}

/** A user, a repository with a first commit, a receiver and a hook on it (its creation ping received). */
async function hooked(config: { events?: string[]; secret?: string; content_type?: string; active?: boolean } = {}): Promise<Hooked> {
  const user = await createUser(t);
  const kit = t.octokit(user.token);
  const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name: `dock-${Math.random().toString(36).slice(2, 8)}`, auto_init: true });
  const rx = await receiver();
  const { data: hook } = await kit.rest.repos.createWebhook({
    owner: user.login, repo: repo.name, events: config.events ?? ['push'], active: config.active ?? true,
    config: { url: rx.url(), ...(config.secret ? { secret: config.secret } : {}), ...(config.content_type ? { content_type: config.content_type } : {}) },
  });
  if (config.active !== false) await rx.waitFor(1, ofEvent('ping'));
  return { user, owner: user.login, repo: repo.name, repoId: repo.id, hookId: hook.id, rx };
}

async function pushFile(h: Hooked, file: string, content = file): Promise<string> {
  const { data } = await t.octokit(h.user.token).rest.repos.createOrUpdateFileContents({
    owner: h.owner, repo: h.repo, path: file, message: `Add ${file}`, content: b64(content),
  });
  return data.commit.sha!;
}

async function listDeliveries(h: Hooked) {
  return (await t.octokit(h.user.token).rest.repos.listWebhookDeliveries({ owner: h.owner, repo: h.repo, hook_id: h.hookId })).data;
}

/** The hook's deliveries once `done` says they have settled. */
async function settled(h: Hooked, done: (ds: Awaited<ReturnType<typeof listDeliveries>>) => boolean) {
  return eventually(async () => {
    const ds = await listDeliveries(h);
    return done(ds) ? ds : undefined;
  }, 20_000, 'deliveries settled');
}

async function signatureOk(r: Received, secret: string): Promise<boolean> {
  const sig256 = header(r, 'x-hub-signature-256');
  const sig1 = header(r, 'x-hub-signature');
  if (!sig256 || !sig1) return false;
  return await verify(secret, r.body, sig256) && sig1 === `sha1=${createHmac('sha1', secret).update(r.body).digest('hex')}`;
}

describe('delivery', () => {
  test('a push reaches the hook signed, with upstream headers and the published payload', async () => {
    const h = await hooked({ secret: SECRET });
    const [ping] = await h.rx.waitFor(1, ofEvent('ping'));
    assert.ok(await signatureOk(ping!, SECRET), 'the ping is signed');
    const pingBody = payloadOf(ping!);
    assertMatchesWebhookSchema('ping', null, pingBody);
    assert.equal(pingBody.hook_id, h.hookId);
    assert.equal(pingBody.hook.id, h.hookId);
    assert.equal(pingBody.hook.config.secret, '********');
    assert.equal(typeof pingBody.zen, 'string');
    assert.equal(pingBody.repository.id, h.repoId);

    const sha = await pushFile(h, 'manifest.txt');
    const [push] = await h.rx.waitFor(1, ofEvent('push'));
    const r = push!;
    assert.equal(r.method, 'POST');
    assert.equal(r.path, '/hook');
    assert.equal(header(r, 'content-type'), 'application/json');
    assert.match(header(r, 'user-agent') ?? '', /^Wharf-Hookshot\/[0-9a-f]{7}$/);
    assert.match(header(r, 'x-service-delivery') ?? '', GUID);
    assert.notEqual(header(r, 'x-service-delivery'), header(ping!, 'x-service-delivery'));
    assert.equal(header(r, 'x-service-hook-id'), String(h.hookId));
    assert.equal(header(r, 'x-service-hook-installation-target-type'), 'repository');
    assert.equal(header(r, 'x-service-hook-installation-target-id'), String(h.repoId));
    assert.ok(await signatureOk(r, SECRET), 'verify() accepts the signature with the shared secret');
    assert.equal(await verify('another secret', r.body, header(r, 'x-hub-signature-256')!), false);

    const body = payloadOf(r);
    assertMatchesWebhookSchema('push', null, body);
    assert.equal(body.ref, 'refs/heads/main');
    assert.equal(body.after, sha);
    assert.equal(body.created, false);
    assert.equal(body.deleted, false);
    assert.equal(body.forced, false);
    assert.equal(body.base_ref, null);
    assert.equal(body.commits.length, 1);
    assert.deepEqual(body.commits[0].added, ['manifest.txt']);
    assert.equal(body.commits[0].message, 'Add manifest.txt');
    assert.equal(body.commits[0].url, `${t.baseUrl}/${h.owner}/${h.repo}/commit/${sha}`);
    assert.equal(body.head_commit.id, sha);
    assert.equal(body.head_commit.distinct, true);
    assert.match(body.compare, new RegExp(`/${h.owner}/${h.repo}/compare/[0-9a-f]{12}\\.\\.\\.${sha.slice(0, 12)}$`));
    assert.deepEqual(body.pusher, { name: h.owner, email: `${h.owner}@example.com` });
    assert.equal(body.sender.login, h.owner);
    assert.equal(body.repository.full_name, `${h.owner}/${h.repo}`);
    assert.equal(typeof body.repository.pushed_at, 'number', 'push payloads keep upstream\'s epoch timestamps');
    assert.equal(body.repository.master_branch, 'main');

    // The deliveries API shows what was sent and what came back.
    const ds = await settled(h, (d) => d.length === 2 && d.every((x) => x.status === 'OK'));
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/hooks/{hook_id}/deliveries', 200, ds);
    assert.deepEqual(ds.map((d) => d.event), ['push', 'ping'], 'newest first');
    const item = ds[0]!;
    assert.equal(item.guid, header(r, 'x-service-delivery'));
    assert.equal(item.status_code, 200);
    assert.equal(item.redelivery, false);
    assert.equal(item.action, null);
    assert.equal(item.repository_id, h.repoId);
    assert.equal(item.installation_id, null);
    const { data: one } = await t.octokit(h.user.token).rest.repos.getWebhookDelivery({ owner: h.owner, repo: h.repo, hook_id: h.hookId, delivery_id: item.id });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}', 200, one);
    assert.deepEqual(one.request.payload, body);
    assert.equal(one.request.headers?.['X-Service-Delivery'], item.guid);
    assert.equal(one.request.headers?.['X-Hub-Signature-256'], header(r, 'x-hub-signature-256'));
    assert.equal(one.response.payload, 'ok');
    assert.equal(one.response.headers?.['x-receiver'], 'test');
    assert.equal(one.url, h.rx.url());
    assert.equal(typeof one.duration, 'number');

    const { data: hook } = await t.octokit(h.user.token).rest.repos.getWebhook({ owner: h.owner, repo: h.repo, hook_id: h.hookId });
    assert.deepEqual(hook.last_response, { code: 200, status: 'active', message: 'OK' });
  });

  test('form content type: payload= with the JSON, signed as sent', async () => {
    const h = await hooked({ secret: SECRET, content_type: 'form' });
    await pushFile(h, 'form.txt');
    const [r] = await h.rx.waitFor(1, ofEvent('push'));
    assert.equal(header(r!, 'content-type'), 'application/x-www-form-urlencoded');
    assert.match(r!.body, /^payload=/);
    assert.ok(await signatureOk(r!, SECRET));
    const body = payloadOf(r!);
    assertMatchesWebhookSchema('push', null, body);
    assert.deepEqual(body.commits[0].added, ['form.txt']);
  });

  test('a hook\'s deliveries arrive in the order of its events', async () => {
    const h = await hooked();
    const shas: string[] = [];
    for (const f of ['one.txt', 'two.txt', 'three.txt']) shas.push(await pushFile(h, f));
    const pushes = await h.rx.waitFor(3, ofEvent('push'));
    assert.deepEqual(pushes.map((p) => payloadOf(p).after), shas);
  });

  test('inactive hooks and unsubscribed events get nothing; "*" gets everything', async () => {
    const h = await hooked({ events: ['push'] });
    const kit = t.octokit(h.user.token);
    const off = await receiver();
    const { data: inactive } = await kit.rest.repos.createWebhook({ owner: h.owner, repo: h.repo, active: false, events: ['*'], config: { url: off.url() } });
    const issuesOnly = await receiver();
    const { data: issues } = await kit.rest.repos.createWebhook({ owner: h.owner, repo: h.repo, events: ['issues'], config: { url: issuesOnly.url() } });
    const all = await receiver();
    await kit.rest.repos.createWebhook({ owner: h.owner, repo: h.repo, events: ['*'], config: { url: all.url() } });
    await issuesOnly.waitFor(1, ofEvent('ping'));
    await all.waitFor(1, ofEvent('ping'));

    // Invitations raise an event for notifications only: no webhook has it, not even "*".
    const invitee = await createUser(t);
    await kit.rest.repos.addCollaborator({ owner: h.owner, repo: h.repo, username: invitee.login });
    await pushFile(h, 'only-push.txt');
    await h.rx.waitFor(1, ofEvent('push'));
    await all.waitFor(1, ofEvent('push'));
    assert.ok(!all.received.some((r) => header(r, 'x-service-event') === 'repository_invitation'));
    // Deliveries of one event are queued together: once one hook has its push, the others would have theirs.
    const queued = async (hookId: number) => (await kit.rest.repos.listWebhookDeliveries({ owner: h.owner, repo: h.repo, hook_id: hookId })).data;
    assert.deepEqual(await queued(inactive.id), []);
    assert.deepEqual((await queued(issues.id)).map((d) => d.event), ['ping']);
    assert.equal(off.received.length, 0);
    assert.deepEqual(issuesOnly.received.map((r) => header(r, 'x-service-event')), ['ping']);
  });

  test("a receiver written for upstream (@octokit/webhooks' Node middleware) verifies and handles deliveries unchanged", async () => {
    const webhooks = new Webhooks({ secret: SECRET });
    const pushes: { id: string; ref: string; after: string }[] = [];
    webhooks.on('push', ({ id, payload }) => { pushes.push({ id, ref: payload.ref, after: payload.after }); });
    const middleware = createNodeMiddleware(webhooks, { path: '/upstream' });
    const server = http.createServer((req, res) => {
      void middleware(req, res).then((handled) => { if (!handled) res.writeHead(404).end(); });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const h = await hooked({ events: ['push'] });
      const kit = t.octokit(h.user.token);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upstream`;
      const { data: hook } = await kit.rest.repos.createWebhook({ owner: h.owner, repo: h.repo, events: ['push'], config: { url, secret: SECRET } });
      const sha = await pushFile(h, 'upstream.txt');
      await eventually(async () => (pushes.length > 0 ? true : undefined));
      assert.equal(pushes[0]!.after, sha);
      assert.equal(pushes[0]!.ref, 'refs/heads/main');
      // The outcome is recorded once the receiver has answered.
      const push = await eventually(async () => {
        const deliveries = (await kit.rest.repos.listWebhookDeliveries({ owner: h.owner, repo: h.repo, hook_id: hook.id })).data;
        return deliveries.find((d) => d.event === 'push' && d.status_code !== 0);
      });
      assert.equal(push.status_code, 200, 'the middleware accepted the signed delivery');
      assert.equal(pushes[0]!.id, push.guid);
    } finally {
      server.close();
    }
  });

  test('fork: the payload carries the new repository whole as forkee', async () => {
    const h = await hooked({ events: ['fork'] });
    const forker = await createUser(t, ['repo', 'public_repo']);
    const { data: fork } = await t.octokit(forker.token).rest.repos.createFork({ owner: h.owner, repo: h.repo });
    const [delivery] = await h.rx.waitFor(1, ofEvent('fork'));
    const body = payloadOf(delivery!);
    assertMatchesWebhookSchema('fork', null, body);
    assert.equal(body.forkee.id, fork.id);
    assert.equal(body.forkee.full_name, `${forker.login}/${h.repo}`);
    assert.equal(body.forkee.fork, true);
    assert.equal(body.forkee.public, true);
    assert.equal(body.forkee_id, undefined);
    assert.equal(body.repository.id, h.repoId);
    assert.equal(body.sender.login, forker.login);
  });

  test('removing the secret with a PATCH of config: no signature headers any more', async () => {
    const h = await hooked({ secret: SECRET });
    const kit = t.octokit(h.user.token);
    await kit.rest.repos.updateWebhook({ owner: h.owner, repo: h.repo, hook_id: h.hookId, config: { url: h.rx.url() } });
    await kit.rest.repos.pingWebhook({ owner: h.owner, repo: h.repo, hook_id: h.hookId });
    const pings = await h.rx.waitFor(2, ofEvent('ping'));
    assert.ok(header(pings[0]!, 'x-hub-signature-256'));
    assert.equal(header(pings[1]!, 'x-hub-signature-256'), undefined);
    assert.equal(header(pings[1]!, 'x-hub-signature'), undefined);
    assertMatchesWebhookSchema('ping', null, payloadOf(pings[1]!));
  });

  test('https: the certificate is checked unless insecure_ssl is "1"', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    await execFileAsync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1']);
    const rx = receivers[receivers.push(new Receiver()) - 1]!;
    await rx.start(0, { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') });
    fs.rmSync(dir, { recursive: true, force: true });
    const user = await createUser(t);
    const kit = t.octokit(user.token);
    const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name: `tls-${Date.now()}`, auto_init: true });
    const { data: hook } = await kit.rest.repos.createWebhook({ owner: user.login, repo: repo.name, config: { url: rx.url(), insecure_ssl: '0' } });
    const refused = await eventually(async () => {
      const { data } = await kit.rest.repos.listWebhookDeliveries({ owner: user.login, repo: repo.name, hook_id: hook.id });
      return data[0]?.status.startsWith('failed to connect') ? data[0] : undefined;
    });
    assert.equal(refused.status_code, 0);
    assert.equal(rx.received.length, 0, 'a self-signed certificate is not trusted');
    await kit.rest.repos.updateWebhook({ owner: user.login, repo: repo.name, hook_id: hook.id, config: { url: rx.url(), insecure_ssl: '1' } });
    await kit.rest.repos.pingWebhook({ owner: user.login, repo: repo.name, hook_id: hook.id });
    const [ping] = await rx.waitFor(1, ofEvent('ping'));
    assertMatchesWebhookSchema('ping', null, payloadOf(ping!));
  });

  test('the test endpoint sends the latest push again, to that hook only', async () => {
    const h = await hooked();
    const kit = t.octokit(h.user.token);
    const other = await receiver();
    await kit.rest.repos.createWebhook({ owner: h.owner, repo: h.repo, events: ['push'], config: { url: other.url() } });
    await other.waitFor(1, ofEvent('ping'));
    const sha = await pushFile(h, 'tested.txt');
    await h.rx.waitFor(1, ofEvent('push'));
    await other.waitFor(1, ofEvent('push'));
    assert.equal((await kit.rest.repos.testPushWebhook({ owner: h.owner, repo: h.repo, hook_id: h.hookId })).status, 204);
    const pushes = await h.rx.waitFor(2, ofEvent('push'));
    const again = payloadOf(pushes[1]!);
    assert.equal(again.after, sha);
    assert.equal(again.hook_id, undefined);
    assertMatchesWebhookSchema('push', null, again);
    assert.notEqual(header(pushes[1]!, 'x-service-delivery'), header(pushes[0]!, 'x-service-delivery'));
    // The other hook got only its own push.
    const ds = await kit.rest.repos.listWebhookDeliveries({ owner: h.owner, repo: h.repo, hook_id: h.hookId });
    assert.equal(ds.data.filter((d) => d.event === 'push').length, 2);
    assert.equal(other.received.filter(ofEvent('push')).length, 1);
  });
});

describe('payloads of repository events', () => {
  test('star, watch and repository events of an organization\'s repository reach the organization\'s hook', async () => {
    const org = await createOrgWithOwner(t, ['repo', 'admin:org', 'admin:org_hook', 'delete_repo']);
    const kit = t.octokit(org.owner.token);
    const rx = await receiver();
    const { data: hook } = await kit.rest.orgs.createWebhook({ org: org.login, name: 'web', events: ['*'], config: { url: rx.url(), secret: SECRET } });
    const [ping] = await rx.waitFor(1, ofEvent('ping'));
    assert.equal(header(ping!, 'x-service-hook-installation-target-type'), 'organization');
    assert.equal(header(ping!, 'x-service-hook-installation-target-id'), String(org.id));
    const pingBody = payloadOf(ping!);
    assertMatchesWebhookSchema('ping', null, pingBody);
    assert.equal(pingBody.organization.login, org.login);
    assert.equal(pingBody.repository, undefined);

    const { data: repo } = await kit.rest.repos.createInOrg({ org: org.login, name: `cargo-${Date.now()}`, auto_init: true });
    const fan = await createUser(t, ['repo', 'public_repo']);
    await t.octokit(fan.token).rest.activity.starRepoForAuthenticatedUser({ owner: org.login, repo: repo.name });
    await kit.rest.repos.update({ owner: org.login, repo: repo.name, description: 'Loaded', name: `${repo.name}-renamed` });
    await kit.rest.repos.update({ owner: org.login, repo: `${repo.name}-renamed`, description: 'Unloaded' });

    const created = (await rx.waitFor(1, (r) => header(r, 'x-service-event') === 'repository' && payloadOf(r).action === 'created'))[0]!;
    const createdBody = payloadOf(created);
    assertMatchesWebhookSchema('repository', 'created', createdBody);
    assert.equal(createdBody.repository.id, repo.id);
    assert.equal(createdBody.organization.login, org.login);
    assert.equal(createdBody.sender.login, org.owner.login);
    assert.ok(await signatureOk(created, SECRET));

    const [star] = await rx.waitFor(1, ofEvent('star'));
    const starBody = payloadOf(star!);
    assertMatchesWebhookSchema('star', 'created', starBody);
    assert.equal(starBody.sender.login, fan.login);
    assert.equal(starBody.repository.stargazers_count, 1);
    assert.match(starBody.starred_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assertMatchesWebhookSchema('watch', 'started', payloadOf((await rx.waitFor(1, ofEvent('watch')))[0]!));

    const renamed = (await rx.waitFor(1, (r) => header(r, 'x-service-event') === 'repository' && payloadOf(r).action === 'renamed'))[0]!;
    const renamedBody = payloadOf(renamed);
    assertMatchesWebhookSchema('repository', 'renamed', renamedBody);
    assert.deepEqual(renamedBody.changes, { repository: { name: { from: repo.name } } });
    const edited = (await rx.waitFor(1, (r) => header(r, 'x-service-event') === 'repository' && payloadOf(r).action === 'edited'))[0]!;
    const editedBody = payloadOf(edited);
    assertMatchesWebhookSchema('repository', 'edited', editedBody);
    assert.deepEqual(editedBody.changes, { description: { from: 'Loaded' } });

    // Deleting the repository: the organization's hook still gets the whole record.
    const { data: repoHook } = await kit.rest.repos.createWebhook({ owner: org.login, repo: `${repo.name}-renamed`, config: { url: rx.url('/repo-hook') } });
    await rx.waitFor(1, (r) => r.path === '/repo-hook');
    await kit.rest.repos.delete({ owner: org.login, repo: `${repo.name}-renamed` });
    const deleted = (await rx.waitFor(1, (r) => header(r, 'x-service-event') === 'repository' && payloadOf(r).action === 'deleted'))[0]!;
    const deletedBody = payloadOf(deleted);
    assertMatchesWebhookSchema('repository', 'deleted', deletedBody);
    assert.equal(deletedBody.repository.id, repo.id);
    assert.equal(deletedBody.repository.full_name, `${org.login}/${repo.name}-renamed`);
    assert.equal(deletedBody.organization.login, org.login);
    // The repository's own hooks went with it; the organization's stays.
    const rows = await t.server.ctx.db.selectFrom('hooks').select('id').where('id', 'in', [repoHook.id, hook.id]).execute();
    assert.deepEqual(rows.map((x) => x.id), [hook.id]);
    const orgDeliveries = await kit.rest.orgs.listWebhookDeliveries({ org: org.login, hook_id: hook.id, per_page: 100 });
    assertMatchesOpenApi('GET', '/orgs/{org}/hooks/{hook_id}/deliveries', 200, orgDeliveries.data);
    assert.ok(orgDeliveries.data.some((d) => d.event === 'repository' && d.action === 'deleted'));
  });

  test('issues events carry the issue in the published shape', async () => {
    const h = await hooked({ events: ['issues', 'issue_comment'] });
    const kit = t.octokit(h.user.token);
    const { data: issue } = await kit.rest.issues.create({ owner: h.owner, repo: h.repo, title: 'Cargo manifest', body: 'Three crates.' });
    await kit.rest.issues.createComment({ owner: h.owner, repo: h.repo, issue_number: issue.number, body: 'Loaded.' });
    const [opened] = await h.rx.waitFor(1, ofEvent('issues'));
    const body = payloadOf(opened!);
    assertMatchesWebhookSchema('issues', 'opened', body);
    assert.equal(body.issue.number, issue.number);
    assert.equal(body.repository.id, h.repoId);
    const [comment] = await h.rx.waitFor(1, ofEvent('issue_comment'));
    assertMatchesWebhookSchema('issue_comment', 'created', payloadOf(comment!));
  });

  test('create and delete events of branches and tags', async () => {
    const h = await hooked({ events: ['create', 'delete', 'push'] });
    const kit = t.octokit(h.user.token);
    const { data: main } = await kit.rest.git.getRef({ owner: h.owner, repo: h.repo, ref: 'heads/main' });
    await kit.rest.git.createRef({ owner: h.owner, repo: h.repo, ref: 'refs/heads/topic', sha: main.object.sha });
    await kit.rest.git.createRef({ owner: h.owner, repo: h.repo, ref: 'refs/tags/v1', sha: main.object.sha });
    await kit.rest.git.deleteRef({ owner: h.owner, repo: h.repo, ref: 'heads/topic' });
    const creates = await h.rx.waitFor(2, ofEvent('create'));
    const [del] = await h.rx.waitFor(1, ofEvent('delete'));
    for (const c of creates) assertMatchesWebhookSchema('create', null, payloadOf(c));
    assert.deepEqual(creates.map((c) => [payloadOf(c).ref, payloadOf(c).ref_type]), [['topic', 'branch'], ['v1', 'tag']]);
    const delBody = payloadOf(del!);
    assertMatchesWebhookSchema('delete', null, delBody);
    assert.deepEqual([delBody.ref, delBody.ref_type, delBody.pusher_type], ['topic', 'branch', 'user']);
    const pushes = await h.rx.waitFor(3, ofEvent('push'));
    for (const p of pushes) assertMatchesWebhookSchema('push', null, payloadOf(p));
    const created = payloadOf(pushes[0]!);
    assert.equal(created.created, true);
    assert.deepEqual(created.commits, [], 'a new branch at a known commit brings no new commits');
    assert.equal(created.head_commit.id, main.object.sha);
    assert.equal(created.head_commit.distinct, false);
    const deletedPush = payloadOf(pushes[2]!);
    assert.equal(deletedPush.deleted, true);
    assert.equal(deletedPush.head_commit, null);
  });
});

describe('retries', () => {
  test('a 500 is retried after the base wait; each attempt is recorded, in order', async () => {
    const h = await hooked({ secret: SECRET });
    h.rx.respond = (r) => (header(r, 'x-service-event') === 'push' && h.rx.received.filter(ofEvent('push')).length === 1
      ? { status: 500, body: 'try later' } : { status: 200, body: 'ok' });
    await pushFile(h, 'retry.txt');
    const [first, second] = await h.rx.waitFor(2, ofEvent('push'));
    assert.equal(header(first!, 'x-service-delivery'), header(second!, 'x-service-delivery'), 'a retry is the same delivery');
    assert.ok(second!.at - first!.at >= 100, 'the retry waits WHARF_WEBHOOK_RETRY_BASE_MS');
    assert.equal(second!.body, first!.body);
    assert.ok(await signatureOk(second!, SECRET));
    const ds = await settled(h, (d) => d[0]?.event === 'push' && d[0].status === 'OK');
    const attempts = await deliveryAttempts(t.server.ctx, ds[0]!.id);
    assert.deepEqual(attempts.map((a) => [a.attempt, a.outcome, a.statusCode, a.status]), [
      [1, 'retry', 500, 'Invalid HTTP Response: 500'],
      [2, 'delivered', 200, 'OK'],
    ]);
    assert.equal(attempts[0]!.responseBody, 'try later');
    assert.ok(attempts[0]!.deliveredAt <= attempts[1]!.deliveredAt);
  });

  test('a receiver that was down gets the delivery once it is up', async () => {
    const port = await unusedPort();
    const user = await createUser(t);
    const kit = t.octokit(user.token);
    const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name: `down-${Date.now()}`, auto_init: true });
    const url = `http://127.0.0.1:${port}/hook`;
    const { data: hook } = await kit.rest.repos.createWebhook({ owner: user.login, repo: repo.name, config: { url } });
    const ping = await eventually(async () => {
      const { data } = await kit.rest.repos.listWebhookDeliveries({ owner: user.login, repo: repo.name, hook_id: hook.id });
      return data.find((d) => d.event === 'ping' && d.status.startsWith('failed to connect'));
    }, 20_000, 'a failed attempt');
    assert.equal(ping.status_code, 0);
    const { data: failing } = await kit.rest.repos.getWebhook({ owner: user.login, repo: repo.name, hook_id: hook.id });
    assert.equal(failing.last_response.status, 'failed');
    assert.equal(failing.last_response.code, null);
    assert.match(failing.last_response.message ?? '', /failed to connect/);

    const rx = receivers[receivers.push(new Receiver()) - 1]!;
    await rx.start(port);
    const [r] = await rx.waitFor(1, ofEvent('ping'));
    assert.equal(header(r!, 'x-service-delivery'), ping.guid);
    // The successful retry is a delivery of its own (same GUID); the failed attempt stays as it was.
    const listed = await eventually(async () => {
      const { data } = await kit.rest.repos.listWebhookDeliveries({ owner: user.login, repo: repo.name, hook_id: hook.id });
      return data.find((d) => d.guid === ping.guid && d.status === 'OK');
    });
    const { data: done } = await kit.rest.repos.getWebhookDelivery({ owner: user.login, repo: repo.name, hook_id: hook.id, delivery_id: listed.id });
    assert.equal(done.status_code, 200);
    assert.notEqual(done.id, ping.id);
    const { data: failed } = await kit.rest.repos.getWebhookDelivery({ owner: user.login, repo: repo.name, hook_id: hook.id, delivery_id: ping.id });
    assert.equal(failed.status_code, 0);
    const attempts = await deliveryAttempts(t.server.ctx, ping.id);
    assert.ok(attempts.length >= 2);
    assert.deepEqual(attempts.map((a) => a.outcome), [...attempts.slice(0, -1).map(() => 'retry'), 'delivered']);
    assert.deepEqual(attempts.map((a) => a.attempt), attempts.map((_, i) => i + 1));
  });

  test('a receiver that does not answer in time: timed out, then retried', async () => {
    const h = await hooked();
    let release: (() => void) | null = null;
    h.rx.respond = (r) => {
      if (header(r, 'x-service-event') !== 'push' || h.rx.received.filter(ofEvent('push')).length > 1) return { status: 204 };
      return new Promise((resolve) => { release = () => resolve({ status: 200 }); });
    };
    await pushFile(h, 'slow.txt');
    await h.rx.waitFor(2, ofEvent('push'));
    (release as (() => void) | null)?.();
    const ds = await settled(h, (d) => d[0]?.event === 'push' && d[0].status === 'OK');
    assert.equal(ds[0]!.status_code, 204);
    const attempts = await deliveryAttempts(t.server.ctx, ds[0]!.id);
    assert.deepEqual(attempts.map((a) => [a.outcome, a.status]), [['retry', 'timed out'], ['delivered', 'OK']]);
  });

  test('attempts are bounded (WHARF_WEBHOOK_MAX_ATTEMPTS); a 4xx is not retried', async () => {
    const h = await hooked();
    h.rx.respond = (r) => (header(r, 'x-service-event') === 'push' ? { status: 503 } : header(r, 'x-service-event') === 'ping' ? { status: 404 } : { status: 200 });
    await pushFile(h, 'never.txt');
    await t.octokit(h.user.token).rest.repos.pingWebhook({ owner: h.owner, repo: h.repo, hook_id: h.hookId });
    const ds = await settled(h, (d) => d.some((x) => x.event === 'push' && x.status_code === 503)
      && d.some((x) => x.event === 'ping' && x.status_code === 404));
    const push = ds.find((d) => d.event === 'push')!;
    const pushAttempts = await eventually(async () => {
      const a = await deliveryAttempts(t.server.ctx, push.id);
      return a.at(-1)?.outcome === 'failed' ? a : undefined;
    });
    assert.deepEqual(pushAttempts.map((a) => a.outcome), ['retry', 'retry', 'failed']);
    assert.equal(h.rx.received.filter(ofEvent('push')).length, 3);
    const ping = ds.find((d) => d.event === 'ping' && d.status_code === 404)!;
    assert.equal(ping.status, 'Invalid HTTP Response: 404');
    assert.deepEqual((await deliveryAttempts(t.server.ctx, ping.id)).map((a) => a.outcome), ['failed']);
    const { data: hook } = await t.octokit(h.user.token).rest.repos.getWebhook({ owner: h.owner, repo: h.repo, hook_id: h.hookId });
    assert.equal(hook.last_response.status, 'failed');
  });
});

describe('hooks going away', () => {
  test('a hook deleted while a delivery to it is in flight: its deliveries go, the worker carries on', async () => {
    const h = await hooked();
    let release: () => void = () => undefined;
    h.rx.respond = (r) => (header(r, 'x-service-event') === 'push'
      ? new Promise((resolve) => { release = () => resolve({ status: 200 }); })
      : { status: 200 });
    await pushFile(h, 'gone.txt');
    await h.rx.waitFor(1, ofEvent('push'));
    await t.octokit(h.user.token).rest.repos.deleteWebhook({ owner: h.owner, repo: h.repo, hook_id: h.hookId });
    release();
    const rows = await t.server.ctx.db.selectFrom('hook_deliveries').select('id').where('hook_id', '=', h.hookId).execute();
    assert.deepEqual(rows, []);
    // Deliveries to other hooks go on.
    const other = await hooked();
    await pushFile(other, 'still.txt');
    await other.rx.waitFor(1, ofEvent('push'));
    await settled(other, (d) => d[0]?.event === 'push' && d[0].status === 'OK');
  });
});

describe('deliveries API', () => {
  test('redelivery: 202, the same event again under the same GUID, marked as a redelivery', async () => {
    const h = await hooked({ secret: SECRET });
    const kit = t.octokit(h.user.token);
    await pushFile(h, 'again.txt');
    const [first] = await h.rx.waitFor(1, ofEvent('push'));
    const ds = await settled(h, (d) => d[0]?.event === 'push' && d[0].status === 'OK');
    const res = await kit.rest.repos.redeliverWebhookDelivery({ owner: h.owner, repo: h.repo, hook_id: h.hookId, delivery_id: ds[0]!.id });
    assert.equal(res.status, 202);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}/attempts', 202, res.data);
    const [, second] = await h.rx.waitFor(2, ofEvent('push'));
    assert.equal(header(second!, 'x-service-delivery'), header(first!, 'x-service-delivery'));
    assert.deepEqual(payloadOf(second!), payloadOf(first!));
    assert.ok(await signatureOk(second!, SECRET));
    const after = await settled(h, (d) => d.length === 3 && d[0]!.status === 'OK');
    assert.deepEqual(after.map((d) => [d.event, d.redelivery]), [['push', true], ['push', false], ['ping', false]]);
    assert.equal(after[0]!.guid, after[1]!.guid);

    await failsWith(kit.rest.repos.redeliverWebhookDelivery({ owner: h.owner, repo: h.repo, hook_id: h.hookId, delivery_id: 999_999_999 }), 404);
  });

  test('cursor pagination with a Link header; status filter; 404s; rights', async () => {
    const h = await hooked();
    const kit = t.octokit(h.user.token);
    for (const f of ['a.txt', 'b.txt']) await pushFile(h, f);
    const all = await settled(h, (d) => d.length === 3 && d.every((x) => x.status === 'OK'));
    const first = await kit.rest.repos.listWebhookDeliveries({ owner: h.owner, repo: h.repo, hook_id: h.hookId, per_page: 2 });
    assert.deepEqual(first.data.map((d) => d.id), all.slice(0, 2).map((d) => d.id));
    const link = first.headers.link ?? '';
    assert.match(link, /rel="next"/);
    const next = new URL(/<([^>]+)>; rel="next"/.exec(link)![1]!);
    assert.equal(next.searchParams.get('cursor'), `v1_${all[2]!.id}`);
    assert.equal(next.searchParams.get('per_page'), '2');
    const second = await t.request(`${next.pathname}${next.search}`, { token: h.user.token });
    const secondBody = await second.json() as { id: number }[];
    assert.deepEqual(secondBody.map((d) => d.id), [all[2]!.id]);
    assert.equal(second.headers.get('link'), null);

    const ok = await kit.rest.repos.listWebhookDeliveries({ owner: h.owner, repo: h.repo, hook_id: h.hookId, status: 'success' });
    assert.equal(ok.data.length, 3);
    const failed = await kit.rest.repos.listWebhookDeliveries({ owner: h.owner, repo: h.repo, hook_id: h.hookId, status: 'failure' });
    assert.deepEqual(failed.data, []);
    assert.equal((await t.request(`/repos/${h.owner}/${h.repo}/hooks/${h.hookId}/deliveries?cursor=nonsense`, { token: h.user.token })).status, 422);
    assert.equal((await t.request(`/repos/${h.owner}/${h.repo}/hooks/${h.hookId}/deliveries?status=maybe`, { token: h.user.token })).status, 422);

    await failsWith(kit.rest.repos.getWebhookDelivery({ owner: h.owner, repo: h.repo, hook_id: h.hookId, delivery_id: 999_999_999 }), 404);
    await failsWith(kit.rest.repos.listWebhookDeliveries({ owner: h.owner, repo: h.repo, hook_id: 999_999_999 }), 404);
    // Another hook's delivery is not found under this one.
    const other = await hooked();
    const theirs = await settled(other, (d) => d.length === 1);
    await failsWith(kit.rest.repos.getWebhookDelivery({ owner: h.owner, repo: h.repo, hook_id: h.hookId, delivery_id: theirs[0]!.id }), 404);
    const stranger = await createUser(t);
    await failsWith(t.octokit(stranger.token).rest.repos.listWebhookDeliveries({ owner: h.owner, repo: h.repo, hook_id: h.hookId }), 403);
    await failsWith(t.octokit(stranger.token).rest.repos.redeliverWebhookDelivery({ owner: h.owner, repo: h.repo, hook_id: h.hookId, delivery_id: all[0]!.id }), 403);
  });

  test('organization hook deliveries: get and redeliver', async () => {
    const org = await createOrgWithOwner(t, ['repo', 'admin:org', 'admin:org_hook']);
    const kit = t.octokit(org.owner.token);
    const rx = await receiver();
    const { data: hook } = await kit.rest.orgs.createWebhook({ org: org.login, name: 'web', config: { url: rx.url() } });
    await rx.waitFor(1, ofEvent('ping'));
    const listed = await eventually(async () => {
      const { data } = await kit.rest.orgs.listWebhookDeliveries({ org: org.login, hook_id: hook.id });
      return data[0]?.status === 'OK' ? data : undefined;
    });
    const { data: one } = await kit.rest.orgs.getWebhookDelivery({ org: org.login, hook_id: hook.id, delivery_id: listed[0]!.id });
    assertMatchesOpenApi('GET', '/orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}', 200, one);
    assert.equal(one.event, 'ping');
    assert.equal(one.repository_id, null);
    const res = await kit.rest.orgs.redeliverWebhookDelivery({ org: org.login, hook_id: hook.id, delivery_id: listed[0]!.id });
    assert.equal(res.status, 202);
    await rx.waitFor(2, ofEvent('ping'));
    const member = await createUser(t, ['admin:org_hook']);
    await kit.rest.orgs.setMembershipForUser({ org: org.login, username: member.login, role: 'member' });
    await failsWith(t.octokit(member.token).rest.orgs.listWebhookDeliveries({ org: org.login, hook_id: hook.id }), 403);
  });
});

describe('restarts and crashes', () => {
  test('deliveries queued when the server stops are delivered by the next start', async () => {
    const port = await unusedPort();
    // Retries stay pending across the restart: enough attempts, not too fast.
    const env = { ...ENV, WHARF_WEBHOOK_RETRY_BASE_MS: '300', WHARF_WEBHOOK_MAX_ATTEMPTS: '20' };
    const first = await startTestServer({ env });
    let second: TestServer | null = null;
    try {
      const user = await createUser(first);
      const kit = first.octokit(user.token);
      const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name: 'restart', auto_init: true });
      const { data: hook } = await kit.rest.repos.createWebhook({
        owner: user.login, repo: repo.name, events: ['star', 'push'], config: { url: `http://127.0.0.1:${port}/hook`, secret: SECRET },
      });
      const shas: string[] = [];
      for (const f of ['x.txt', 'y.txt']) {
        const { data } = await kit.rest.repos.createOrUpdateFileContents({ owner: user.login, repo: repo.name, path: f, message: f, content: b64(f) });
        shas.push(data.commit.sha!);
      }
      // The receiver is down: the first attempts fail (each attempt listed), and retries are pending.
      await eventually(async () => {
        const { data } = await kit.rest.repos.listWebhookDeliveries({ owner: user.login, repo: repo.name, hook_id: hook.id, per_page: 100 });
        return new Set(data.map((d) => d.guid)).size === 3 && data.every((d) => d.status.startsWith('failed to connect')) ? data : undefined;
      });
      // Stop the server only: its data stays for the next start.
      await first.server.close();

      const rx = receivers[receivers.push(new Receiver()) - 1]!;
      await rx.start(port);
      second = await startTestServer({ env, shareWith: first });
      const got = await rx.waitFor(3);
      // Each once (retries fall due in their own order, so the order is not asserted).
      assert.equal(new Set(got.map((r) => header(r, 'x-service-delivery'))).size, 3);
      assert.deepEqual(got.map((r) => header(r, 'x-service-event')).sort(), ['ping', 'push', 'push']);
      assert.deepEqual(got.filter(ofEvent('push')).map((r) => payloadOf(r).after).sort(), [...shas].sort());
      for (const r of got) assert.ok(await signatureOk(r, SECRET));
      // The newest attempt of each delivery (the list is newest first) is the one that got through.
      const latest = await eventually(async () => {
        const { data } = await second!.octokit(user.token).rest.repos.listWebhookDeliveries({ owner: user.login, repo: repo.name, hook_id: hook.id, per_page: 100 });
        const byGuid = new Map<string, (typeof data)[number]>();
        for (const d of data) if (!byGuid.has(d.guid)) byGuid.set(d.guid, d);
        return [...byGuid.values()].every((d) => d.status === 'OK') ? byGuid : undefined;
      });
      assert.equal(latest.size, 3);
    } finally {
      await second?.close();
      await removeData(first.dataDir, first.pgSchema ?? null);
    }
  });

  test('a delivery cut off by a crash (kill -9 mid-request) is sent again after restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-crash-'));
    const pgUrl = process.env.WHARF_TEST_DATABASE_URL;
    const pgSchema = testDialect() === 'postgres' && pgUrl ? await createPgSchema(pgUrl) : null;
    const env = {
      ...ENV, WHARF_WEBHOOK_TIMEOUT_MS: '800', WHARF_DATA_DIR: dataDir, WHARF_ADMIN_TOKEN: ADMIN_TOKEN,
      ...(pgSchema && pgUrl ? { DATABASE_URL: pgUrl, WHARF_DATABASE_SCHEMA: pgSchema } : {}),
    };
    const rx = await receiver();
    const hold: Promise<never> = new Promise(() => undefined);
    rx.respond = (_r, index) => (index === 0 ? hold : { status: 200, body: 'ok' });
    let child = await startMain(env);
    try {
      const api = async (method: string, pathname: string, token: string, body?: unknown) => {
        const res = await fetch(`${child.base}${pathname}`, {
          method, headers: { authorization: `token ${token}`, 'user-agent': 'wharf-tests', 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await res.text();
        assert.ok(res.ok, `${method} ${pathname}: ${res.status} ${text}`);
        return text ? JSON.parse(text) : null;
      };
      await api('POST', '/admin/users', ADMIN_TOKEN, { login: 'crashy', email: 'crashy@example.com' });
      const { token } = await api('POST', '/admin/users/crashy/authorizations', ADMIN_TOKEN, { scopes: ['repo'] });
      await api('POST', '/user/repos', token, { name: 'crash', auto_init: true });
      const hook = await api('POST', '/repos/crashy/crash/hooks', token, { config: { url: rx.url() } });
      const [held] = await rx.waitFor(1);
      child.proc.kill('SIGKILL');
      await child.exited;

      child = await startMain(env);
      const again = await rx.waitFor(2);
      assert.equal(header(again[1]!, 'x-service-delivery'), header(held!, 'x-service-delivery'));
      assert.equal(again[1]!.body, held!.body);
      const deliveries = await eventually(async () => {
        const ds = await api('GET', `/repos/crashy/crash/hooks/${hook.id}/deliveries`, token) as { status: string; guid: string }[];
        return ds[0]?.status === 'OK' ? ds : undefined;
      });
      assert.equal(deliveries.length, 1);
      assert.equal(deliveries[0]!.guid, header(held!, 'x-service-delivery'));
    } finally {
      child.proc.kill('SIGKILL');
      await child.exited;
      await removeData(dataDir, pgSchema);
    }
  });
});

describe('several processes', () => {
  test('two Wharfs on one PostgreSQL database deliver each event exactly once', {
    skip: testDialect() !== 'postgres' && 'SQLite is served by one process',
  }, async () => {
    const a = await startTestServer({ env: ENV });
    const b = await startTestServer({ env: ENV, shareWith: a });
    try {
      const user = await createUser(a);
      const { data: repo } = await a.octokit(user.token).rest.repos.createForAuthenticatedUser({ name: 'shared', auto_init: true });
      const rx = await receiver();
      const { data: hook } = await a.octokit(user.token).rest.repos.createWebhook({ owner: user.login, repo: repo.name, config: { url: rx.url() } });
      const shas: string[] = [];
      for (let i = 0; i < 10; i++) {
        const via = i % 2 === 0 ? a : b;
        const { data } = await via.octokit(user.token).rest.repos.createOrUpdateFileContents({
          owner: user.login, repo: repo.name, path: `f${i}.txt`, message: `f${i}`, content: b64(`${i}`),
        });
        shas.push(data.commit.sha!);
      }
      await rx.waitFor(11);
      await eventually(async () => {
        const { data } = await b.octokit(user.token).rest.repos.listWebhookDeliveries({ owner: user.login, repo: repo.name, hook_id: hook.id });
        return data.length === 11 && data.every((d) => d.status === 'OK') ? data : undefined;
      });
      assert.equal(rx.received.length, 11, 'no delivery was sent twice');
      assert.equal(new Set(rx.received.map((r) => header(r, 'x-service-delivery'))).size, 11);
      assert.deepEqual(rx.received.filter(ofEvent('push')).map((r) => payloadOf(r).after).sort(), [...shas].sort());
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('address guard', () => {
  test('without WHARF_WEBHOOK_ALLOWED_HOSTS, loopback is refused and the refusal recorded (no retry)', async () => {
    const strict = await startTestServer({ env: { WHARF_WEBHOOK_RETRY_BASE_MS: '50', WHARF_WEBHOOK_POLL_MS: '200' } });
    try {
      const rx = await receiver();
      const user = await createUser(strict);
      const kit = strict.octokit(user.token);
      const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name: 'guarded', auto_init: true });
      const literals = [rx.url(), `http://[::ffff:127.0.0.1]:${rx.port}/mapped`, `http://[::1]:${rx.port}/v6`];
      // A loopback literal is refused when saved (test/webhook-address-guard.test.ts)…
      for (const url of literals) {
        await assert.rejects(kit.rest.repos.createWebhook({ owner: user.login, repo: repo.name, config: { url } }), (err: { status?: number }) => err.status === 422);
      }
      // …a name is judged at delivery; and hooks saved before that rule still are.
      const hooks = [(await kit.rest.repos.createWebhook({ owner: user.login, repo: repo.name, config: { url: `http://localhost:${rx.port}/named` }, events: ['e0'] })).data];
      for (const url of literals) {
        const { data: hook } = await kit.rest.repos.createWebhook({ owner: user.login, repo: repo.name, config: { url: `http://localhost:${rx.port}/saved-${hooks.length}` }, events: [`e${hooks.length}`], active: false });
        await strict.server.ctx.db.updateTable('hooks').set({ config_url: url }).where('id', '=', hook.id).execute();
        await kit.rest.repos.updateWebhook({ owner: user.login, repo: repo.name, hook_id: hook.id, active: true });
        await kit.rest.repos.pingWebhook({ owner: user.login, repo: repo.name, hook_id: hook.id });
        hooks.push(hook);
      }
      for (const hook of hooks) {
        const [d] = await eventually(async () => {
          const { data } = await kit.rest.repos.listWebhookDeliveries({ owner: user.login, repo: repo.name, hook_id: hook.id });
          return data[0]?.status.startsWith('refused') ? data : undefined;
        });
        assert.equal(d!.status_code, 0);
        assert.match(d!.status, /refused: .* which deliveries may not reach/);
        const attempts = await deliveryAttempts(strict.server.ctx, d!.id);
        assert.deepEqual(attempts.map((a) => a.outcome), ['refused']);
        const row = await strict.server.ctx.db.selectFrom('hook_deliveries').select(['state', 'attempts']).where('id', '=', d!.id).executeTakeFirstOrThrow();
        assert.deepEqual(row, { state: 'failed', attempts: 1 });
        const { data: h } = await kit.rest.repos.getWebhook({ owner: user.login, repo: repo.name, hook_id: hook.id });
        assert.equal(h.last_response.status, 'failed');
      }
      assert.equal(rx.received.length, 0, 'nothing reached the receiver');
    } finally {
      await strict.close();
    }
  });

  test('ranges refused and allowed', () => {
    const none = new AddressGuard([]);
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1',
      '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2002:a00:1::1', '224.0.0.1']) {
      assert.equal(none.permits('example.com', a), false, a);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) assert.equal(none.permits('example.com', a), true, a);
    const some = new AddressGuard(['10.0.0.0/8', '::1', 'hooks.internal', '[fd00::]', '192.168.1.7']);
    assert.equal(some.permits('x', '10.200.0.1'), true);
    assert.equal(some.permits('x', '::ffff:10.200.0.1'), true);
    assert.equal(some.permits('x', '::1'), true);
    assert.equal(some.permits('x', '127.0.0.1'), false);
    assert.equal(some.permits('x', 'fd00::'), true);
    assert.equal(some.permits('x', 'fd00::1'), false);
    assert.equal(some.permits('x', '192.168.1.7'), true);
    assert.equal(some.permits('x', '192.168.1.8'), false);
    assert.equal(some.permits('HOOKS.internal', '192.168.9.9'), true);
  });
});

// ---------------------------------------------------------------- a real process, for kill -9

async function removeData(dataDir: string, pgSchema: string | null): Promise<void> {
  fs.rmSync(dataDir, { recursive: true, force: true });
  const pgUrl = process.env.WHARF_TEST_DATABASE_URL;
  if (pgUrl && pgSchema && !process.env.WHARF_TEST_KEEP_SCHEMAS) await dropPgSchema(pgUrl, pgSchema);
}

interface Main {
  proc: ChildProcess;
  base: string;
  exited: Promise<void>;
}

async function startMain(env: Record<string, string>): Promise<Main> {
  const port = await unusedPort();
  const proc = spawn(process.execPath, [...programArgs('src/main.ts')], {
    env: { ...process.env, WHARF_SSH_PORT: '0', ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
  proc.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  try {
    await eventually(async () => {
      if (proc.exitCode !== null) throw new Error(`server exited:\n${out}`);
      return out.includes('wharf listening') ? true : undefined;
    }, 60_000, 'server start');
  } catch (err) {
    proc.kill('SIGKILL');
    throw err;
  }
  return { proc, base: `http://127.0.0.1:${port}`, exited };
}
