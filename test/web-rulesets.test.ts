// Repository rulesets in the web interface's settings (/{o}/{r}/settings/rules): the list,
// a branch ruleset made, edited and deleted through the same rulesets service the REST
// routes use (name, enforcement, targets included and excluded, the common rules with the
// pull request's review count and the status checks' contexts, the bypass list), each
// checked through the API. Rules and parameters the form does not show are kept on edit;
// refusals come back inline with nothing changed; the pages are a 404 to all but the
// repository's admins; forged posts are refused. Headless Chromium makes one, with axe-core.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { createTeam } from './factories/orgs.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

interface ApiRuleset {
  id: number;
  name: string;
  enforcement: string;
  conditions: { ref_name: { include: string[]; exclude: string[] } } | null;
  rules: { type: string; parameters?: Record<string, unknown> }[];
  bypass_actors: { actor_id: number | null; actor_type: string; bypass_mode: string }[];
}

describe('web settings: repository rulesets', () => {
  let t: TestServer;
  /** Owns the organization and so administers its repository. */
  let alice: CreatedUser;
  /** A collaborator with write access: no admin, no pages. */
  let bob: CreatedUser;
  let carol: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let org: string;
  const repo = 'harbour';
  let base: string;
  let teamId: number;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const api = async (path = '') => {
    const res = await t.request(`/repos/${org}/${repo}/rulesets${path}`, { token: alice.token });
    return { status: res.status, body: await res.json() as unknown };
  };
  const list = async () => (await api()).body as ApiRuleset[];
  const one = async (id: number) => (await api(`/${id}`)).body as ApiRuleset;
  const form = (token: string, fields: Record<string, string>) => ({
    authenticity_token: token, name: '', enforcement: 'active', include: 'main', exclude: '', required_approving_review_count: '1', contexts: '', bypass_actors: '', ...fields,
  });

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    carol = await createUser(t);
    for (const u of [alice, bob]) await setPassword(t, u.login, PASSWORD);
    org = (await createOrg(t, alice.login)).login;
    await t.octokit(alice.token).rest.repos.createInOrg({ org, name: repo, auto_init: true });
    await addCollaborator(t, alice.token, { owner: org, repo }, bob, 'push');
    teamId = (await createTeam(t, alice.token, org, { name: 'Core' })).id;
    base = `/${org}/${repo}/settings/rules`;
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    for (const [c, u] of [[aliceWeb, alice], [bobWeb, bob]] as const) assert.equal((await c.signIn(u.login, PASSWORD)).status, 303);
  });
  after(async () => { await t?.close(); });

  test('create a branch ruleset: what the API then reads; refusals inline with nothing made', async () => {
    const listed = await page(aliceWeb, base);
    assert.equal(listed.status, 200);
    assert.match(listed.body, new RegExp(`<a href="${base}" aria-current="page">Rules</a>`), 'in the settings menu');
    assert.match(listed.body, /id="rulesets">No rulesets yet\./);
    const shown = await page(aliceWeb, `${base}/new`);
    assert.match(shown.body, /<textarea id="ruleset-include" name="include" rows="3" aria-describedby="ruleset-targets-hint">~DEFAULT_BRANCH<\/textarea>/);
    const token = csrfIn(shown.body);
    const good = {
      name: 'Release branches', enforcement: 'evaluate', include: 'main\nrelease/*', exclude: 'release/old',
      rule_deletion: '1', rule_non_fast_forward: '1', rule_pull_request: '1', required_approving_review_count: '2',
      rule_required_status_checks: '1', contexts: 'ci/build\nci/lint',
      bypass_actors: `role:admin\nteam:core pull_request\nuser:${carol.login} exempt\norg-admins`,
    };

    for (const [fields, message, status] of [
      [{ ...good, name: '  ' }, /Name can(&#x27;|')t be blank/, 422],
      [{ ...good, bypass_actors: 'team:nobody' }, /Bypass list, &quot;team:nobody&quot;: there is no team nobody/, 422],
      [{ ...good, bypass_actors: 'role:admin sometimes' }, /the mode is always, pull_request or exempt/, 422],
      [{ ...good, enforcement: 'loudly' }, /Choose the enforcement/, 422],
      [{ ...good, contexts: '' }, /Name at least one status check/, 422],
      [{ ...good, include: '' }, /Name at least one branch to target/, 422],
      [{ ...good, required_approving_review_count: 'lots' }, /Required approving reviews must be a number/, 422],
    ] as const) {
      const res = await aliceWeb.post(base, form(token, fields));
      assert.equal(res.status, status, JSON.stringify(fields));
      assert.match(res.body, new RegExp(`role="alert">[^<]*${message.source}`));
      assert.match(res.body, /<form method="post" action="[^"]+\/settings\/rules" class="box" id="ruleset-form"/, 'the form again');
    }
    assert.equal((await aliceWeb.post(base, { ...form(token, good), authenticity_token: 'b'.repeat(64) })).status, 403, 'forged token');
    assert.deepEqual(await list(), [], 'nothing made');

    const made = await aliceWeb.post(base, form(token, good));
    assert.equal(made.status, 303);
    assert.equal(made.location, `${base}#rulesets`);
    const [rs] = await list();
    const full = await one(rs!.id);
    assert.equal(full.name, 'Release branches');
    assert.equal(full.enforcement, 'evaluate');
    assert.deepEqual(full.conditions?.ref_name, { include: ['refs/heads/main', 'refs/heads/release/*'], exclude: ['refs/heads/release/old'] });
    assert.deepEqual(full.rules.map((r) => r.type), ['deletion', 'non_fast_forward', 'pull_request', 'required_status_checks']);
    assert.equal(full.rules[2]!.parameters!.required_approving_review_count, 2);
    assert.deepEqual((full.rules[3]!.parameters!.required_status_checks as { context: string }[]).map((c) => c.context), ['ci/build', 'ci/lint']);
    const carolId = (await t.octokit(alice.token).rest.users.getByUsername({ username: carol.login })).data.id;
    assert.deepEqual(full.bypass_actors.map((a) => [a.actor_type, a.actor_id, a.bypass_mode]), [
      ['RepositoryRole', 5, 'always'], ['Team', teamId, 'pull_request'], ['User', carolId, 'exempt'], ['OrganizationAdmin', null, 'always'],
    ]);
    const dup = await aliceWeb.post(base, form(token, { ...good, bypass_actors: '' }));
    assert.equal(dup.status, 422);
    assert.match(dup.body, /role="alert">Name must be unique</);
    assert.equal((await list()).length, 1);
    assert.match((await page(aliceWeb, base)).body, new RegExp(`<li class="row" data-ruleset="Release branches"><div><a href="${base}/${rs!.id}"><strong>Release branches</strong></a>`));
    assert.match((await page(aliceWeb, `/${org}/${repo}/settings/branches`)).body, /data-ruleset="Release branches"[\s\S]*id="manage-rulesets"/, 'shown on the branches page, with the way here');
  });

  test('edit keeps what the form does not show; a refused save changes nothing; delete', async () => {
    const { data: made } = await t.octokit(alice.token).request('POST /repos/{owner}/{repo}/rulesets', {
      owner: org, repo, name: 'From the API', enforcement: 'active', target: 'branch',
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } },
      bypass_actors: [{ actor_id: teamId, actor_type: 'Team', bypass_mode: 'always' }],
      rules: [
        { type: 'deletion' },
        { type: 'pull_request', parameters: { required_approving_review_count: 1, dismiss_stale_reviews_on_push: true, require_code_owner_review: false, require_last_push_approval: false, required_review_thread_resolution: true } },
        { type: 'commit_message_pattern', parameters: { operator: 'starts_with', pattern: 'JIRA-', negate: false } },
      ],
    });
    const at = `${base}/${made.id}`;
    const shown = await page(aliceWeb, at);
    assert.equal(shown.status, 200);
    assert.match(shown.body, /id="ruleset-include" name="include" rows="3" aria-describedby="ruleset-targets-hint">~DEFAULT_BRANCH</);
    assert.match(shown.body, /id="ruleset-rule-deletion" name="rule_deletion" aria-describedby="ruleset-rule-deletion-hint" checked="" value="1"/);
    assert.match(shown.body, /id="ruleset-rule-non_fast_forward" name="rule_non_fast_forward" aria-describedby="ruleset-rule-non_fast_forward-hint" value="1"/, 'not ticked');
    assert.match(shown.body, /name="bypass_actors" rows="3" aria-describedby="ruleset-bypass-hint">team:core always</);
    const token = csrfIn(shown.body);
    const before = await one(made.id);

    const refused = await aliceWeb.post(at, form(token, { name: 'Renamed', include: '~DEFAULT_BRANCH', rule_pull_request: '1', required_approving_review_count: '11', bypass_actors: 'team:core always' }));
    assert.equal(refused.status, 422);
    assert.match(refused.body, /role="alert">/);
    assert.match(refused.body, /id="ruleset-name" name="name" required="" autoComplete="off" value="Renamed"/, 'as typed');
    assert.deepEqual(await one(made.id), before, 'nothing changed');

    const saved = await aliceWeb.post(at, form(token, {
      name: 'Renamed', enforcement: 'disabled', include: '~DEFAULT_BRANCH', rule_pull_request: '1', rule_required_linear_history: '1', required_approving_review_count: '3', bypass_actors: '',
    }));
    assert.equal(saved.status, 303);
    const after = await one(made.id);
    assert.equal(after.name, 'Renamed');
    assert.equal(after.enforcement, 'disabled');
    assert.deepEqual(after.rules.map((r) => r.type), ['required_linear_history', 'pull_request', 'commit_message_pattern'], 'deletion taken away, the API\'s other rule kept');
    assert.deepEqual(after.rules[1]!.parameters, { required_approving_review_count: 3, dismiss_stale_reviews_on_push: true, require_code_owner_review: false, require_last_push_approval: false, required_review_thread_resolution: true });
    assert.deepEqual(after.bypass_actors, []);

    assert.equal((await aliceWeb.post(`${at}/delete`, { authenticity_token: 'b'.repeat(64) })).status, 403);
    const gone = await aliceWeb.post(`${at}/delete`, { authenticity_token: token });
    assert.equal(gone.status, 303);
    assert.equal((await api(`/${made.id}`)).status, 404);
    assert.equal((await page(aliceWeb, at)).status, 404);
  });

  test('a collaborator who is not an admin, or anyone signed out, finds no pages and changes nothing', async () => {
    const token = csrfIn((await page(bobWeb, '/')).body);
    const count = (await list()).length;
    for (const p of [base, `${base}/new`]) assert.equal((await page(bobWeb, p)).status, 404, p);
    assert.equal((await bobWeb.post(base, form(token, { name: 'Mine' }))).status, 404);
    const { data: rs } = await t.octokit(alice.token).request('POST /repos/{owner}/{repo}/rulesets', {
      owner: org, repo, name: 'Guarded', enforcement: 'active', conditions: { ref_name: { include: ['~ALL'], exclude: [] } }, rules: [{ type: 'deletion' }],
    });
    assert.equal((await page(bobWeb, `${base}/${rs.id}`)).status, 404);
    assert.equal((await bobWeb.post(`${base}/${rs.id}`, form(token, { name: 'Mine' }))).status, 404);
    assert.equal((await bobWeb.post(`${base}/${rs.id}/delete`, { authenticity_token: token })).status, 404);
    const anonymous = await new WebClient(t).get(base, { accept: BROWSER });
    assert.equal(anonymous.status, 302);
    assert.equal((await list()).length, count + 1, 'only alice\'s');
    assert.equal((await one(rs.id)).name, 'Guarded');
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('the admin makes a ruleset from the list; axe finds nothing serious on either page', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}/login`);
      await p.fill('#login_field', alice.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      const axeCheck = async () => {
        const axe = await new AxeBuilder({ page: p }).analyze();
        const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
      };
      await p.goto(`${t.baseUrl}${base}`);
      await axeCheck();
      await p.click('#new-ruleset');
      await p.waitForSelector('#ruleset-form');
      await axeCheck();
      await p.fill('#ruleset-name', 'From the browser');
      await p.getByLabel('Block force pushes').check();
      await p.fill('#ruleset-bypass', 'role:maintain');
      await p.click('#save-ruleset');
      await p.waitForSelector('[data-ruleset="From the browser"]');
      const made = (await list()).find((r) => r.name === 'From the browser')!;
      const full = await one(made.id);
      assert.deepEqual(full.rules.map((r) => r.type), ['non_fast_forward']);
      assert.deepEqual(full.bypass_actors.map((a) => [a.actor_type, a.actor_id]), [['RepositoryRole', 2]]);
      await context.close();
    });
  });
});
