// Billing summaries computed from recorded usage: a table of jobs (reported by a real
// registered runner and through the site-admin metering endpoint) summed exactly as
// worked out by hand (rounding up per job, re-runs, OS multipliers, public vs private,
// hosted vs self-hosted, included minutes of the account's plan), bandwidth and storage
// readings (GB-months pro rata), the billing cycle moving with the injectable clock,
// plans, advanced security committers from real git pushes, and who may read and
// record what.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';
import { loadConfig } from '../src/config.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { ADMIN_TOKEN, startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { requestJson } from './helpers/json-request.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';

// January: a 31-day cycle.
const clock = new TestClock(Date.parse('2026-01-20T00:00:00Z'));
let t: TestServer;

before(async () => { t = await startTestServer({ clock }); });
after(async () => { await t.close(); });

const send = (method: string, path: string, token: string | undefined, json?: unknown) => requestJson(t, method, path, token, json);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const at = (s: string) => Date.parse(s);

/** A job of `seconds` ending an hour before now. */
function span(seconds: number, end = clock.now().getTime() - 3600_000) {
  return { started_at: iso(end - seconds * 1000), completed_at: iso(end) };
}

async function meter(body: Record<string, unknown>, token = ADMIN_TOKEN) {
  return send('POST', '/admin/billing/usage', token, body);
}

