// Issue #22, open edges of the SSRF guard (src/modules/hooks/hooks.address-guard.ts):
// - DNS rebinding: a hook's host name answers an allowed address, then loopback (TTL 0,
//   from a DNS server of the test's own, WHARF_WEBHOOK_DNS_SERVERS). Each delivery
//   resolves the name once and connects to the very address it checked: the first
//   reaches the allowed receiver, the next (answered loopback) is refused and recorded
//   as refused, and nothing ever reaches the loopback listener on the same port.
// - A hook URL whose host is a loopback, private, link-local or metadata address literal
//   (in any spelling the URL parser reads as one) is refused with upstream's 422 when
//   saved — repository and organization hooks, created or PATCHed — unless
//   WHARF_WEBHOOK_ALLOWED_HOSTS allows it; a host name is saved (it is judged at delivery).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestError } from '@octokit/request-error';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { eventually } from './helpers/webhook-receiver.ts';
import { DnsResponder } from './helpers/dns-responder.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';

const ALLOWED = '127.0.0.2';
const REBINDING = 'hooks.rebind.test';

/** Records the path of every request it gets on host:port (port 0: any). */
async function listener(host: string, port: number): Promise<{ server: http.Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return { server, port: (server.address() as AddressInfo).port, hits };
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('DNS rebinding: a delivery connects to the address it checked', () => {
  let t: TestServer;
  let dns: DnsResponder;
  let allowed: Awaited<ReturnType<typeof listener>>;
  let loopback: Awaited<ReturnType<typeof listener>>;
  let answered = 0;

  before(async () => {
    // The allowed address stands for a public one; the loopback listener shares its port,
    // so a second resolution at connect time would land there.
    for (let tries = 0; ; tries++) {
      allowed = await listener(ALLOWED, 0);
      try {
        loopback = await listener('127.0.0.1', allowed.port);
        break;
      } catch (err) {
        await close(allowed.server);
        if (tries >= 5) throw err;
      }
    }
    dns = new DnsResponder((name, type) => {
      if (name !== REBINDING) return null;
      if (type !== 'A') return [];
      answered += 1;
      return [answered % 2 === 1 ? ALLOWED : '127.0.0.1'];
    });
    await dns.start();
    t = await startTestServer({
      env: {
        WHARF_WEBHOOK_ALLOWED_HOSTS: ALLOWED,
        WHARF_WEBHOOK_DNS_SERVERS: dns.server,
        WHARF_WEBHOOK_MAX_ATTEMPTS: '1',
        WHARF_WEBHOOK_TIMEOUT_MS: '5000',
        WHARF_WEBHOOK_POLL_MS: '50',
      },
    });
  });

  after(async () => {
    await t?.close();
    await dns?.stop();
    if (allowed) await close(allowed.server);
    if (loopback) await close(loopback.server);
  });

  test('allowed answer: delivered there; loopback answer: refused and recorded so; the loopback listener never reached', async () => {
    const user = await createUser(t);
    const kit = t.octokit(user.token);
    const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name: 'rebound' });
    // A name is saved: what it resolves to is judged at each delivery.
    const { data: hook } = await kit.rest.repos.createWebhook({
      owner: user.login, repo: repo.name, config: { url: `http://${REBINDING}:${allowed.port}/hook`, content_type: 'json' },
    });
    const list = async () => (await kit.rest.repos.listWebhookDeliveries({ owner: user.login, repo: repo.name, hook_id: hook.id })).data;

    // The ping a new hook gets: the name answers the allowed address once.
    const [first] = await eventually(async () => { const d = await list(); return d.length === 1 && d[0]!.status_code > 0 ? d : undefined; }, 20_000, 'the ping delivered');
    assert.equal(first!.status_code, 200, `the ping reached the address checked: ${first!.status}`);
    assert.deepEqual(allowed.hits, ['/hook']);
    assert.equal(dns.asked(REBINDING, 'A'), 1, 'resolved once for the delivery, not again to connect');

    // The next answer is loopback: refused before connecting, final.
    await kit.rest.repos.pingWebhook({ owner: user.login, repo: repo.name, hook_id: hook.id });
    const refused = await eventually(async () => (await list()).find((d) => d.id !== first!.id && d.status !== 'pending' && d.status !== ''), 20_000, 'the second ping settled');
    assert.equal(refused.status_code, 0);
    assert.match(refused.status, /^refused: hooks\.rebind\.test resolves to 127\.0\.0\.1/);
    assert.equal(dns.asked(REBINDING, 'A'), 2);

    // And the allowed answer again: delivered again, to the same place.
    await kit.rest.repos.pingWebhook({ owner: user.login, repo: repo.name, hook_id: hook.id });
    await eventually(async () => ((await list()).filter((d) => d.status_code === 200).length === 2 ? true : undefined), 20_000, 'the third ping delivered');
    assert.deepEqual(allowed.hits, ['/hook', '/hook']);
    assert.equal(dns.asked(REBINDING, 'A'), 3);
    assert.deepEqual(loopback.hits, [], 'nothing reached the loopback listener');
  });
});

