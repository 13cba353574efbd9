// GET /healthz (the process answers), GET /readyz (the database, the repositories
// directory and git), GET /metrics (Prometheus text for site admins, or anyone on
// WHARF_METRICS_PORT): through real HTTP, with real failures — a repositories directory
// that is a file, a database handle destroyed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { eventually, headerOf, ReceiverPool, unusedPort, type Receiver } from './helpers/webhook-receiver.ts';

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';
const ALL_OK = {
  status: 'ok',
  checks: { database: { status: 'ok', message: null }, storage: { status: 'ok', message: null }, git: { status: 'ok', message: null } },
};

interface Sample { name: string; labels: Record<string, string>; value: number }

/** The samples of a text exposition (comments left out). */
function parseSamples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when there is none. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = parseSamples(text).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.ok(found.length <= 1, `${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

async function scrape(t: TestServer): Promise<string> {
  const res = await t.request('/metrics', { token: ADMIN_TOKEN });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), PROMETHEUS_TEXT);
  return res.text();
}

let t: TestServer;
/** Webhook deliveries and the outbox: its delivery worker is stopped at the end. */
let queues: TestServer;
/** Serves /metrics on WHARF_METRICS_PORT too; its repositories directory and then its database are broken. */
let broken: TestServer;
let metricsPort: number;
const pool = new ReceiverPool();

before(async () => {
  metricsPort = await unusedPort();
  [t, queues, broken] = await Promise.all([
    // Anonymous calls of this file share one address and budget.
    startTestServer({ env: { WHARF_RATE_LIMIT_UNAUTHENTICATED: '1000' } }),
    startTestServer({
      env: {
        WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1',
        WHARF_WEBHOOK_POLL_MS: '100',
        // A failed delivery's retry stays queued for the rest of the test.
        WHARF_WEBHOOK_RETRY_BASE_MS: '3600000',
      },
    }),
    startTestServer({ env: { WHARF_METRICS_PORT: String(metricsPort) } }),
  ]);
});

after(async () => {
  await Promise.all([t?.close(), queues?.close(), broken?.close()]);
  await pool.stopAll();
});

describe('GET /healthz', () => {
  test('200 to anyone, spending no rate limit', async () => {
    for (const pathname of ['/healthz', '/api/v3/healthz']) {
      const res = await t.request(pathname);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await res.json(), { status: 'ok' });
      assert.equal(res.headers.get('x-ratelimit-remaining'), null);
    }
    // The anonymous budget was not touched by the probes.
    const rate = await t.request('/rate_limit');
    assert.equal(((await rate.json()) as { resources: { core: { used: number } } }).resources.core.used, 0);
  });
});

describe('GET /readyz', () => {
  test('200 with each check when the database, the repositories directory and git answer', async () => {
    const res = await t.request('/readyz');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), ALL_OK);
    // A fresh data dir has no repository yet: the check made the directory (the first one would have).
    assert.ok(fs.statSync(path.join(t.dataDir, 'repos')).isDirectory());
    assert.deepEqual(fs.readdirSync(path.join(t.dataDir, 'repos')), [], 'the probe file is removed');
  });

  test('503 naming the storage check while the repositories directory cannot take a file', async () => {
    const repos = path.join(broken.dataDir, 'repos');
    assert.equal((await broken.request('/readyz')).status, 200);
    // Not chmod: tests may run as root, which writes through any mode. A file where the
    // directory should be refuses every write under it, as missing storage would.
    fs.renameSync(repos, `${repos}.away`);
    fs.writeFileSync(repos, 'not a directory');
    try {
      const res = await broken.request('/readyz');
      assert.equal(res.status, 503);
      assert.deepEqual(await res.json(), {
        status: 'unavailable',
        checks: {
          database: { status: 'ok', message: null },
          storage: { status: 'failed', message: 'The repositories directory cannot be written.' },
          git: { status: 'ok', message: null },
        },
      });
      assert.equal((await broken.request('/healthz')).status, 200);
    } finally {
      fs.rmSync(repos);
      fs.renameSync(`${repos}.away`, repos);
    }
    const res = await broken.request('/readyz');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), ALL_OK);
  });
});

describe('GET /metrics', () => {
  let user: CreatedUser;
  before(async () => {
    user = await createUser(t);
    await t.octokit(user.token).rest.repos.createForAuthenticatedUser({ name: 'gauge' });
  });

  test('401 without credentials, 403 for a user who is not a site admin, 200 for a site admin', async () => {
    const anonymous = await t.request('/metrics');
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as { message: string }).message, 'Requires authentication');
    const member = await t.request('/metrics', { token: user.token });
    assert.equal(member.status, 403);
    assert.equal(((await member.json()) as { message: string }).message, 'Must be a site administrator.');
    const text = await scrape(t);
    assert.match(text, /^# HELP wharf_http_requests_total /m);
    assert.match(text, /^# TYPE wharf_http_request_duration_seconds histogram$/m);
    assert.match(text, /^process_resident_memory_bytes \d+/m);
  });

  test('requests are counted by route pattern, method and status, with latency buckets', async () => {
    const route = { route: '/repos/:owner/:repo', method: 'GET', status: '200' };
    const get = async () => assert.equal((await t.request(`/repos/${user.login}/gauge`, { token: user.token })).status, 200);
    await get();
    const first = valueOf(await scrape(t), 'wharf_http_requests_total', route);
    assert.ok(first !== undefined && first >= 1, `count after one call: ${first}`);
    await get();
    await get();
    // Under /api/v3 too: the same route.
    assert.equal((await t.request(`/api/v3/repos/${user.login}/gauge`, { token: user.token })).status, 200);
    const text = await scrape(t);
    assert.equal(valueOf(text, 'wharf_http_requests_total', route), first + 3);
    assert.equal(valueOf(text, 'wharf_http_request_duration_seconds_count', route), first + 3);
    assert.equal(valueOf(text, 'wharf_http_request_duration_seconds_bucket', { ...route, le: '+Inf' }), first + 3);
    const buckets = parseSamples(text).filter((s) => s.name === 'wharf_http_request_duration_seconds_bucket'
      && s.labels.route === route.route && s.labels.method === 'GET' && s.labels.status === '200');
    assert.ok(buckets.length > 5, 'a line per bucket');
    for (let i = 1; i < buckets.length; i++) assert.ok(buckets[i]!.value >= buckets[i - 1]!.value, 'buckets are cumulative');
    assert.ok((valueOf(text, 'wharf_http_request_duration_seconds_sum', route) ?? 0) > 0);

    // A repository that does not exist: the same pattern, status 404; a path no route matches: one series for all.
    assert.equal((await t.request(`/repos/${user.login}/nothing-here`, { token: user.token })).status, 404);
    assert.equal((await t.request('/no/such/route/at/all')).status, 404);
    const later = await scrape(t);
    assert.equal(valueOf(later, 'wharf_http_requests_total', { ...route, status: '404' }), 1);
    assert.ok((valueOf(later, 'wharf_http_requests_total', { route: '(unmatched)', method: 'GET', status: '404' }) ?? 0) >= 1);
    // Probes are counted like any route.
    assert.ok((valueOf(later, 'wharf_http_requests_total', { route: '/healthz', method: 'GET', status: '200' }) ?? 0) >= 2);
  });

  test('queue depths: webhook deliveries by state, the outbox, background jobs', async () => {
    const owner = await createUser(queues);
    const kit = queues.octokit(owner.token);
    await kit.rest.repos.createForAuthenticatedUser({ name: 'queue', auto_init: true });
    const rx: Receiver = await pool.start();
    // The ping is delivered; pushes fail with a 500, whose retry waits (an hour).
    rx.respond = (r) => ({ status: headerOf(r, 'x-service-event') === 'ping' ? 200 : 500 });
    const deliveries = (text: string) => Object.fromEntries(['pending', 'in_progress', 'delivered', 'failed']
      .map((state) => [state, valueOf(text, 'wharf_webhook_deliveries', { state })]));

    const before = await scrape(queues);
    assert.deepEqual(deliveries(before), { pending: 0, in_progress: 0, delivered: 0, failed: 0 });
    for (const queue of ['search_index', 'org_migrations', 'migration_imports', 'source_imports']) {
      assert.equal(typeof valueOf(before, 'wharf_jobs_waiting', { queue }), 'number', queue);
    }
    assert.equal(typeof valueOf(before, 'wharf_outbox_undispatched'), 'number');

    await kit.rest.repos.createWebhook({ owner: owner.login, repo: 'queue', events: ['push'], config: { url: rx.url() } });
    await eventually(async () => (deliveries(await scrape(queues)).delivered === 1 ? true : undefined), 20_000, 'the ping delivered');

    const pushFile = (name: string) => kit.rest.repos.createOrUpdateFileContents({
      owner: owner.login, repo: 'queue', path: name, message: `Add ${name}`, content: Buffer.from(name).toString('base64'),
    });
    await pushFile('a.txt');
    const failed = await eventually(async () => {
      const d = deliveries(await scrape(queues));
      return d.failed === 1 && d.pending === 1 ? d : undefined;
    }, 20_000, 'the push failed and its retry queued');
    assert.deepEqual(failed, { pending: 1, in_progress: 0, delivered: 1, failed: 1 });

    // With no worker dispatching, a new event waits in the outbox.
    assert.equal(valueOf(await scrape(queues), 'wharf_outbox_undispatched'), 0);
    await queues.server.webhooks.stop();
    await pushFile('b.txt');
    const waiting = valueOf(await scrape(queues), 'wharf_outbox_undispatched') ?? 0;
    assert.ok(waiting >= 1, `undispatched: ${waiting}`);
  });
});

describe('WHARF_METRICS_PORT', () => {
  const onPort = (pathname: string, init: RequestInit = {}) => fetch(`http://127.0.0.1:${metricsPort}${pathname}`, init);

  test('/metrics on its own port needs no credentials; PORT still asks for a site admin', async () => {
    assert.equal((await broken.request('/healthz')).status, 200);
    const res = await onPort('/metrics');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), PROMETHEUS_TEXT);
    const text = await res.text();
    assert.ok((valueOf(text, 'wharf_http_requests_total', { route: '/healthz', method: 'GET', status: '200' }) ?? 0) >= 1);
    assert.equal(valueOf(text, 'wharf_webhook_deliveries', { state: 'pending' }), 0);
    assert.equal((await onPort('/metrics', { method: 'HEAD' })).status, 200);
    assert.equal((await onPort('/')).status, 404);
    assert.equal((await onPort('/metrics', { method: 'POST' })).status, 405);
    assert.equal((await broken.request('/metrics')).status, 401);
  });

  test('with the database gone: /readyz 503 naming it, /healthz 200, /metrics on the port without queue depths', async () => {
    // The server's own handle, destroyed: every query fails from now on (this server is closed at the end).
    await broken.server.database.db.destroy();
    const res = await broken.request('/readyz');
    assert.equal(res.status, 503);
    assert.deepEqual(await res.json(), {
      status: 'unavailable',
      checks: {
        database: { status: 'failed', message: 'The database did not answer.' },
        storage: { status: 'ok', message: null },
        git: { status: 'ok', message: null },
      },
    });
    const live = await broken.request('/healthz');
    assert.equal(live.status, 200);
    assert.deepEqual(await live.json(), { status: 'ok' });
    const metrics = await onPort('/metrics');
    assert.equal(metrics.status, 200);
    const text = await metrics.text();
    assert.ok((valueOf(text, 'wharf_http_requests_total', { route: '/readyz', method: 'GET', status: '503' }) ?? 0) >= 1);
    assert.doesNotMatch(text, /^wharf_webhook_deliveries\{/m, 'queue depths are left out, not shown as zeros');
  });
});