describe('billing summaries', () => {
  let org: CreatedOrg;
  let priv: CreatedRepo;
  let pub: CreatedRepo;
  let credential: string;

  before(async () => {
    org = await createOrgWithOwner(t);
    priv = await createRepo(t, org.owner, { org: org.login, private: true });
    pub = await createRepo(t, org.owner, { org: org.login, private: false });
    const tok = await send('POST', `/orgs/${org.login}/actions/runners/registration-token`, org.owner.token);
    const reg = await t.request('/actions/runner/register', { method: 'POST', json: { token: tok.body.token, name: 'self', os: 'Linux' } });
    credential = ((await reg.json()) as { credential: string }).credential;
  });

  const runnerJob = async (body: Record<string, unknown>) => {
    const res = await t.request('/actions/runner/jobs', { method: 'POST', json: body, headers: { 'x-runner-token': credential } });
    assert.equal(res.status, 201, await res.text());
  };

  test('an organization with no usage: zeros and the configured default plan', async () => {
    const { data } = await t.octokit(org.owner.token).request('GET /orgs/{org}/settings/billing/actions', { org: org.login });
    assert.deepEqual(data, { total_minutes_used: 0, total_paid_minutes_used: 0, included_minutes: 2000, minutes_used_breakdown: { UBUNTU: 0, MACOS: 0, WINDOWS: 0 } });
    const { data: pk } = await t.octokit(org.owner.token).request('GET /orgs/{org}/settings/billing/packages', { org: org.login });
    assert.deepEqual(pk, { total_gigabytes_bandwidth_used: 0, total_paid_gigabytes_bandwidth_used: 0, included_gigabytes_bandwidth: 1 });
    const { data: st } = await t.octokit(org.owner.token).request('GET /orgs/{org}/settings/billing/shared-storage', { org: org.login });
    assert.deepEqual(st, { days_left_in_billing_cycle: 12, estimated_paid_storage_for_month: 0, estimated_storage_for_month: 0 });
  });

  test('minutes: a table of jobs summed as worked out by hand', async () => {
    // Self-hosted (the runner's reports): never paid.
    await runnerJob({ repository: `${org.login}/${priv.repo}`, workflow_path: '.github/workflows/ci.yml', ...span(61) }); // Linux 61 s → 2 min ×1 = 2
    await runnerJob({ repository: `${org.login}/${priv.repo}`, workflow_path: '.github/workflows/ci.yml', runner_os: 'Windows', ...span(30) }); // 30 s → 1 min ×2 = 2
    // Hosted (metering endpoint).
    const hosted = (repo: CreatedRepo, os: string, seconds: number, rerun = false, end?: number) => meter({
      kind: 'actions', repository: `${repo.owner}/${repo.repo}`, runner_os: os, workflow_path: '.github/workflows/build.yml', rerun, ...span(seconds, end),
    });
    const mac = await hosted(priv, 'macOS', 90); // 2 min ×10 = 20, private: billable
    assert.equal(mac.status, 201, JSON.stringify(mac.body));
    assert.deepEqual([mac.body.kind, mac.body.account, mac.body.minutes, mac.body.gigabytes], ['actions', org.login, 2, null]);
    assert.equal((await hosted(priv, 'macOS', 90, true)).status, 201); // its re-run: 20 more
    assert.equal((await hosted(pub, 'Linux', 600)).status, 201); // 10 min ×1 = 10, public: not billable
    assert.equal((await hosted(priv, 'Windows', 3601)).status, 201); // 61 min ×2 = 122, billable
    assert.equal((await hosted(priv, 'Linux', 120, false, at('2025-12-31T23:59:00Z'))).status, 201); // last cycle: not counted

    const { data } = await t.octokit(org.owner.token).request('GET /orgs/{org}/settings/billing/actions', { org: org.login });
    assert.deepEqual(data, {
      total_minutes_used: 2 + 2 + 20 + 20 + 10 + 122,
      total_paid_minutes_used: 0, // 162 billable, within 2000 included
      included_minutes: 2000,
      minutes_used_breakdown: { UBUNTU: 2 + 10, MACOS: 2 + 2, WINDOWS: 1 + 61 },
    });

    // A plan with 100 included minutes: 162 − 100 = 62 paid.
    const plan = await send('PUT', '/admin/billing/plans/team', ADMIN_TOKEN, { included_minutes: 100, included_gigabytes_bandwidth: 0.5, included_gigabytes_storage: 3 });
    assert.equal(plan.status, 200);
    assert.deepEqual(plan.body, { name: 'team', included_minutes: 100, included_gigabytes_bandwidth: 0.5, included_gigabytes_storage: 3 });
    assert.equal((await send('PUT', `/admin/billing/accounts/${org.login}/plan`, ADMIN_TOKEN, { plan: 'team' })).status, 200);
    const { data: paid } = await t.octokit(org.owner.token).request('GET /orgs/{org}/settings/billing/actions', { org: org.login });
    assert.deepEqual([paid.total_paid_minutes_used, paid.included_minutes], [62, 100]);
    const plans = await send('GET', '/admin/billing/plans', ADMIN_TOKEN);
    assert.deepEqual(plans.body.map((p: { name: string }) => p.name), ['free', 'team']);
  });

  test('packages and shared storage from metered readings', async () => {
    for (const [kind, gigabytes, when] of [
      ['bandwidth', 0.75, '2026-01-05T10:00:00Z'], ['bandwidth', 0.5, '2026-01-19T10:00:00Z'], ['bandwidth', 5, '2025-12-30T00:00:00Z'],
      ['storage', 2, '2025-12-20T00:00:00Z'], ['storage', 33, '2026-01-11T00:00:00Z'],
    ] as const) {
      const res = await meter({ kind, account: org.login.toUpperCase(), gigabytes, recorded_at: when });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual([res.body.account, res.body.gigabytes, res.body.recorded_at], [org.login, gigabytes, when]);
    }
    const { data: pk } = await t.octokit(org.owner.token).request('GET /orgs/{org}/settings/billing/packages', { org: org.login });
    // 0.75 + 0.5 this cycle; the plan includes 0.5.
    assert.deepEqual(pk, { total_gigabytes_bandwidth_used: 1.25, total_paid_gigabytes_bandwidth_used: 0.75, included_gigabytes_bandwidth: 0.5 });
    const { data: st } = await t.octokit(org.owner.token).request('GET /orgs/{org}/settings/billing/shared-storage', { org: org.login });
    // 2 GB for 10 days, 33 GB for the remaining 21 of 31: (20 + 693) / 31 = 23 GB-months; 3 included.
    assert.deepEqual(st, { days_left_in_billing_cycle: 12, estimated_paid_storage_for_month: 20, estimated_storage_for_month: 23 });
  });

  test('the billing cycle follows the clock: a new month starts from zero', async () => {
    clock.advance(13 * 86400_000); // 2026-02-02
    const { data } = await t.octokit(org.owner.token).request('GET /orgs/{org}/settings/billing/actions', { org: org.login });
    assert.equal(data.total_minutes_used, 0);
    const { data: pk } = await t.octokit(org.owner.token).request('GET /orgs/{org}/settings/billing/packages', { org: org.login });
    assert.equal(pk.total_gigabytes_bandwidth_used, 0);
    const { data: st } = await t.octokit(org.owner.token).request('GET /orgs/{org}/settings/billing/shared-storage', { org: org.login });
    // 33 GB all February; 27 days left (2 to 28 February).
    assert.deepEqual(st, { days_left_in_billing_cycle: 27, estimated_paid_storage_for_month: 30, estimated_storage_for_month: 33 });
  });

  test('who may read: owners with repo or admin:org', async () => {
    const member = await addMember(t, org, 'member');
    const denied = await send('GET', `/orgs/${org.login}/settings/billing/actions`, member.token);
    assert.equal(denied.status, 403);
    const repoOnly = await createToken(t, org.owner.login, ['repo']);
    assert.equal((await send('GET', `/orgs/${org.login}/settings/billing/actions`, repoOnly)).status, 200);
    const readOrg = await createToken(t, org.owner.login, ['read:org']);
    const scoped = await send('GET', `/orgs/${org.login}/settings/billing/packages`, readOrg);
    assert.equal(scoped.status, 403);
    assert.equal(scoped.headers.get('x-accepted-oauth-scopes'), 'repo, admin:org');
    assert.equal((await send('GET', `/orgs/${org.login}/settings/billing/shared-storage`, undefined)).status, 401);
    assert.equal((await send('GET', '/orgs/no-such-org-y/settings/billing/actions', org.owner.token)).status, 404);
    assert.equal((await send('GET', `/orgs/${org.login}/settings/billing/actions`, ADMIN_TOKEN)).status, 200, 'site admins read every account');
  });
});

