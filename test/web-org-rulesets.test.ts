// Organization rulesets in the web interface's settings (/organizations/{org}/settings/rules,
// #23): the list, reached from the organization settings menu, and a branch ruleset made,
// edited and deleted through the same organization rulesets service that
// /orgs/{org}/rulesets uses: the repository rulesets pages' form (name, enforcement,
// branches, common rules, bypass list) with the repositories it covers by name, each
// checked through the API. What the form does not show is kept on edit; refusals come back
// inline with nothing changed; forged posts are refused; the pages are a 404 to a member
// who does not own the organization, and a signed-out visitor is sent to sign in, neither
// changing anything. Headless Chromium makes one, with axe-core on both pages.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg } from './factories/orgs.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

interface ApiRuleset {
  id: number;
  name: string;
  enforcement: string;
  conditions: {
    ref_name?: { include: string[]; exclude: string[] };
    repository_name?: { include: string[]; exclude: string[]; protected?: boolean };
  } | null;
  rules: { type: string; parameters?: Record<string, unknown> }[];
  bypass_actors: { actor_id: number | null; actor_type: string; bypass_mode: string }[];
}

describe('web settings: organization rulesets', () => {
  let t: TestServer;
  let org: CreatedOrg;
  /** A member who does not own the organization: no pages. */
  let member: CreatedUser;
  let carol: CreatedUser;
  let ownerWeb: WebClient;
  let memberWeb: WebClient;
  let base: string;
  let teamId: number;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const api = async (path = '') => {
    const res = await t.request(`/orgs/${org.login}/rulesets${path}`, { token: org.owner.token });
    return { status: res.status, body: await res.json() as unknown };
  };
  const list = async () => (await api()).body as ApiRuleset[];
  const one = async (id: number) => (await api(`/${id}`)).body as ApiRuleset;
  const form = (token: string, fields: Record<string, string>) => ({
    authenticity_token: token, name: '', enforcement: 'active', repository_include: '~ALL', repository_exclude: '', include: 'main', exclude: '',
    required_approving_review_count: '1', contexts: '', bypass_actors: '', ...fields,
  });
  /** The rules GET /repos/{o}/{r}/rules/branches/{branch} reads for a repository: where the ruleset applies. */
  const rulesOn = async (repo: string, branch: string) => {
    const res = await t.request(`/repos/${org.login}/${repo}/rules/branches/${branch}`, { token: org.owner.token });
    return (await res.json() as { type: string; ruleset_id: number }[]);
  };

  before(async () => {
    t = await startTestServer();
    org = await createOrgWithOwner(t);
    member = await addMember(t, org);
    carol = await createUser(t);
    for (const u of [org.owner, member]) await setPassword(t, u.login, PASSWORD);
    for (const name of ['harbour', 'harbour-old', 'scratch']) await t.octokit(org.owner.token).rest.repos.createInOrg({ org: org.login, name, auto_init: true });
    teamId = (await createTeam(t, org.owner.token, org.login, { name: 'Core' })).id;
    base = `/organizations/${org.login}/settings/rules`;
    ownerWeb = new WebClient(t);
    memberWeb = new WebClient(t);
    for (const [c, u] of [[ownerWeb, org.owner], [memberWeb, member]] as const) assert.equal((await c.signIn(u.login, PASSWORD)).status, 303);
  });
  after(async () => { await t?.close(); });

  test('create: what the API then reads and where it applies; refusals inline with nothing made', async () => {
    const settings = await page(ownerWeb, `/organizations/${org.login}/settings/profile`);
    assert.match(settings.body, new RegExp(`<nav aria-label="Organization settings" class="tabs">.*<a href="${base}">Rules</a>`), 'in the settings menu');
    const listed = await page(ownerWeb, base);
    assert.equal(listed.status, 200);
    assert.match(listed.body, new RegExp(`<a href="${base}" aria-current="page">Rules</a>`));
    assert.match(listed.body, /id="rulesets">No rulesets yet\./);
    const shown = await page(ownerWeb, `${base}/new`);
    assert.equal(shown.status, 200);
    assert.match(shown.body, /<textarea id="ruleset-repository-include" name="repository_include" rows="3" aria-describedby="ruleset-repositories-hint">~ALL<\/textarea>/);
    assert.match(shown.body, /<textarea id="ruleset-include" name="include" rows="3" aria-describedby="ruleset-targets-hint">~DEFAULT_BRANCH<\/textarea>/);
    const token = csrfIn(shown.body);
    const good = {
      name: 'Harbour branches', enforcement: 'active', repository_include: 'harbour*', repository_exclude: 'harbour-old',
      include: 'main\nrelease/*', exclude: 'release/old',
      rule_deletion: '1', rule_pull_request: '1', required_approving_review_count: '2', rule_required_status_checks: '1', contexts: 'ci/build',
      bypass_actors: `org-admins\nteam:core pull_request\nuser:${carol.login} exempt`,
    };

    for (const [fields, message] of [
      [{ ...good, name: '  ' }, /Name can(&#x27;|')t be blank/],
      [{ ...good, repository_include: '' }, /Name at least one repository to target/],
      [{ ...good, repository_include: 'harbour\nnot a name' }, /Repositories to include, &quot;not a name&quot;: a repository name/],
      [{ ...good, repository_exclude: 'old/one' }, /Repositories to exclude, &quot;old\/one&quot;/],
      [{ ...good, include: '' }, /Name at least one branch to target/],
      [{ ...good, bypass_actors: 'team:nobody' }, /Bypass list, &quot;team:nobody&quot;: there is no team nobody/],
      [{ ...good, enforcement: 'loudly' }, /Choose the enforcement/],
      [{ ...good, contexts: '' }, /Name at least one status check/],
    ] as const) {
      const res = await ownerWeb.post(base, form(token, fields));
      assert.equal(res.status, 422, JSON.stringify(fields));
      assert.match(res.body, new RegExp(`role="alert">[^<]*${message.source}`));
      assert.match(res.body, new RegExp(`<form method="post" action="${base}" class="box" id="ruleset-form"`), 'the form again');
      assert.match(res.body, new RegExp(`id="ruleset-repository-include" name="repository_include" rows="3" aria-describedby="ruleset-repositories-hint">${fields.repository_include.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}<`), 'as typed');
    }
    assert.equal((await ownerWeb.post(base, { ...form(token, good), authenticity_token: 'b'.repeat(64) })).status, 403, 'forged token');
    assert.deepEqual(await list(), [], 'nothing made');

    const made = await ownerWeb.post(base, form(token, good));
    assert.equal(made.status, 303);
    assert.equal(made.location, `${base}#rulesets`);
    const [rs] = await list();
    const full = await one(rs!.id);
    assert.equal(full.name, 'Harbour branches');
    assert.equal(full.enforcement, 'active');
    assert.deepEqual(full.conditions?.repository_name, { include: ['harbour*'], exclude: ['harbour-old'], protected: false });
    assert.deepEqual(full.conditions?.ref_name, { include: ['refs/heads/main', 'refs/heads/release/*'], exclude: ['refs/heads/release/old'] });
    assert.deepEqual(full.rules.map((r) => r.type), ['deletion', 'pull_request', 'required_status_checks']);
    assert.equal(full.rules[1]!.parameters!.required_approving_review_count, 2);
    const carolId = (await t.octokit(org.owner.token).rest.users.getByUsername({ username: carol.login })).data.id;
    assert.deepEqual(full.bypass_actors.map((a) => [a.actor_type, a.actor_id, a.bypass_mode]), [
      ['OrganizationAdmin', null, 'always'], ['Team', teamId, 'pull_request'], ['User', carolId, 'exempt'],
    ]);
    const applies = async (repo: string) => (await rulesOn(repo, 'main')).some((r) => r.ruleset_id === rs!.id);
    assert.deepEqual([await applies('harbour'), await applies('harbour-old'), await applies('scratch')], [true, false, false], 'the repositories it names, less the excluded');

    const dup = await ownerWeb.post(base, form(token, { ...good, bypass_actors: '' }));
    assert.equal(dup.status, 422);
    assert.match(dup.body, /role="alert">Name must be unique</);
    assert.equal((await list()).length, 1);
    assert.match((await page(ownerWeb, base)).body,
      new RegExp(`<li class="row" data-ruleset="Harbour branches"><div><a href="${base}/${rs!.id}"><strong>Harbour branches</strong></a>.*Repositories: harbour\\* except harbour-old`));
  });

  test('edit keeps what the form does not show; a refused save changes nothing; delete; rulesets the form does not edit are listed only', async () => {
    const { data: made } = await t.octokit(org.owner.token).request('POST /orgs/{org}/rulesets', {
      org: org.login, name: 'From the API', enforcement: 'active', target: 'branch',
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] }, repository_name: { include: ['scratch'], exclude: [], protected: true } },
      bypass_actors: [{ actor_id: teamId, actor_type: 'Team', bypass_mode: 'always' }],
      rules: [
        { type: 'deletion' },
        { type: 'commit_message_pattern', parameters: { operator: 'starts_with', pattern: 'JIRA-', negate: false } },
      ],
    });
    const repoId = (await t.octokit(org.owner.token).rest.repos.get({ owner: org.login, repo: 'scratch' })).data.id;
    const { data: byId } = await t.octokit(org.owner.token).request('POST /orgs/{org}/rulesets', {
      org: org.login, name: 'Chosen by id', enforcement: 'active', target: 'branch',
      conditions: { ref_name: { include: ['~ALL'], exclude: [] }, repository_id: { repository_ids: [repoId] } }, rules: [{ type: 'deletion' }],
    });
    const at = `${base}/${made.id}`;
    const shown = await page(ownerWeb, at);
    assert.equal(shown.status, 200);
    assert.match(shown.body, /id="ruleset-repository-include" name="repository_include" rows="3" aria-describedby="ruleset-repositories-hint">scratch</);
    assert.match(shown.body, /id="ruleset-rule-deletion" name="rule_deletion" aria-describedby="ruleset-rule-deletion-hint" checked="" value="1"/);
    assert.match(shown.body, /name="bypass_actors" rows="3" aria-describedby="ruleset-bypass-hint">team:core always</);
    const token = csrfIn(shown.body);
    const before = await one(made.id);

    const refusals: Record<string, string>[] = [
      { name: 'Renamed', include: '~DEFAULT_BRANCH', repository_include: 'scratch\nharbour', rule_pull_request: '1', required_approving_review_count: '11' },
      { name: 'Renamed', include: '~DEFAULT_BRANCH', repository_include: 'scratch harbour' },
      { name: 'Chosen by id', include: '~DEFAULT_BRANCH', repository_include: 'scratch' },
    ];
    for (const fields of refusals) {
      const refused = await ownerWeb.post(at, form(token, fields));
      assert.equal(refused.status, 422, JSON.stringify(fields));
      assert.match(refused.body, /role="alert">/);
      assert.match(refused.body, new RegExp(`id="ruleset-name" name="name" required="" autoComplete="off" value="${fields.name!}"`), 'as typed');
      assert.deepEqual(await one(made.id), before, 'nothing changed');
    }

    const saved = await ownerWeb.post(at, form(token, {
      name: 'Renamed', enforcement: 'evaluate', repository_include: 'scratch\nharbour', repository_exclude: '', include: '~DEFAULT_BRANCH',
      rule_non_fast_forward: '1', bypass_actors: '',
    }));
    assert.equal(saved.status, 303);
    assert.equal(saved.location, `${base}#rulesets`);
    const after = await one(made.id);
    assert.equal(after.name, 'Renamed');
    assert.equal(after.enforcement, 'evaluate');
    assert.deepEqual(after.conditions?.repository_name, { include: ['scratch', 'harbour'], exclude: [], protected: true }, 'protected kept');
    assert.deepEqual(after.rules.map((r) => r.type), ['non_fast_forward', 'commit_message_pattern'], 'deletion taken away, the API\'s other rule kept');
    assert.deepEqual(after.bypass_actors, []);

    // Chosen by id: listed, edited through the API (no form: 404).
    const listed = (await page(ownerWeb, base)).body;
    assert.match(listed, /<li class="row" data-ruleset="Chosen by id"><div><strong>Chosen by id<\/strong> <span class="badge ok">active<\/span><span class="muted"> \(edited through the API\)<\/span>/);
    assert.equal((await page(ownerWeb, `${base}/${byId.id}`)).status, 404);
    assert.equal((await ownerWeb.post(`${base}/${byId.id}`, form(token, { name: 'Taken' }))).status, 404);
    assert.equal((await one(byId.id)).name, 'Chosen by id');

    assert.equal((await ownerWeb.post(`${at}/delete`, { authenticity_token: 'b'.repeat(64) })).status, 403);
    assert.equal((await api(`/${made.id}`)).status, 200, 'the forged delete did nothing');
    const gone = await ownerWeb.post(`${at}/delete`, { authenticity_token: token });
    assert.equal(gone.status, 303);
    assert.equal(gone.location, base);
    assert.equal((await api(`/${made.id}`)).status, 404);
    assert.equal((await page(ownerWeb, at)).status, 404);
    assert.equal((await page(ownerWeb, `${base}/nonsense`)).status, 404);
  });

  test('a member who does not own the organization, or anyone signed out, finds no pages and changes nothing', async () => {
    const { data: rs } = await t.octokit(org.owner.token).request('POST /orgs/{org}/rulesets', {
      org: org.login, name: 'Guarded', enforcement: 'active',
      conditions: { ref_name: { include: ['~ALL'], exclude: [] }, repository_name: { include: ['~ALL'], exclude: [] } }, rules: [{ type: 'deletion' }],
    });
    const before = await list();
    const token = csrfIn((await page(memberWeb, '/')).body);
    for (const p of [base, `${base}/new`, `${base}/${rs.id}`]) assert.equal((await page(memberWeb, p)).status, 404, p);
    assert.equal((await memberWeb.post(base, form(token, { name: 'Mine' }))).status, 404);
    assert.equal((await memberWeb.post(`${base}/${rs.id}`, form(token, { name: 'Mine' }))).status, 404);
    assert.equal((await memberWeb.post(`${base}/${rs.id}/delete`, { authenticity_token: token })).status, 404);
    assert.doesNotMatch((await page(memberWeb, `/orgs/${org.login}/people`)).body, new RegExp(`href="${base}"`), 'no way here for a member');

    const visitor = new WebClient(t);
    for (const p of [base, `${base}/new`, `${base}/${rs.id}`]) {
      const res = await page(visitor, p);
      assert.equal(res.status, 302, p);
      assert.match(res.location ?? '', /^\/login/);
    }
    assert.notEqual((await visitor.post(base, form('b'.repeat(64), { name: 'Mine' }))).status, 303);
    assert.notEqual((await visitor.post(`${base}/${rs.id}/delete`, { authenticity_token: 'b'.repeat(64) })).status, 303);
    assert.equal((await page(ownerWeb, '/organizations/no-such-org-here/settings/rules')).status, 404);
    assert.deepEqual(await list(), before, 'nothing changed');
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('the owner goes from the settings menu to a new ruleset; axe finds nothing serious on either page', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}/login?return_to=${encodeURIComponent(`/organizations/${org.login}/settings/profile`)}`);
      await p.fill('#login_field', org.owner.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.waitForSelector('#org-profile-form');
      const axeCheck = async () => {
        const axe = await new AxeBuilder({ page: p }).analyze();
        const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
      };
      await p.click('nav[aria-label="Organization settings"] >> text=Rules');
      await p.waitForSelector('#new-ruleset');
      await axeCheck();
      await p.click('#new-ruleset');
      await p.waitForSelector('#ruleset-form');
      await axeCheck();
      await p.fill('#ruleset-name', 'From the browser');
      await p.getByLabel('Include repositories').fill('scratch');
      await p.getByLabel('Block force pushes').check();
      await p.fill('#ruleset-bypass', 'org-admins');
      await p.click('#save-ruleset');
      await p.waitForSelector('[data-ruleset="From the browser"]');
      const made = (await list()).find((r) => r.name === 'From the browser')!;
      const full = await one(made.id);
      assert.deepEqual(full.conditions?.repository_name?.include, ['scratch']);
      assert.deepEqual(full.conditions?.ref_name?.include, ['~DEFAULT_BRANCH']);
      assert.deepEqual(full.rules.map((r) => r.type), ['non_fast_forward']);
      assert.deepEqual(full.bypass_actors.map((a) => [a.actor_type, a.actor_id]), [['OrganizationAdmin', null]]);
      await context.close();
    });
  });
});
