// Rate limits: budgets per caller, headers on every response, 403 past the limit,
// counters shared by processes and kept across restarts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestServer } from './helpers/server.ts';
import { createUser } from './factories/accounts.ts';

const LIMITS = { WHARF_RATE_LIMIT_UNAUTHENTICATED: '3', WHARF_RATE_LIMIT_AUTHENTICATED: '5' };

test('unauthenticated callers get their own budget with every X-RateLimit header, then 403', async () => {
  const t = await startTestServer({ env: LIMITS });
  try {
    for (let i = 1; i <= 3; i++) {
      const res = await t.request('/users/admin');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '3');
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(3 - i));
      assert.equal(res.headers.get('x-ratelimit-used'), String(i));
      assert.equal(res.headers.get('x-ratelimit-resource'), 'core');
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      assert.ok(reset > Date.now() / 1000 && reset <= Date.now() / 1000 + 3601, String(reset));
    }
    const over = await t.request('/users/admin');
    assert.equal(over.status, 403);
    assert.equal(over.headers.get('x-ratelimit-remaining'), '0');
    const body = await over.json();
    assert.match(body.message, /rate limit exceeded/i);
    assert.match(body.message, /resets at \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/);
    assert.equal(typeof body.documentation_url, 'string');
  } finally {
    await t.close();
  }
});

test('an authenticated user has a separate, larger budget', async () => {
  const t = await startTestServer({ env: LIMITS });
  try {
    const u = await createUser(t, ['user']);
    for (let i = 0; i < 3; i++) await t.request('/users/admin');
    assert.equal((await t.request('/users/admin')).status, 403);
    const res = await t.request('/user', { token: u.token });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-ratelimit-limit'), '5');
    assert.equal(res.headers.get('x-ratelimit-used'), '1');
  } finally {
    await t.close();
  }
});

test('counters live in the database: a second process agrees and a restart keeps them', async () => {
  const first = await startTestServer({ env: LIMITS });
  const second = await startTestServer({ env: LIMITS, shareWith: first });
  try {
    await first.request('/users/admin');
    const res = await second.request('/users/admin');
    assert.equal(res.headers.get('x-ratelimit-used'), '2');
    await second.close();
    const restarted = await startTestServer({ env: LIMITS, shareWith: first });
    try {
      const after = await restarted.request('/users/admin');
      assert.equal(after.headers.get('x-ratelimit-used'), '3');
    } finally {
      await restarted.close();
    }
  } finally {
    await first.close();
  }
});

test('with REDIS_URL the counters live in Redis, shared by processes', async () => {
  // A prefix of its own: ids restart at 1 in every test database, Redis keeps keys for an hour.
  const redis = { REDIS_URL: process.env.WHARF_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0', WHARF_REDIS_PREFIX: `wharf-test-${randomUUID()}:` };
  const first = await startTestServer({ env: { ...LIMITS, ...redis } });
  const second = await startTestServer({ env: { ...LIMITS, ...redis }, shareWith: first });
  try {
    const u = await createUser(first, ['user']);
    const a = await first.request('/user', { token: u.token });
    assert.equal(a.headers.get('x-ratelimit-used'), '1');
    const b = await second.request('/user', { token: u.token });
    assert.equal(b.headers.get('x-ratelimit-used'), '2');
    const etag = b.headers.get('etag')!;
    const notModified = await second.request('/user', { token: u.token, headers: { 'if-none-match': etag } });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers.get('x-ratelimit-used'), '2');
    const rows = await first.server.ctx.db.selectFrom('rate_limits').select('bucket').where('bucket', 'like', `core:user:${u.id}`).execute();
    assert.equal(rows.length, 0, 'nothing counted in the database');
  } finally {
    await second.close();
    await first.close();
  }
});

test('behind a trusted proxy (WHARF_TRUST_PROXY) each forwarded client address has its own budget; untrusted, the header is ignored', async () => {
  const trusted = await startTestServer({ env: { ...LIMITS, WHARF_TRUST_PROXY: '127.0.0.1' } });
  const untrusted = await startTestServer({ env: LIMITS });
  try {
    const from = (t: typeof trusted, ip: string) => t.request('/users/admin', { headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 3; i++) assert.equal((await from(trusted, '203.0.113.7')).status, 200);
    assert.equal((await from(trusted, '203.0.113.7')).status, 403);
    const other = await from(trusted, '203.0.113.8');
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('x-ratelimit-remaining'), '2');
    // Not trusted: the socket's peer is the client, whatever the header says.
    for (let i = 0; i < 3; i++) assert.equal((await from(untrusted, `203.0.113.${10 + i}`)).status, 200);
    const over = await from(untrusted, '203.0.113.99');
    assert.equal(over.status, 403);
    assert.match((await over.json()).message, /127\.0\.0\.1/);
  } finally {
    await Promise.all([trusted.close(), untrusted.close()]);
  }
});