describe('user billing and metering', () => {
  let user: CreatedUser;
  let repo: CreatedRepo;
  before(async () => {
    user = await createUser(t);
    repo = await createRepo(t, user, { private: true });
  });

  test('a user reads their own summary with the user scope', async () => {
    const res = await meter({ kind: 'actions', repository: `${repo.owner}/${repo.repo}`, runner_os: 'Linux', workflow_path: 'ci.yml', ...span(3000) });
    assert.equal(res.status, 201);
    const { data } = await t.octokit(user.token).request('GET /users/{username}/settings/billing/actions', { username: user.login });
    assert.deepEqual(data, { total_minutes_used: 50, total_paid_minutes_used: 0, included_minutes: 2000, minutes_used_breakdown: { UBUNTU: 50, MACOS: 0, WINDOWS: 0 } });
    assert.equal((await send('GET', `/users/${user.login}/settings/billing/packages`, user.token)).status, 200);
    const other = await createUser(t);
    assert.equal((await send('GET', `/users/${user.login}/settings/billing/shared-storage`, other.token)).status, 403);
    const noUser = await createToken(t, user.login, ['repo']);
    assert.equal((await send('GET', `/users/${user.login}/settings/billing/actions`, noUser)).status, 403);
  });

  test('metering and plans are the site admin\'s; bad readings are refused and record nothing', async () => {
    const body = { kind: 'bandwidth', account: user.login, gigabytes: 1 };
    assert.equal((await meter(body, user.token)).status, 403);
    assert.equal((await send('PUT', '/admin/billing/plans/x', user.token, { included_minutes: 1, included_gigabytes_bandwidth: 1, included_gigabytes_storage: 1 })).status, 403);
    const future = iso(clock.now().getTime() + 60_000);
    for (const bad of [
      { kind: 'bandwidth', gigabytes: 1 },
      { kind: 'bandwidth', account: 'no-such-account-z', gigabytes: 1 },
      { kind: 'storage', account: user.login, gigabytes: -1 },
      { kind: 'storage', account: user.login, gigabytes: 1, recorded_at: future },
      { kind: 'storage', account: user.login, gigabytes: 1, recorded_at: 'soon' },
      { kind: 'actions', repository: `${repo.owner}/${repo.repo}`, runner_os: 'Linux', workflow_path: 'ci.yml' },
      { kind: 'actions', repository: 'nope/nope', runner_os: 'Linux', workflow_path: 'ci.yml', ...span(10) },
      { kind: 'actions', repository: `${repo.owner}/${repo.repo}`, runner_os: 'BeOS', workflow_path: 'ci.yml', ...span(10) },
      { kind: 'gold', account: user.login, gigabytes: 1 },
    ]) {
      const res = await meter(bad);
      assert.ok([400, 422].includes(res.status), `${JSON.stringify(bad)} → ${res.status}`);
    }
    const rows = await t.server.ctx.db.selectFrom('metered_usage').select('id').where('account_id', '=', user.id).execute();
    assert.equal(rows.length, 0);
    assert.equal((await send('PUT', `/admin/billing/accounts/${user.login}/plan`, ADMIN_TOKEN, { plan: 'ghost' })).status, 422);
    assert.equal((await send('PUT', '/admin/billing/plans/bad name', ADMIN_TOKEN, { included_minutes: 1, included_gigabytes_bandwidth: 1, included_gigabytes_storage: 1 })).status, 422);
  });
});

