// The branch protection settings pages (#23): /{o}/{r}/settings/branches lists the classic
// rules and the rulesets; …/settings/branch_protection_rules/new and /{id} add, edit and
// delete a rule through the branch-protection service PUT/DELETE …/protection use. Also
// a pending invitation's permission change and cancellation on /{o}/{r}/settings/access,
// and the Settings tab on every repository page for admins only. Each success is checked
// through the API; each refusal comes back inline and changes nothing; forged posts are
// refused; a push collaborator and an outsider get 404, on a private repository too.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator, createRepo } from './factories/issues.ts';
import { BROWSER, CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

describe('web: branch protection and invitation settings', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  let dave: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let carolWeb: WebClient;
  let owner: string;
  const repo = 'jetty';
  let base: string;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const kit = () => t.octokit(alice.token);
  const protectionOf = (branch: string) => kit().rest.repos.getBranchProtection({ owner, repo, branch });
  const rulePosts = (token: string) => (path: string, form: Record<string, string>) =>
    aliceWeb.post(`${base}/settings/branch_protection_rules${path}`, { authenticity_token: token, ...form });

  before(async () => {
    t = await startTestServer();
    [alice, bob, carol, dave] = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    for (const u of [alice, bob, carol]) await setPassword(t, u.login, PASSWORD);
    owner = (await createOrg(t, alice.login)).login;
    await createRepo(t, alice, { name: repo, org: owner, private: true });
    await createRepo(t, alice, { name: 'berth', private: true });
    await addCollaborator(t, alice.token, { owner, repo }, carol, 'push');
    base = `/${owner}/${repo}`;
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    carolWeb = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
    assert.equal((await carolWeb.signIn(carol.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  test('the Settings tab on every repository page for admins only; the pages and posts 404 to others', async () => {
    const tab = new RegExp(`<a href="${base}/settings/access"( aria-current="page")?>Settings</a>`);
    for (const p of ['', '/issues', '/pulls', '/commits/main', '/tree/main', '/branches', '/settings/branches']) {
      assert.match((await page(aliceWeb, `${base}${p}`)).body, tab, `the tab on ${p || 'the home'}`);
    }
    for (const p of ['', '/issues', '/pulls', '/commits/main']) {
      const shown = await page(carolWeb, `${base}${p}`);
      assert.equal(shown.status, 200);
      assert.doesNotMatch(shown.body, /settings\/access/, `no tab for a push collaborator on ${p || 'the home'}`);
    }
    assert.doesNotMatch((await page(new WebClient(t), `/${owner}/${repo}`)).body, /settings\/access/);
    for (const p of ['settings/branches', 'settings/branch_protection_rules/new', 'settings/branch_protection_rules/1']) {
      assert.equal((await page(carolWeb, `${base}/${p}`)).status, 404, p);
      assert.equal((await page(bobWeb, `${base}/${p}`)).status, 404, p);
      assert.equal((await page(bobWeb, `/${alice.login}/berth/${p}`)).status, 404, p);
    }
    assert.equal((await page(new WebClient(t), `${base}/settings/branches`)).status, 302, 'signed out: to the sign-in page');
    const token = csrfIn((await page(carolWeb, base)).body);
    const made = await carolWeb.post(`${base}/settings/branch_protection_rules`, { authenticity_token: token, pattern: 'main', allow_force_pushes: '1' });
    assert.equal(made.status, 404);
    await assert.rejects(protectionOf('main'), { status: 404 });
  });

  test('a rule: add, edit and delete, checked through the API; every refusal inline with nothing changed', async () => {
    const form = await page(aliceWeb, `${base}/settings/branch_protection_rules/new`);
    assert.equal(form.status, 200);
    assert.match(form.body, /id="rule-pattern" name="pattern"/);
    const post = rulePosts(csrfIn(form.body));
    const main = {
      pattern: 'main', required_pull_request_reviews: '1', required_approving_review_count: '2', dismiss_stale_reviews: '1',
      require_code_owner_reviews: '1', required_status_checks: '1', strict: '1', contexts: 'ci/build\nci/test, ci/build',
      enforce_admins: '1', required_linear_history: '1', required_conversation_resolution: '1', required_signatures: '1',
    };

    // Refusals, each inline with what was typed, and nothing written.
    const tooMany = await post('', { ...main, required_approving_review_count: '7' });
    assert.equal(tooMany.status, 422);
    assert.match(tooMany.body, /role="alert">Invalid request.\s+required_approving_review_count must be between 0 and 6./);
    assert.match(tooMany.body, /id="rule-review-count" name="required_approving_review_count"[^>]*value="7"/);
    assert.match(tooMany.body, /id="rule-signatures" name="required_signatures" checked=""/, 'the boxes as ticked');
    const notANumber = await post('', { ...main, required_approving_review_count: 'two' });
    assert.equal(notANumber.status, 422);
    assert.match(notANumber.body, /required_pull_request_reviews.required_approving_review_count must be integer/);
    const noBranch = await post('', { ...main, pattern: 'no-such-branch' });
    assert.equal(noBranch.status, 422);
    assert.match(noBranch.body, /No branch is called no-such-branch\./);
    assert.equal((await post('', { ...main, pattern: '  ' })).status, 422);
    const nobody = await post('', { ...main, restrictions: '1', users: 'no-such-user-here' });
    assert.equal(nobody.status, 422);
    assert.match(nobody.body, /Could not resolve user no-such-user-here/);
    const long = await post('', { ...main, contexts: 'x'.repeat(256) });
    assert.equal(long.status, 422, 'a context longer than PUT takes');
    const personal = await aliceWeb.post(`/${alice.login}/berth/settings/branch_protection_rules`, { authenticity_token: csrfIn(form.body), pattern: 'main', restrictions: '1', users: carol.login });
    assert.equal(personal.status, 422);
    assert.match(personal.body, /Only organization repositories can have users and team restrictions/);
    assert.equal((await post('', { ...main, authenticity_token: 'a'.repeat(64) })).status, 403, 'forged token');
    assert.equal((await aliceWeb.post(`${base}/settings/branch_protection_rules`, main)).status, 403, 'no token');
    await assert.rejects(protectionOf('main'), { status: 404 });
    await assert.rejects(kit().rest.repos.getBranchProtection({ owner: alice.login, repo: 'berth', branch: 'main' }), { status: 404 });

    // Add: every setting lands as PUT would have written it.
    const made = await post('', main);
    assert.equal(made.status, 303);
    assert.equal(made.location, `${base}/settings/branches`);
    const p = (await protectionOf('main')).data;
    assert.deepEqual(
      [p.required_pull_request_reviews?.required_approving_review_count, p.required_pull_request_reviews?.dismiss_stale_reviews, p.required_pull_request_reviews?.require_code_owner_reviews, p.required_pull_request_reviews?.require_last_push_approval],
      [2, true, true, false]);
    assert.deepEqual([p.required_status_checks?.strict, p.required_status_checks?.contexts], [true, ['ci/build', 'ci/test']]);
    assert.deepEqual([p.enforce_admins?.enabled, p.required_linear_history?.enabled, p.required_conversation_resolution?.enabled, p.required_signatures?.enabled],
      [true, true, true, true]);
    assert.deepEqual([p.allow_force_pushes?.enabled, p.allow_deletions?.enabled, p.lock_branch?.enabled, p.restrictions], [false, false, false, undefined]);
    const again = await post('', { pattern: 'main' });
    assert.equal(again.status, 422, 'a second rule for the same pattern');
    assert.match(again.body, /main already has a protection rule/);
    assert.equal((await protectionOf('main')).data.required_pull_request_reviews?.required_approving_review_count, 2);

    // A wildcard pattern protects branches to come; restrictions name a collaborator.
    assert.equal((await post('', { pattern: 'release/**', lock_branch: '1', allow_deletions: '1', restrictions: '1', users: carol.login })).status, 303);
    const { data: rules } = await kit().rest.repos.listBranches({ owner, repo, protected: true });
    assert.deepEqual(rules.map((b) => b.name), ['main']);
    const list = await page(aliceWeb, `${base}/settings/branches`);
    assert.equal(list.status, 200);
    assert.match(list.body, /data-rule="main"[^]*?2 approving reviews · stale reviews dismissed · code owner review · status checks \(ci\/build, ci\/test\), up to date · signed commits · linear history · conversations resolved · admins included/);
    assert.match(list.body, /data-rule="release\/\*\*"[^]*?locked · pushes restricted · deletions allowed/);
    const ruleId = /href="[^"]*\/settings\/branch_protection_rules\/(\d+)"><strong>main</.exec(list.body)![1]!;
    const wildId = /href="[^"]*\/settings\/branch_protection_rules\/(\d+)"><strong>release\/\*\*</.exec(list.body)![1]!;
    const wild = await page(aliceWeb, `${base}/settings/branch_protection_rules/${wildId}`);
    assert.match(wild.body, new RegExp(`id="rule-users" name="users"[^>]*value="${carol.login}"`));

    // Edit: what the form shows is the rule; a refused edit changes nothing.
    const edit = await page(aliceWeb, `${base}/settings/branch_protection_rules/${ruleId}`);
    assert.equal(edit.status, 200);
    assert.match(edit.body, /<code id="rule-pattern">main<\/code>/);
    assert.match(edit.body, /id="rule-review-count" name="required_approving_review_count"[^>]*value="2"/);
    assert.match(edit.body, /<textarea id="rule-contexts" name="contexts" rows="3">ci\/build\nci\/test<\/textarea>/);
    const badEdit = await post(`/${ruleId}`, { ...main, required_approving_review_count: '-1', allow_force_pushes: '1' });
    assert.equal(badEdit.status, 422);
    assert.match(badEdit.body, /must be between 0 and 6/);
    assert.equal((await protectionOf('main')).data.allow_force_pushes?.enabled, false);
    const saved = await post(`/${ruleId}`, { allow_force_pushes: '1', required_status_checks: '1', contexts: 'ci/only' });
    assert.equal(saved.status, 303);
    const changed = (await protectionOf('main')).data;
    assert.deepEqual(
      [changed.required_pull_request_reviews, changed.allow_force_pushes?.enabled, changed.required_signatures?.enabled, changed.enforce_admins?.enabled, changed.required_status_checks?.contexts, changed.required_status_checks?.strict],
      [undefined, true, false, false, ['ci/only'], false]);

    // Delete.
    assert.equal((await post(`/${ruleId}/delete`, { authenticity_token: 'b'.repeat(64) })).status, 403);
    await protectionOf('main');
    const gone = await post(`/${ruleId}/delete`, {});
    assert.equal(gone.status, 303);
    assert.equal(gone.location, `${base}/settings/branches`);
    await assert.rejects(protectionOf('main'), { status: 404 });
    assert.equal((await page(aliceWeb, `${base}/settings/branch_protection_rules/${ruleId}`)).status, 404);
    assert.equal((await post(`/${ruleId}`, { allow_force_pushes: '1' })).status, 404, 'an edit of a deleted rule');
    assert.equal((await page(aliceWeb, `${base}/settings/branch_protection_rules/x1`)).status, 404);

    // A push collaborator cannot delete the remaining rule.
    const carolToken = csrfIn((await page(carolWeb, base)).body);
    assert.equal((await carolWeb.post(`${base}/settings/branch_protection_rules/${wildId}/delete`, { authenticity_token: carolToken })).status, 404);
    assert.match((await page(aliceWeb, `${base}/settings/branches`)).body, /data-rule="release\/\*\*"/);
  });

  test('rulesets are listed read-only beside the rules', async () => {
    await kit().request('POST /repos/{owner}/{repo}/rulesets', {
      owner, repo, name: 'no force', target: 'branch', enforcement: 'evaluate',
      conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } }, rules: [{ type: 'non_fast_forward' }],
    });
    const list = await page(aliceWeb, `${base}/settings/branches`);
    assert.match(list.body, /data-ruleset="no force"[^]*?evaluate[^]*?Target: branch · Includes: ~DEFAULT_BRANCH · Rules: non_fast_forward/);
  });

  test('access: a pending invitation\'s permission changed and the invitation cancelled, through the API\'s services', async () => {
    const { data: invited } = await kit().rest.repos.addCollaborator({ owner, repo, username: dave.login, permission: 'triage' });
    const id = invited!.id;
    const shown = await page(aliceWeb, `${base}/settings/access`);
    assert.match(shown.body, new RegExp(`data-invitation="${dave.login}" data-invitation-id="${id}"[^]*?data-permission="triage"`));
    const token = csrfIn(shown.body);
    const post = (path: string, form: Record<string, string>) => aliceWeb.post(`${base}/settings/access/invitations/${path}`, { authenticity_token: token, ...form });
    const permissionOf = async () => (await kit().rest.repos.listInvitations({ owner, repo })).data.map((i) => i.permissions);

    const bad = await post(String(id), { permissions: 'owner' });
    assert.equal(bad.status, 422);
    assert.match(bad.body, /role="alert">owner is not one of read, triage, write, maintain, admin\./);
    assert.equal((await post(String(id), { permissions: 'admin', authenticity_token: 'c'.repeat(64) })).status, 403);
    const carolToken = csrfIn((await page(carolWeb, base)).body);
    assert.equal((await carolWeb.post(`${base}/settings/access/invitations/${id}`, { authenticity_token: carolToken, permissions: 'admin' })).status, 404);
    assert.equal((await carolWeb.post(`${base}/settings/access/invitations/${id}/delete`, { authenticity_token: carolToken })).status, 404);
    assert.equal((await aliceWeb.post(`/${alice.login}/berth/settings/access/invitations/${id}`, { authenticity_token: token, permissions: 'admin' })).status, 404, 'another repository\'s address');
    assert.deepEqual(await permissionOf(), ['triage']);

    const changed = await post(String(id), { permissions: 'maintain' });
    assert.equal(changed.status, 303);
    assert.equal(changed.location, `${base}/settings/access`);
    assert.deepEqual(await permissionOf(), ['maintain']);

    assert.equal((await post(`${id}/delete`, { authenticity_token: 'd'.repeat(64) })).status, 403);
    assert.deepEqual(await permissionOf(), ['maintain']);
    const cancelled = await post(`${id}/delete`, {});
    assert.equal(cancelled.status, 303);
    assert.deepEqual(await permissionOf(), []);
    assert.match((await page(aliceWeb, `${base}/settings/access`)).body, /No pending invitations/);
    assert.equal((await post(`${id}/delete`, {})).status, 404, 'already cancelled');
  });

  describe('in a real browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('protect the default branch from the settings menu', async () => {
      const context = await browser.newContext();
      const p = await context.newPage();
      await p.goto(`${t.baseUrl}/login?return_to=${encodeURIComponent(`${base}/issues`)}`);
      await p.fill('#login_field', alice.login);
      await p.fill('#password', PASSWORD);
      await p.click('#sign-in');
      await p.click('nav[aria-label="Repository"] >> text=Settings');
      await p.click('nav[aria-label="Settings"] >> text=Branches');
      await p.click('#new-rule');
      await p.fill('#rule-pattern', 'main');
      await p.check('#rule-reviews');
      await p.fill('#rule-review-count', '3');
      await p.check('#rule-linear');
      const axe = await new AxeBuilder({ page: p }).analyze();
      const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], 'the form is accessible');
      await p.click('#save-rule');
      await p.waitForSelector('li[data-rule="main"]');
      const made = (await protectionOf('main')).data;
      assert.deepEqual([made.required_pull_request_reviews?.required_approving_review_count, made.required_linear_history?.enabled], [3, true]);
      await context.close();
    });
  });
});
