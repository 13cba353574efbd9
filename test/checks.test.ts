// Check runs and check suites through Octokit with an app's installation token (and
// users' tokens where the site allows it): create, update, annotations, lists and their
// filters, suites, rerequests, preferences, the check_run and check_suite webhooks the
// app's hook receives, required checks gating a merge, and GraphQL's statusCheckRollup.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { gql } from './helpers/graphql.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { commitFiles, push, repoWithFeature, type Clone } from './factories/pulls.ts';
import { csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { appJwt, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';
import { headerOf, Receiver, type Received } from './helpers/webhook-receiver.ts';
import { assertMatchesWebhookSchema } from './helpers/webhook-schema.ts';

const ENV = {
  WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1', WHARF_WEBHOOK_RETRY_BASE_MS: '100', WHARF_WEBHOOK_MAX_ATTEMPTS: '3',
  WHARF_WEBHOOK_TIMEOUT_MS: '5000', WHARF_WEBHOOK_POLL_MS: '200',
};

type Payload = Record<string, any>;
const payloadOf = (r: Received) => JSON.parse(r.body) as Payload;

const clock = new TestClock(Date.now());
const receiver = new Receiver();
let t: TestServer;
let alice: CreatedUser;
let writer: CreatedUser;
let bot: ConvertedApp;
let clone: Clone;
let repo: string;
let repoId: number;
let featureSha: string;
let mainSha: string;
let pullNumber: number;
let installationId: number;
let token: string;

const kit = () => t.octokit(token);
const base = () => ({ owner: alice.login, repo });

async function hookOf(event: string, action: string, match: (p: Payload) => boolean = () => true): Promise<Payload> {
  const all = await receiver.waitFor(1, (r) => headerOf(r, 'x-github-event') === event && payloadOf(r).action === action && match(payloadOf(r)));
  return payloadOf(all[all.length - 1]!);
}

before(async () => {
  await receiver.start();
  t = await startTestServer({ clock, env: ENV });
  alice = await createUser(t);
  writer = await createUser(t);
  await setPassword(t, alice.login, 'correct horse battery');
  const web = new WebClient(t);
  await web.signIn(alice.login, 'correct horse battery');
  const made = await repoWithFeature(t, alice);
  ({ clone, featureSha, mainSha } = made);
  repo = clone.repo;
  repoId = made.id;
  await addCollaborator(t, alice.token, base(), writer, 'push');
  pullNumber = (await t.octokit(alice.token).rest.pulls.create({ ...base(), head: 'feature', base: 'main', title: 'Feature' })).data.number;
  bot = await registerAppByManifest(t, web, manifestOf('Check Bot', {
    hook_attributes: { url: receiver.url() }, default_permissions: { checks: 'write', contents: 'read', pull_requests: 'read' },
    default_events: ['check_run', 'check_suite'],
  }));
  const page = await web.get(`/apps/${bot.slug}/installations/new`);
  const res = await web.post(`/apps/${bot.slug}/installations/new`, {
    authenticity_token: csrfIn(page.body), repository_selection: 'selected', [`repo_${repoId}`]: '1',
  });
  assert.ok(res.status === 201 || res.status === 200, res.body.slice(0, 2000));
  installationId = Number(/id="installation-id">(\d+)</.exec(res.body)![1]);
  const issued = await t.request(`/app/installations/${installationId}/access_tokens`, {
    method: 'POST', json: {}, headers: { authorization: `Bearer ${appJwt(bot.pem, bot.id, clock.now().getTime())}` },
  });
  assert.equal(issued.status, 201);
  token = ((await issued.json()) as { token: string }).token;
});
after(async () => { await t.close(); await receiver.stop(); });

describe('check runs', () => {
  test('an installation creates a run: 201, the published record, its app, suite and open pull request', async () => {
    const res = await kit().rest.checks.create({
      ...base(), name: 'lint', head_sha: featureSha, status: 'in_progress', details_url: 'https://ci.example/1', external_id: 'x-1',
      output: { title: 'Linting', summary: 'Started' },
    });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/check-runs', 201, res.data);
    const run = res.data;
    assert.equal(run.app?.id, bot.id);
    assert.equal(run.status, 'in_progress');
    assert.equal(run.conclusion, null);
    assert.equal(run.details_url, 'https://ci.example/1');
    assert.equal(run.external_id, 'x-1');
    assert.equal(run.url, `${t.baseUrl}/repos/${alice.login}/${repo}/check-runs/${run.id}`);
    assert.deepEqual(run.pull_requests.map((p) => p.number), [pullNumber]);
    assert.ok(run.check_suite?.id);
    const got = await t.octokit(writer.token).rest.checks.get({ ...base(), check_run_id: run.id });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/check-runs/{check_run_id}', 200, got.data);
    assert.equal(got.data.name, 'lint');
    const created = await hookOf('check_run', 'created', (p) => p.check_run.id === run.id);
    assertMatchesWebhookSchema('check_run', 'created', created);
    assert.equal(created.installation.id, installationId);
  });

  test('users\' tokens are refused unless the site admin allows them; then the run has no app', async () => {
    const e = await failsWith(t.octokit(writer.token).rest.checks.create({ ...base(), name: 'user-ci', head_sha: featureSha }), 403);
    assert.equal(e.message, 'You must authenticate via a GitHub App.');
    t.server.ctx.config.checksAllowUserTokens = true;
    try {
      const { data } = await t.octokit(writer.token).rest.checks.create({ ...base(), name: 'user-ci', head_sha: featureSha, conclusion: 'success' });
      assert.equal(data.app, null);
      assert.equal(data.status, 'completed');
      // The app's runs are the app's: a user cannot change them.
      const [appRun] = (await kit().rest.checks.listForRef({ ...base(), ref: featureSha, check_name: 'lint' })).data.check_runs;
      await failsWith(t.octokit(writer.token).rest.checks.update({ ...base(), check_run_id: appRun!.id, status: 'queued' }), 403);
      // A reader without push access may not write even so.
      const reader = await createUser(t);
      await failsWith(t.octokit(reader.token).rest.checks.create({ ...base(), name: 'x', head_sha: featureSha }), 403);
    } finally {
      t.server.ctx.config.checksAllowUserTokens = false;
    }
    const suites = await kit().rest.checks.listSuitesForRef({ ...base(), ref: featureSha });
    assert.deepEqual(suites.data.check_suites.map((s) => s.app?.id ?? null).sort(), [bot.id, null].sort());
  });

  test('completing: a conclusion is required; completed_at is stamped; the suite completes (webhooks)', async () => {
    const { data: run } = await kit().rest.checks.create({ ...base(), name: 'build', head_sha: mainSha });
    assert.equal(run.status, 'queued');
    const e = await failsWith(kit().rest.checks.update({ ...base(), check_run_id: run.id, status: 'completed' }), 422);
    assert.equal(e.errors?.[0]?.field, 'conclusion');
    const { data: done } = await kit().rest.checks.update({ ...base(), check_run_id: run.id, status: 'completed', conclusion: 'failure' });
    assertMatchesOpenApi('PATCH', '/repos/{owner}/{repo}/check-runs/{check_run_id}', 200, done);
    assert.equal(done.conclusion, 'failure');
    assert.match(done.completed_at!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const { data: suite } = await kit().rest.checks.getSuite({ ...base(), check_suite_id: run.check_suite!.id });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/check-suites/{check_suite_id}', 200, suite);
    assert.equal(suite.status, 'completed');
    assert.equal(suite.conclusion, 'failure');
    assert.equal(suite.head_commit.id, mainSha);
    assert.equal(suite.latest_check_runs_count, 1);
    assertMatchesWebhookSchema('check_run', 'completed', await hookOf('check_run', 'completed', (p) => p.check_run.id === run.id));
    assertMatchesWebhookSchema('check_suite', 'completed', await hookOf('check_suite', 'completed', (p) => p.check_suite.id === suite.id));
  });

  test('annotations accumulate over updates (50 per request) and page', async () => {
    const annotation = (i: number) => ({ path: 'app.txt', start_line: i + 1, end_line: i + 1, annotation_level: 'warning' as const, message: `m${i}` });
    const { data: run } = await kit().rest.checks.create({
      ...base(), name: 'annotate', head_sha: mainSha, output: { title: 'T', summary: 'S', annotations: Array.from({ length: 50 }, (_, i) => annotation(i)) },
    });
    await failsWith(kit().rest.checks.update({
      ...base(), check_run_id: run.id, output: { summary: 'S', annotations: Array.from({ length: 51 }, (_, i) => annotation(i)) },
    }), 422);
    const { data: more } = await kit().rest.checks.update({
      ...base(), check_run_id: run.id, output: { summary: 'S2', annotations: [annotation(50), annotation(51), { ...annotation(52), start_column: 2, end_column: 4, annotation_level: 'failure' }] },
    });
    assert.equal(more.output.annotations_count, 53);
    assert.equal(more.output.title, 'T');
    assert.equal(more.output.summary, 'S2');
    const page2 = await kit().rest.checks.listAnnotations({ ...base(), check_run_id: run.id, per_page: 50, page: 2 });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations', 200, page2.data);
    assert.deepEqual(page2.data.map((a) => a.message), ['m50', 'm51', 'm52']);
    assert.equal(page2.data[2]!.start_column, 2);
    assert.equal(page2.data[0]!.blob_href, `${t.baseUrl}/${alice.login}/${repo}/blob/${mainSha}/app.txt`);
    assert.match(page2.headers.link ?? '', /rel="prev"/);
  });

  test('bad input: 422 and nothing written', async () => {
    const count = async () => Number((await t.server.ctx.db.selectFrom('check_runs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const k = kit();
    const unknown = await failsWith(k.rest.checks.create({ ...base(), name: 'x', head_sha: 'a'.repeat(40) }), 422);
    assert.equal(unknown.message, `No commit found for SHA: ${'a'.repeat(40)}`);
    await failsWith(k.request('POST /repos/{owner}/{repo}/check-runs', { ...base(), head_sha: mainSha } as never), 422);
    await failsWith(k.rest.checks.create({ ...base(), name: 'x', head_sha: mainSha, status: 'done' as never }), 422);
    await failsWith(k.rest.checks.create({ ...base(), name: 'x', head_sha: mainSha, status: 'completed' }), 422);
    await failsWith(k.rest.checks.create({ ...base(), name: '  ', head_sha: mainSha }), 422);
    await failsWith(k.rest.checks.create({ ...base(), name: 'x', head_sha: mainSha, output: { title: 'T', summary: 'S', annotations: [{ path: 'a', start_line: 1, end_line: 2, start_column: 1, annotation_level: 'notice', message: 'm' }] } }), 422);
    await failsWith(k.rest.checks.create({ ...base(), name: 'x', head_sha: mainSha, output: { title: 'T', summary: 'S', annotations: [{ path: 'a', start_line: 1, end_line: 1, annotation_level: 'loud' as never, message: 'm' }] } }), 422);
    await failsWith(k.rest.checks.create({ ...base(), name: 'x', head_sha: mainSha, actions: Array.from({ length: 4 }, (_, i) => ({ label: 'l', description: 'd', identifier: `i${i}` })) }), 422);
    await failsWith(k.request('POST /repos/{owner}/{repo}/check-runs', { ...base(), name: 'x', head_sha: mainSha, output: { summary: 'no title' } } as never), 422);
    await failsWith(k.rest.checks.createSuite({ ...base(), head_sha: 'nope' }), 422);
    assert.equal(await count(), before);
  });

  test('list for a ref: latest per name by default, all on request, check_name and status filters', async () => {
    const c1 = await kit().rest.checks.create({ ...base(), name: 'test', head_sha: mainSha, conclusion: 'failure' });
    const c2 = await kit().rest.checks.create({ ...base(), name: 'test', head_sha: mainSha, status: 'in_progress' });
    const names = async (q: Record<string, unknown>) => {
      const { data } = await kit().rest.checks.listForRef({ ...base(), ref: 'main', ...q });
      assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/commits/{ref}/check-runs', 200, data);
      return { total: data.total_count, ids: data.check_runs.map((r) => r.id) };
    };
    assert.deepEqual((await names({ check_name: 'test' })).ids, [c2.data.id]);
    assert.deepEqual((await names({ check_name: 'test', filter: 'all' })).ids, [c2.data.id, c1.data.id]);
    assert.deepEqual((await names({ check_name: 'test', status: 'completed' })).ids, []);
    assert.deepEqual((await names({ check_name: 'test', status: 'completed', filter: 'all' })).ids, [c1.data.id]);
    const all = await names({});
    assert.equal(all.total, 3, 'build, annotate and the latest test');
    const paged = await names({ per_page: 1, page: 2 });
    assert.equal(paged.ids.length, 1);
    assert.equal(paged.total, 3);
    const bySuite = await kit().rest.checks.listForSuite({ ...base(), check_suite_id: c1.data.check_suite!.id, filter: 'all' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/check-suites/{check_suite_id}/check-runs', 200, bySuite.data);
    assert.equal(bySuite.data.total_count, 4);
    // The suite is in progress again while the latest test runs.
    assert.equal((await kit().rest.checks.getSuite({ ...base(), check_suite_id: c1.data.check_suite!.id })).data.status, 'in_progress');
    await failsWith(kit().rest.checks.listForRef({ ...base(), ref: 'no-such-branch' }), 404);
  });
});

describe('check suites', () => {
  test('create answers 201 then 200 for the same commit; list for a ref with filters', async () => {
    const made = await kit().rest.checks.createSuite({ ...base(), head_sha: featureSha });
    assert.equal(made.status, 200, 'the app already has a suite for the feature head');
    const sha = await commitFiles(clone, { 'other.txt': 'x\n' }, 'Other');
    await push(clone, 'main');
    const fresh = await kit().rest.checks.createSuite({ ...base(), head_sha: sha });
    // A push makes the installed app's suite (check_suite requested), so this finds it.
    assert.equal(fresh.status, 200);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/check-suites', 200, fresh.data);
    assert.equal(fresh.data.status, 'queued');
    assert.equal(fresh.data.head_branch, 'main');
    const requested = await hookOf('check_suite', 'requested', (p) => p.check_suite.id === fresh.data.id);
    assertMatchesWebhookSchema('check_suite', 'requested', requested);
    assert.equal(requested.installation.id, installationId);
    const { data } = await kit().rest.checks.listSuitesForRef({ ...base(), ref: featureSha, app_id: bot.id });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/commits/{ref}/check-suites', 200, data);
    assert.equal(data.total_count, 1);
    assert.equal((await kit().rest.checks.listSuitesForRef({ ...base(), ref: featureSha, check_name: 'lint' })).data.total_count, 1);
    assert.equal((await kit().rest.checks.listSuitesForRef({ ...base(), ref: featureSha, check_name: 'nothing' })).data.total_count, 0);
  });

  test('preferences: admins turn an app\'s automatic suites off; pushes then make none', async () => {
    const res = await t.octokit(alice.token).rest.checks.setSuitesPreferences({ ...base(), auto_trigger_checks: [{ app_id: bot.id, setting: false }] });
    assertMatchesOpenApi('PATCH', '/repos/{owner}/{repo}/check-suites/preferences', 200, res.data);
    assert.deepEqual(res.data.preferences.auto_trigger_checks, [{ app_id: bot.id, setting: false }]);
    await failsWith(t.octokit(alice.token).rest.checks.setSuitesPreferences({ ...base(), auto_trigger_checks: [{ app_id: 999999, setting: true }] }), 422);
    await failsWith(t.octokit(writer.token).rest.checks.setSuitesPreferences({ ...base(), auto_trigger_checks: [{ app_id: bot.id, setting: true }] }), 403);
    const sha = await commitFiles(clone, { 'quiet.txt': 'x\n' }, 'Quiet');
    await push(clone, 'main');
    assert.equal((await kit().rest.checks.listSuitesForRef({ ...base(), ref: sha })).data.total_count, 0);
    await t.octokit(alice.token).rest.checks.setSuitesPreferences({ ...base(), auto_trigger_checks: [{ app_id: bot.id, setting: true }] });
  });

  test('rerequest: the run\'s and the suite\'s app hears of it; the suite is queued again', async () => {
    const { data: run } = await kit().rest.checks.create({ ...base(), name: 'again', head_sha: featureSha, conclusion: 'success' });
    const rr = await t.octokit(writer.token).rest.checks.rerequestRun({ ...base(), check_run_id: run.id });
    assert.equal(rr.status, 201);
    const p = await hookOf('check_run', 'rerequested', (x) => x.check_run.id === run.id);
    assertMatchesWebhookSchema('check_run', 'rerequested', p);
    assert.equal(p.sender.login, writer.login);
    assert.equal((await kit().rest.checks.getSuite({ ...base(), check_suite_id: run.check_suite!.id })).data.status, 'queued');
    assert.equal((await kit().rest.checks.rerequestSuite({ ...base(), check_suite_id: run.check_suite!.id })).status, 201);
    assertMatchesWebhookSchema('check_suite', 'rerequested', await hookOf('check_suite', 'rerequested', (x) => x.check_suite.id === run.check_suite!.id));
    const stranger = await createUser(t);
    await failsWith(t.octokit(stranger.token).rest.checks.rerequestRun({ ...base(), check_run_id: run.id }), 403);
    await failsWith(kit().rest.checks.rerequestRun({ ...base(), check_run_id: 999999 }), 404);
  });
});

describe('required checks and the rollup', () => {
  test('a required check blocks the merge until its run succeeds; GraphQL shows the run', async () => {
    await t.octokit(alice.token).rest.repos.updateBranchProtection({
      ...base(), branch: 'main', required_status_checks: { strict: false, contexts: [], checks: [{ context: 'ci', app_id: bot.id }] }, enforce_admins: true,
      required_pull_request_reviews: null, restrictions: null,
    });
    const pr = async () => (await t.octokit(writer.token).rest.pulls.get({ ...base(), pull_number: pullNumber })).data;
    const merge = () => t.octokit(writer.token).rest.pulls.merge({ ...base(), pull_number: pullNumber });
    const head = (await pr()).head.sha;
    const { data: run } = await kit().rest.checks.create({ ...base(), name: 'ci', head_sha: head, status: 'in_progress', details_url: 'https://ci.example/ci' });
    assert.equal((await failsWith(merge(), 405)).message, 'Required status check "ci" is expected.');
    assert.equal((await pr()).mergeable_state, 'blocked');
    // A user's run of the same name is not the app's: it does not satisfy the rule.
    t.server.ctx.config.checksAllowUserTokens = true;
    try {
      await t.octokit(writer.token).rest.checks.create({ ...base(), name: 'ci', head_sha: head, conclusion: 'success' });
    } finally {
      t.server.ctx.config.checksAllowUserTokens = false;
    }
    assert.equal((await failsWith(merge(), 405)).message, 'Required status check "ci" is expected.');
    await kit().rest.checks.update({ ...base(), check_run_id: run.id, conclusion: 'failure' });
    assert.equal((await failsWith(merge(), 405)).message, 'Required status check "ci" is failing.');

    type Rollup = { state: string; contexts: { checkRunCount: number; nodes: { __typename: string; name?: string; status?: string; conclusion?: string | null; detailsUrl?: string | null; isRequired?: boolean }[] } };
    const rollup = async () => (await gql(t, writer.token)<{ repository: { pullRequest: { mergeStateStatus: string; commits: { nodes: { commit: { statusCheckRollup: Rollup } }[] } } } }>(
      `query($o: String!, $r: String!, $n: Int!) { repository(owner: $o, name: $r) { pullRequest(number: $n) { mergeStateStatus
        commits(last: 1) { nodes { commit { statusCheckRollup { state contexts(first: 10) { checkRunCount nodes { __typename
          ... on CheckRun { name status conclusion detailsUrl isRequired(pullRequestNumber: $n) checkSuite { status workflowRun { id } } } } } } } } } } } }`,
      { o: alice.login, r: repo, n: pullNumber },
    )).repository.pullRequest;
    const failing = await rollup();
    assert.equal(failing.mergeStateStatus, 'BLOCKED');
    const r1 = failing.commits.nodes[0]!.commit.statusCheckRollup;
    assert.equal(r1.state, 'FAILURE');
    const ci = r1.contexts.nodes.find((n) => n.name === 'ci' && n.conclusion === 'FAILURE');
    assert.deepEqual({ ...ci, checkSuite: undefined }, { __typename: 'CheckRun', name: 'ci', status: 'COMPLETED', conclusion: 'FAILURE', detailsUrl: 'https://ci.example/ci', isRequired: true, checkSuite: undefined });

    const { data: rerun } = await kit().rest.checks.create({ ...base(), name: 'ci', head_sha: head, conclusion: 'success' });
    assert.equal(rerun.status, 'completed');
    const passing = await rollup();
    assert.equal(passing.commits.nodes[0]!.commit.statusCheckRollup.contexts.nodes.filter((n) => n.name === 'ci').every((n) => n.conclusion === 'SUCCESS'), true);
    const merged = await merge();
    assert.equal(merged.data.merged, true);
  });
});

describe('pull requests of a commit, and emojis', () => {
  test('GET …/commits/{sha}/pulls: open pull requests holding the commit, merged ones that brought it in', async () => {
    const { checkout } = await import('./factories/pulls.ts');
    await checkout(clone, 'main');
    const { gitOk } = await import('./helpers/git.ts');
    await gitOk(['pull', '-q', 'origin', 'main'], { cwd: clone.dir });
    await checkout(clone, 'topic', true);
    const first = await commitFiles(clone, { 'topic.txt': '1\n' }, 'Topic one');
    const second = await commitFiles(clone, { 'topic.txt': '2\n' }, 'Topic two');
    await push(clone, 'topic');
    const open = (await t.octokit(alice.token).rest.pulls.create({ ...base(), head: 'topic', base: 'main', title: 'Topic' })).data.number;
    const numbers = async (sha: string, token = writer.token) => {
      const res = await t.octokit(token).rest.repos.listPullRequestsAssociatedWithCommit({ ...base(), commit_sha: sha });
      assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/commits/{commit_sha}/pulls', 200, res.data);
      return res.data.map((p) => p.number);
    };
    assert.deepEqual(await numbers(first), [open]);
    assert.deepEqual(await numbers(second), [open]);
    assert.deepEqual(await numbers(featureSha), [pullNumber], 'the merged pull request brought the feature commit in');
    assert.deepEqual(await numbers(mainSha), [], 'a commit of the base is in no pull request');
    await failsWith(t.octokit(writer.token).rest.repos.listPullRequestsAssociatedWithCommit({ ...base(), commit_sha: 'f'.repeat(40) }), 422);
  });

  test('GET /emojis maps every gemoji name and alias to a URL that answers the emoji', async () => {
    const { data } = await t.octokit().rest.emojis.get();
    assertMatchesOpenApi('GET', '/emojis', 200, data);
    assert.equal(data['+1'], `${t.baseUrl}/emojis/%2B1`);
    assert.ok(data.thumbsup && data.tada && data.grinning);
    assert.ok(Object.keys(data).length > 1500);
    const res = await t.request('/emojis/tada');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await res.text(), '🎉');
    assert.equal((await t.request(new URL(data['+1']!).pathname)).status, 200);
    assert.equal((await t.request('/emojis/no-such-emoji')).status, 404);
  });
});