describe('advanced security committers from real pushes', () => {
  let org: CreatedOrg;
  let committers: CreatedUser[];
  const repos: Record<string, CreatedRepo> = {};

  /** Commits a file as `committer` (by e-mail) in a clone of the repository, pushed by the owner. */
  async function pushAs(repo: CreatedRepo, emails: string[]) {
    const dir = tempDir('wharf-ghas-');
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, repo.owner, repo.repo, org.owner.login, org.owner.token), dir]);
    for (const email of emails) {
      fs.writeFileSync(path.join(dir, `${email}.txt`), `${email} ${Math.random()}\n`);
      await gitOk(['add', '-A'], { cwd: dir });
      await gitOk(['commit', '-q', '-m', `work of ${email}`], { cwd: dir, env: { GIT_COMMITTER_EMAIL: email, GIT_COMMITTER_NAME: email } });
    }
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: dir });
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const summary = (query = '') => send('GET', `/orgs/${org.login}/settings/billing/advanced-security${query}`, org.owner.token);
  const emailOf = (u: CreatedUser) => `${u.login}@example.com`;

  before(async () => {
    org = await createOrgWithOwner(t);
    committers = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    repos.alpha = await createRepo(t, org.owner, { org: org.login, private: true, name: 'alpha' });
    repos.other = await createRepo(t, org.owner, { org: org.login, private: true, name: 'other' });
  });

  test('403 while advanced security is enabled nowhere in the organization', async () => {
    const res = await summary();
    assert.equal(res.status, 403);
    assert.match(res.body.message, /Advanced Security/);
  });

  test('repository switch, organization default for new repositories, committers distinct across repositories', async () => {
    const [a, b, c, d] = committers as [CreatedUser, CreatedUser, CreatedUser, CreatedUser];
    const kit = t.octokit(org.owner.token);
    const { data: patched } = await kit.request('PATCH /repos/{owner}/{repo}', {
      owner: org.login, repo: 'alpha', security_and_analysis: { advanced_security: { status: 'enabled' } },
    });
    assert.deepEqual(patched.security_and_analysis, { advanced_security: { status: 'enabled' } });
    const { data: orgData } = await kit.request('PATCH /orgs/{org}', { org: org.login, advanced_security_enabled_for_new_repositories: true });
    assert.equal(orgData.advanced_security_enabled_for_new_repositories, true);
    repos.beta = await createRepo(t, org.owner, { org: org.login, private: true, name: 'beta' });
    const { data: beta } = await kit.rest.repos.get({ owner: org.login, repo: 'beta' });
    assert.deepEqual(beta.security_and_analysis, { advanced_security: { status: 'enabled' } });
    const { data: other } = await kit.rest.repos.get({ owner: org.login, repo: 'other' });
    assert.deepEqual(other.security_and_analysis, { advanced_security: { status: 'disabled' } });
    // Readers do not see the switch.
    const member = await addMember(t, org, 'member');
    const { data: seen } = await t.octokit(member.token).rest.repos.get({ owner: org.login, repo: 'beta' });
    assert.equal('security_and_analysis' in seen, false);

    await pushAs(repos.alpha!, [emailOf(a), emailOf(b), 'nobody@example.invalid']);
    await pushAs(repos.beta!, [emailOf(b), emailOf(c)]);
    await pushAs(repos.other!, [emailOf(d)]);

    const res = await summary();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesOpenApi('get', '/orgs/{org}/settings/billing/advanced-security', 200, res.body, 'ghes-3.19');
    const today = iso(clock.now().getTime()).slice(0, 10);
    assert.equal(res.body.total_advanced_security_committers, 3, 'a, b, c: b counted once');
    assert.equal(res.body.maximum_advanced_security_committers, 4, 'd too, were it enabled on other');
    assert.equal(res.body.total_count, 2);
    const sorted = (...us: CreatedUser[]) => us.map((u) => u.login).sort();
    assert.deepEqual(res.body.repositories.map((r: { name: string }) => r.name), [`${org.login}/alpha`, `${org.login}/beta`]);
    assert.deepEqual(res.body.repositories[0].advanced_security_committers_breakdown,
      sorted(a, b).map((login) => ({ user_login: login, last_pushed_date: today, last_pushed_email: `${login}@example.com` })));
    assert.equal(res.body.repositories[0].advanced_security_committers, 2);
    assert.deepEqual(res.body.repositories[1].advanced_security_committers_breakdown.map((x: { user_login: string }) => x.user_login), sorted(b, c));

    // Pages of repositories; the total stays the organization's.
    const page = await summary('?per_page=1&page=2');
    assert.deepEqual(page.body.repositories.map((r: { name: string }) => r.name), [`${org.login}/beta`]);
    assert.equal(page.body.total_advanced_security_committers, 3);
    assert.match(page.headers.get('link') ?? '', /rel="prev"/);

    assert.equal((await send('GET', `/orgs/${org.login}/settings/billing/advanced-security`, member.token)).status, 403);
  });

  test('the 90-day window and switching a repository off', async () => {
    const [, , c] = committers as [CreatedUser, CreatedUser, CreatedUser];
    clock.advance(60 * 86400_000);
    await pushAs(repos.alpha!, [emailOf(c)]);
    clock.advance(31 * 86400_000);
    // a and b pushed 91 days ago: out; c's push to alpha 31 days ago: in.
    const res = await summary();
    assert.equal(res.body.total_advanced_security_committers, 1);
    assert.deepEqual(res.body.repositories.map((r: { advanced_security_committers: number }) => r.advanced_security_committers), [1, 0]);

    await t.octokit(org.owner.token).request('PATCH /repos/{owner}/{repo}', {
      owner: org.login, repo: 'alpha', security_and_analysis: { advanced_security: { status: 'disabled' } },
    });
    const after = await summary();
    assert.deepEqual([after.body.total_advanced_security_committers, after.body.total_count], [0, 1]);
    const bad = await send('PATCH', `/repos/${org.login}/alpha`, org.owner.token, { security_and_analysis: { advanced_security: { status: 'maybe' } } });
    assert.equal(bad.status, 422);
  });
});

describe('billing configuration', () => {
  test('the default plan and the runner offline delay come from the environment', () => {
    const c = loadConfig({
      WHARF_BILLING_PLAN: 'pro', WHARF_BILLING_INCLUDED_MINUTES: '3000',
      WHARF_BILLING_INCLUDED_BANDWIDTH_GB: '10', WHARF_BILLING_INCLUDED_STORAGE_GB: '2.5', WHARF_RUNNER_OFFLINE_SECONDS: '30',
    });
    assert.deepEqual(c.defaultPlan, { name: 'pro', includedMinutes: 3000, includedGigabytesBandwidth: 10, includedGigabytesStorage: 2.5 });
    assert.equal(c.runnerOfflineSeconds, 30);
    assert.throws(() => loadConfig({ WHARF_BILLING_INCLUDED_STORAGE_GB: 'lots' }), /WHARF_BILLING_INCLUDED_STORAGE_GB/);
    assert.throws(() => loadConfig({ WHARF_BILLING_INCLUDED_MINUTES: '1.5' }), /WHARF_BILLING_INCLUDED_MINUTES/);
  });
});