describe('hook URLs with a forbidden address literal are refused when saved', () => {
  let t: TestServer;
  let owner: CreatedUser;
  let org: string;

  before(async () => {
    // 127.0.0.2 is allowed: allowing one loopback address allows no other.
    t = await startTestServer({ env: { WHARF_WEBHOOK_ALLOWED_HOSTS: `${ALLOWED},10.9.0.0/16`, WHARF_WEBHOOK_POLL_MS: '60000' } });
    owner = await createUser(t, ['repo', 'user', 'admin:org', 'admin:org_hook']);
    org = (await createOrg(t, owner.login)).login;
    await t.octokit(owner.token).rest.repos.createForAuthenticatedUser({ name: 'guarded' });
  });

  after(async () => { await t?.close(); });

  const FORBIDDEN: [string, string][] = [
    ['http://127.0.0.1:9/x', '127.0.0.1'],
    ['http://127.1/x', '127.0.0.1'],
    ['http://2130706433/x', '127.0.0.1'],
    ['http://0x7f000001/x', '127.0.0.1'],
    ['http://0.0.0.0/x', '0.0.0.0'],
    ['http://[::1]/x', '::1'],
    ['http://[::ffff:127.0.0.1]/x', '::ffff:7f00:1'],
    ['http://[::127.0.0.1]/x', '::7f00:1'],
    ['https://10.0.0.1/x', '10.0.0.1'],
    ['http://192.168.1.1/x', '192.168.1.1'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['http://[fd00:ec2::254]/x', 'fd00:ec2::254'],
    ['http://[fe80::1]/x', 'fe80::1'],
  ];

  async function refusal(call: () => Promise<unknown>): Promise<{ status: number; data: unknown }> {
    try {
      await call();
    } catch (err) {
      if (err instanceof RequestError) return { status: err.status, data: err.response?.data };
      throw err;
    }
    assert.fail('the request succeeded');
  }

  test('repository hooks: 422 with upstream\'s error, nothing saved', async () => {
    const kit = t.octokit(owner.token);
    for (const [url, shown] of FORBIDDEN) {
      const r = await refusal(() => kit.rest.repos.createWebhook({ owner: owner.login, repo: 'guarded', config: { url } }));
      assert.equal(r.status, 422, url);
      assert.deepEqual(r.data, {
        message: 'Validation Failed',
        errors: [{ resource: 'Hook', code: 'custom', field: 'url', message: `url is not supported because it isn't reachable over the public Internet (${shown})` }],
        documentation_url: (r.data as { documentation_url: string }).documentation_url,
        status: '422',
      }, url);
    }
    assert.equal((await kit.rest.repos.listWebhooks({ owner: owner.login, repo: 'guarded' })).data.length, 0);
  });

  test('allowed addresses and host names are saved; PATCH to a forbidden literal is refused and changes nothing', async () => {
    const kit = t.octokit(owner.token);
    const saved: number[] = [];
    for (const url of [`http://${ALLOWED}:9/a`, 'http://10.9.1.1/b', 'http://localhost:9/c', 'https://hooks.example.com/d']) {
      const { data } = await kit.rest.repos.createWebhook({ owner: owner.login, repo: 'guarded', config: { url }, active: false });
      saved.push(data.id);
    }
    const hookId = saved[0]!;
    const r = await refusal(() => kit.rest.repos.updateWebhook({ owner: owner.login, repo: 'guarded', hook_id: hookId, config: { url: 'http://127.0.0.1:9/a' } }));
    assert.equal(r.status, 422);
    const r2 = await refusal(() => kit.rest.repos.updateWebhook({ owner: owner.login, repo: 'guarded', hook_id: hookId, config: { url: 'http://[::1]:9/a' } }));
    assert.equal(r2.status, 422);
    const { data: hook } = await kit.rest.repos.getWebhook({ owner: owner.login, repo: 'guarded', hook_id: hookId });
    assert.equal(hook.config.url, `http://${ALLOWED}:9/a`);
  });

  test('organization hooks: created or PATCHed, the same refusal', async () => {
    const kit = t.octokit(owner.token);
    const r = await refusal(() => kit.rest.orgs.createWebhook({ org, name: 'web', config: { url: 'http://169.254.169.254/' } }));
    assert.equal(r.status, 422);
    assert.match(JSON.stringify(r.data), /isn't reachable over the public Internet \(169\.254\.169\.254\)/);
    const { data } = await kit.rest.orgs.createWebhook({ org, name: 'web', config: { url: 'https://hooks.example.com/org' }, active: false });
    const r2 = await refusal(() => kit.rest.orgs.updateWebhook({ org, hook_id: data.id, config: { url: 'http://192.168.0.1/' } }));
    assert.equal(r2.status, 422);
    const r3 = await refusal(() => kit.rest.orgs.updateWebhook({ org, hook_id: data.id, config: { url: 'http://0x7f.1/' } }));
    assert.equal(r3.status, 422);
    assert.equal((await kit.rest.orgs.getWebhook({ org, hook_id: data.id })).data.config.url, 'https://hooks.example.com/org');
  });
});
